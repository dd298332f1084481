#include "host/lua/modules/system_certificates.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace luaform::lua::http {
namespace {

std::string env_or_empty(const char* name) {
  const char* value = std::getenv(name);  // NOLINT(concurrency-mt-unsafe): read, never set
  return value != nullptr ? value : "";
}

}  // namespace

SystemCertificates find_system_certificates(const std::vector<std::string>& candidates) {
  SystemCertificates found{env_or_empty("SSL_CERT_FILE"), env_or_empty("SSL_CERT_DIR")};
  if (!found.file.empty()) return found;
  for (const auto& candidate : candidates) {
    std::error_code error;
    if (std::filesystem::is_regular_file(candidate, error)) {
      found.file = candidate;
      break;
    }
  }
  return found;
}

const SystemCertificates& system_certificates() {
  // The places distributions keep one PEM bundle of every trusted authority.
  static const SystemCertificates certificates = find_system_certificates({
      "/etc/ssl/certs/ca-certificates.crt",                 // Debian, Ubuntu, Arch, Gentoo
      "/etc/pki/tls/certs/ca-bundle.crt",                   // Fedora, RHEL
      "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",  // CentOS, RHEL 7 and later
      "/etc/ssl/ca-bundle.pem",                             // openSUSE
      "/etc/pki/tls/cacert.pem",                            // OpenELEC
      "/etc/ssl/cert.pem",                                  // Alpine, macOS, FreeBSD
      "/usr/local/etc/ssl/cert.pem",                        // FreeBSD's ca_root_nss
  });
  return certificates;
}

}  // namespace luaform::lua::http
