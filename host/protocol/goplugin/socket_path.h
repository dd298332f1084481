// Where the plugin listens: a unix socket inside a freshly created private directory, removed
// again when the server is done.
#pragma once

#include <memory>
#include <string>

namespace luaform::protocol {

// PLUGIN_UNIX_SOCKET_DIR when the client set it, else $TMPDIR, else /tmp (as go-plugin does). A
// $TMPDIR too deep for a socket path gives /tmp.
std::string socket_base_directory();

class SocketDirectory {
 public:
  // Creates a 0700 directory under `base`; nullptr and `error` set on failure, among them a
  // `base` too deep for a unix socket path (it is never silently replaced).
  static std::unique_ptr<SocketDirectory> create(const std::string& base, std::string& error);
  ~SocketDirectory();
  SocketDirectory(const SocketDirectory&) = delete;
  SocketDirectory& operator=(const SocketDirectory&) = delete;

  const std::string& directory() const { return directory_; }
  const std::string& socket_path() const { return socket_path_; }

 private:
  explicit SocketDirectory(std::string directory);
  std::string directory_;
  std::string socket_path_;
};

}  // namespace luaform::protocol
