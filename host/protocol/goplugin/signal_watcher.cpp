#include "host/protocol/goplugin/signal_watcher.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>

namespace luaform::protocol {

namespace {

// The handler's only state; one watcher exists at a time (serve() is not reentrant).
std::atomic<int> g_signal_pipe{-1};

// Byte written by the destructor to stop the watcher thread; never a signal number.
constexpr unsigned char kStop = 0;

void on_signal(int signo) {
  int saved_errno = errno;
  int fd = g_signal_pipe.load();
  if (fd >= 0) {
    auto byte = static_cast<unsigned char>(signo);
    [[maybe_unused]] auto n = ::write(fd, &byte, 1);
  }
  errno = saved_errno;
}

// A pipe closed on exec. pipe2 is Linux's own; pipe and FD_CLOEXEC are everywhere POSIX is
// (macOS), and the host never execs while the two steps run.
bool cloexec_pipe(int fds[2]) {
  if (::pipe(fds) != 0) return false;
  ::fcntl(fds[0], F_SETFD, FD_CLOEXEC);
  ::fcntl(fds[1], F_SETFD, FD_CLOEXEC);
  return true;
}

}  // namespace

SignalWatcher::SignalWatcher(const std::vector<int>& handled, const std::vector<int>& ignored,
                             std::function<void(int)> on_signal_cb)
    : on_signal_(std::move(on_signal_cb)) {
  if (!cloexec_pipe(pipe_)) {
    pipe_[0] = pipe_[1] = -1;
    return;
  }
  g_signal_pipe.store(pipe_[1]);
  thread_ = std::thread([this] { run(); });
  for (int signo : handled) {
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    struct sigaction old {};
    if (::sigaction(signo, &sa, &old) == 0) saved_.emplace_back(signo, old);
  }
  for (int signo : ignored) {
    struct sigaction sa {};
    sa.sa_handler = SIG_IGN;
    sigemptyset(&sa.sa_mask);
    struct sigaction old {};
    if (::sigaction(signo, &sa, &old) == 0) saved_.emplace_back(signo, old);
  }
}

SignalWatcher::~SignalWatcher() {
  for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) {
    ::sigaction(it->first, &it->second, nullptr);
  }
  if (pipe_[1] >= 0) {
    [[maybe_unused]] auto n = ::write(pipe_[1], &kStop, 1);
  }
  if (thread_.joinable()) thread_.join();
  g_signal_pipe.store(-1);
  if (pipe_[0] >= 0) ::close(pipe_[0]);
  if (pipe_[1] >= 0) ::close(pipe_[1]);
}

void SignalWatcher::run() {
  for (;;) {
    unsigned char byte = 0;
    ssize_t n = ::read(pipe_[0], &byte, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0 || byte == kStop) return;
    on_signal_(byte);
  }
}

}  // namespace luaform::protocol
