// Where the system keeps the certificate authorities that HTTPS requests trust by default.
// Debian's libcurl has its own default, but a release host links a libcurl without one (it
// cannot know the distribution it will run on), so the host finds the bundle itself, as Go's
// crypto/x509 does for Go providers, and honours the same environment variables.
#pragma once

#include <string>
#include <vector>

namespace luaform::lua::http {

struct SystemCertificates {
  std::string file;       // a PEM bundle, or empty when none was found
  std::string directory;  // a hashed certificate directory (SSL_CERT_DIR), or empty
};

// SSL_CERT_FILE and SSL_CERT_DIR when set; otherwise the first bundle of `candidates` that
// exists. Read once per process by system_certificates().
SystemCertificates find_system_certificates(const std::vector<std::string>& candidates);

// find_system_certificates with the bundle paths of the common Linux distributions, BSDs and
// macOS, computed on first use.
const SystemCertificates& system_certificates();

}  // namespace luaform::lua::http
