// A provider started the way Terraform starts one: go-plugin's environment added to ours,
// stdout on a pipe for the handshake line, and killed and reaped when we are done with it.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "tests/bench/tools/pipe_reader.h"

namespace luaform::bench {

// What the handshake line announced.
struct Handshake {
  std::string network;  // "unix" or "tcp"
  std::string address;  // socket path or host:port
  // The gRPC target for the address, such as "unix:/tmp/plugin123/plugin.sock".
  std::string grpc_target() const;
};

// Parses `1|6|unix|/path|grpc|`; throws std::runtime_error naming what is wrong.
Handshake parse_handshake(const std::string& line);

// Where the provider's stderr goes. Providers built on terraform-plugin-go log every call at
// TRACE level there (the CLI filters them), megabytes per thousand calls: passing that on to
// our stderr would bury our own messages.
enum class ProviderStderr {
  Tail,     // read through a pipe, as the CLI reads it; the last few KiB are kept for errors
  Discard,  // /dev/null: the provider pays only for formatting, and we for nothing
};

class PluginProcess {
 public:
  // Spawns `command` (looked up on PATH). Throws std::runtime_error when it cannot start.
  static std::unique_ptr<PluginProcess> start(const std::vector<std::string>& command,
                                              ProviderStderr stderr_mode);
  ~PluginProcess();  // SIGKILL and reap when still running
  PluginProcess(const PluginProcess&) = delete;
  PluginProcess& operator=(const PluginProcess&) = delete;

  // Reads the handshake line; throws when the provider exits, closes stdout, stays silent
  // for `timeout`, or prints something that is not a handshake.
  Handshake wait_for_handshake(std::chrono::milliseconds timeout);

  pid_t pid() const { return pid_; }
  // The end of what the provider wrote to stderr (empty when discarded). Once the provider
  // has ended, this waits until everything it wrote has been read.
  std::string stderr_tail();
  // "" while the provider runs, else how it ended ("exited with status 2"). Reaps it.
  std::string exit_description();
  // Returns true once the provider has ended (and is reaped), waiting at most `timeout`.
  bool wait_for_exit(std::chrono::milliseconds timeout);
  // SIGTERM, then SIGKILL if it is still there after `grace`; returns once it is reaped.
  void terminate(std::chrono::milliseconds grace);
  // SIGKILL and reap.
  void kill();

 private:
  PluginProcess(pid_t pid, int stdout_fd, int stderr_fd);

  pid_t pid_;
  int stdout_fd_;  // until the handshake; then owned by stdout_drain_
  std::optional<int> wait_status_;
  // Whatever the provider writes to stdout after the handshake is thrown away.
  std::unique_ptr<PipeReader> stdout_drain_;
  std::mutex tail_mutex_;
  std::string tail_;
  std::unique_ptr<PipeReader> stderr_reader_;
};

}  // namespace luaform::bench
