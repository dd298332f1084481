#include "host/lua/modules/system_certificates.h"

#include <doctest/doctest.h>
#include <stdlib.h>  // NOLINT(modernize-deprecated-headers): setenv and unsetenv are POSIX

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

namespace http = luaform::lua::http;
namespace fs = std::filesystem;

namespace {

// Sets (or, with nullptr, removes) an environment variable for the life of the object.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* before = ::getenv(name)) before_ = before;  // NOLINT(concurrency-mt-unsafe)
    if (value != nullptr) {
      ::setenv(name, value, 1);  // NOLINT(concurrency-mt-unsafe): the test is single-threaded
    } else {
      ::unsetenv(name);  // NOLINT(concurrency-mt-unsafe)
    }
  }
  ~ScopedEnv() {
    if (before_) {
      ::setenv(name_, before_->c_str(), 1);  // NOLINT(concurrency-mt-unsafe)
    } else {
      ::unsetenv(name_);  // NOLINT(concurrency-mt-unsafe)
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> before_;
};

}  // namespace

TEST_CASE("the first bundle that exists is the system's, and a missing one is skipped") {
  const ScopedEnv no_file("SSL_CERT_FILE", nullptr);
  const ScopedEnv no_dir("SSL_CERT_DIR", nullptr);
  const fs::path dir = fs::temp_directory_path() / "luaform-system-certificates-test";
  fs::create_directories(dir);
  std::ofstream(dir / "second.pem") << "-----BEGIN CERTIFICATE-----\n";
  const auto found = http::find_system_certificates(
      {(dir / "first.pem").string(), dir.string(), (dir / "second.pem").string()});
  CHECK(found.file == (dir / "second.pem").string());  // the directory is not a bundle
  CHECK(found.directory.empty());
  CHECK(http::find_system_certificates({(dir / "first.pem").string()}).file.empty());
  fs::remove_all(dir);
}

TEST_CASE("SSL_CERT_FILE and SSL_CERT_DIR win over the distribution's bundle, as in Go") {
  const ScopedEnv file("SSL_CERT_FILE", "/srv/company-ca.pem");
  const ScopedEnv dir("SSL_CERT_DIR", "/srv/company-certs");
  const auto found = http::find_system_certificates({"/etc/ssl/certs/ca-certificates.crt"});
  CHECK(found.file == "/srv/company-ca.pem");
  CHECK(found.directory == "/srv/company-certs");
}
