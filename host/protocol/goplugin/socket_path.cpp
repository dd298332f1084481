#include "host/protocol/goplugin/socket_path.h"

#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace luaform::protocol {

namespace {

constexpr const char* kSocketName = "plugin.sock";

const char* non_empty_env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? v : nullptr;
}

// sockaddr_un holds at most sizeof(sun_path) - 1 path bytes (107 on Linux).
bool fits_sockaddr(const std::string& dir) {
  // dir + "/luaform-XXXXXX/" + socket name + NUL
  return dir.size() + 1 + 14 + 1 + std::strlen(kSocketName) + 1 <= sizeof(sockaddr_un{}.sun_path);
}

}  // namespace

std::string socket_base_directory() {
  // The client asked for this directory: it is used as it is, and one too deep is an error.
  if (const char* dir = non_empty_env("PLUGIN_UNIX_SOCKET_DIR")) return dir;
  // A deep $TMPDIR would make the socket path unusable; /tmp always fits.
  if (const char* dir = non_empty_env("TMPDIR"); dir != nullptr && fits_sockaddr(dir)) return dir;
  return "/tmp";
}

std::unique_ptr<SocketDirectory> SocketDirectory::create(const std::string& base,
                                                         std::string& error) {
  std::string root = base;
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  if (!fits_sockaddr(root)) {
    error = "the socket directory " + root + " (PLUGIN_UNIX_SOCKET_DIR) is " +
            std::to_string(root.size()) + " bytes long; a unix socket path under it would pass " +
            std::to_string(sizeof(sockaddr_un{}.sun_path) - 1) +
            " bytes, the most the system allows. Choose a shorter directory.";
    return nullptr;
  }
  std::string tmpl = root + "/luaform-XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  // mkdtemp creates the directory with mode 0700: only we can reach the socket.
  if (mkdtemp(buf.data()) == nullptr) {
    error = "cannot create a socket directory in " + root + ": " + std::strerror(errno);
    return nullptr;
  }
  return std::unique_ptr<SocketDirectory>(new SocketDirectory(buf.data()));
}

SocketDirectory::SocketDirectory(std::string directory)
    : directory_(std::move(directory)), socket_path_(directory_ + "/" + kSocketName) {}

SocketDirectory::~SocketDirectory() {
  // Best effort: the server may already have removed its socket.
  ::unlink(socket_path_.c_str());
  ::rmdir(directory_.c_str());
}

}  // namespace luaform::protocol
