#include "tests/bench/tools/plugin_process.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <utility>

extern char** environ;

namespace luaform::bench {

namespace {

constexpr const char* kCookieKey = "TF_PLUGIN_MAGIC_COOKIE";
constexpr const char* kCookieValue =
    "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";
constexpr const char* kVersionsKey = "PLUGIN_PROTOCOL_VERSIONS";
// Without a client certificate the provider serves plain gRPC, which is what we measure.
constexpr const char* kClientCertKey = "PLUGIN_CLIENT_CERT";
// Enough for a Go panic's first frames or a few log lines, little enough to read in an error.
constexpr size_t kTailBytes = 4096;

bool has_key(const char* entry, const char* key) {
  const size_t n = std::strlen(key);
  return std::strncmp(entry, key, n) == 0 && entry[n] == '=';
}

// Our environment, minus whatever go-plugin variables it had, plus the ones we mean.
std::vector<std::string> plugin_environment() {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    if (has_key(*e, kCookieKey) || has_key(*e, kVersionsKey) || has_key(*e, kClientCertKey)) {
      continue;
    }
    env.emplace_back(*e);
  }
  env.push_back(std::string(kCookieKey) + "=" + kCookieValue);
  env.push_back(std::string(kVersionsKey) + "=6");
  return env;
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    size_t end = s.find(sep, start);
    parts.push_back(s.substr(start, end - start));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

std::string describe_wait_status(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const int signo = WTERMSIG(status);
    return "was killed by signal " + std::to_string(signo) + " (" + strsignal(signo) + ")";
  }
  return "stopped (wait status " + std::to_string(status) + ")";
}

// A close-on-exec pipe whose ends are closed unless taken.
struct Pipe {
  int read_end = -1;
  int write_end = -1;
  Pipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
      throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    }
    read_end = fds[0];
    write_end = fds[1];
  }
  ~Pipe() {
    if (read_end >= 0) ::close(read_end);
    ::close(write_end);
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  int take_read_end() { return std::exchange(read_end, -1); }
};

// Frees the file actions however start() leaves.
struct SpawnActions {
  posix_spawn_file_actions_t actions{};
  SpawnActions() { posix_spawn_file_actions_init(&actions); }
  ~SpawnActions() { posix_spawn_file_actions_destroy(&actions); }
  SpawnActions(const SpawnActions&) = delete;
  SpawnActions& operator=(const SpawnActions&) = delete;
};

}  // namespace

std::string Handshake::grpc_target() const {
  // gRPC's default resolver takes host:port as it is.
  return network == "unix" ? "unix:" + address : address;
}

Handshake parse_handshake(const std::string& line) {
  const auto fields = split(line, '|');
  auto bad = [&](const std::string& why) {
    return std::runtime_error("bad handshake line \"" + line + "\": " + why);
  };
  if (fields.size() < 5) throw bad("expected CORE|APP|NETWORK|ADDRESS|PROTOCOL[|CERT]");
  if (fields[0] != "1") throw bad("go-plugin core protocol " + fields[0] + ", expected 1");
  if (fields[1] != "6") throw bad("plugin protocol " + fields[1] + ", expected 6");
  if (fields[2] != "unix" && fields[2] != "tcp") throw bad("unknown network " + fields[2]);
  if (fields[3].empty()) throw bad("empty address");
  if (fields[4] != "grpc") throw bad("protocol " + fields[4] + ", expected grpc");
  if (fields.size() > 5 && !fields[5].empty()) {
    throw bad("the provider announced a TLS certificate although we offered none");
  }
  return Handshake{fields[2], fields[3]};
}

std::unique_ptr<PluginProcess> PluginProcess::start(const std::vector<std::string>& command,
                                                    ProviderStderr stderr_mode) {
  if (command.empty()) throw std::runtime_error("no provider command given");
  Pipe out;
  Pipe err;
  SpawnActions spawn;
  // dup2 clears close-on-exec on the copy, so the child keeps only its new stdout and stderr.
  posix_spawn_file_actions_adddup2(&spawn.actions, out.write_end, STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&spawn.actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  if (stderr_mode == ProviderStderr::Tail) {
    posix_spawn_file_actions_adddup2(&spawn.actions, err.write_end, STDERR_FILENO);
  } else {
    posix_spawn_file_actions_addopen(&spawn.actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  }
  auto args = command;
  auto env = plugin_environment();
  auto argv = c_strings(args);
  auto envp = c_strings(env);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, argv[0], &spawn.actions, nullptr, argv.data(), envp.data());
  if (rc != 0) throw std::runtime_error("cannot start " + command[0] + ": " + std::strerror(rc));
  return std::unique_ptr<PluginProcess>(new PluginProcess(
      pid, out.take_read_end(), stderr_mode == ProviderStderr::Tail ? err.take_read_end() : -1));
}

PluginProcess::PluginProcess(pid_t pid, int stdout_fd, int stderr_fd)
    : pid_(pid), stdout_fd_(stdout_fd) {
  if (stderr_fd < 0) return;
  stderr_reader_ = std::make_unique<PipeReader>(stderr_fd, [this](std::string_view chunk) {
    const std::lock_guard lock(tail_mutex_);
    tail_.append(chunk);
    if (tail_.size() > 2 * kTailBytes) tail_.erase(0, tail_.size() - kTailBytes);
  });
}

PluginProcess::~PluginProcess() {
  kill();
  stdout_drain_.reset();
  stderr_reader_.reset();
  if (stdout_fd_ >= 0) ::close(stdout_fd_);
}

std::string PluginProcess::stderr_tail() {
  if (!exit_description().empty() && stderr_reader_) stderr_reader_->finish();
  const std::lock_guard lock(tail_mutex_);
  if (tail_.size() <= kTailBytes) return tail_;
  // Start at a line boundary when there is one.
  const size_t from = tail_.size() - kTailBytes;
  const size_t newline = tail_.find('\n', from);
  return tail_.substr(newline == std::string::npos ? from : newline + 1);
}

Handshake PluginProcess::wait_for_handshake(std::chrono::milliseconds timeout) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + timeout;
  std::string line;
  for (;;) {
    const auto newline = line.find('\n');
    if (newline != std::string::npos) {
      line.resize(newline);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      break;
    }
    const auto now = Clock::now();
    if (now >= deadline) {
      throw std::runtime_error("no handshake from the provider within " +
                               std::to_string(timeout.count() / 1000) + " s");
    }
    // Short slices, so that a provider which dies while a child of its own holds the pipe
    // open is still noticed.
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
    pollfd pfd{stdout_fd_, POLLIN, 0};
    const int ready = ::poll(&pfd, 1, static_cast<int>(std::min<int64_t>(left.count(), 50)));
    if (ready < 0 && errno != EINTR) {
      throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
    }
    if (ready <= 0) {
      if (auto how = exit_description(); !how.empty()) {
        throw std::runtime_error("the provider " + how + " before the handshake");
      }
      continue;
    }
    char buf[4096];
    const ssize_t n = ::read(stdout_fd_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      wait_for_exit(std::chrono::seconds(1));
      const auto how = exit_description();
      throw std::runtime_error("the provider " + (how.empty() ? "closed its stdout" : how) +
                               " before the handshake");
    }
    line.append(buf, static_cast<size_t>(n));
  }
  stdout_drain_ = std::make_unique<PipeReader>(stdout_fd_, [](std::string_view) {});
  stdout_fd_ = -1;
  return parse_handshake(line);
}

std::string PluginProcess::exit_description() {
  if (!wait_status_) {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) != pid_) return "";
    wait_status_ = status;
  }
  return describe_wait_status(*wait_status_);
}

bool PluginProcess::wait_for_exit(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (exit_description().empty()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

void PluginProcess::terminate(std::chrono::milliseconds grace) {
  if (wait_status_) return;
  ::kill(pid_, SIGTERM);
  if (!wait_for_exit(grace)) kill();
}

void PluginProcess::kill() {
  if (wait_status_) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  wait_status_ = status;
}

}  // namespace luaform::bench
