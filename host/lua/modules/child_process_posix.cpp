// POSIX: fork and execve (the child does only async-signal-safe work between them), a process
// group per program so that one kill ends its children too, and one poll loop over the three
// pipes that also asks the watch whether to stop.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <string>
#include <vector>

#include "host/lua/modules/child_process.h"
#if defined(__linux__)
#include <sys/prctl.h>
#endif

namespace luaform::lua::process {
namespace {

using std::chrono::milliseconds;

// How long the loop waits in poll before it asks the watch again.
constexpr milliseconds kPollSlice{20};
// How long output is still read once the program has exited, for what a child it left running
// wrote before it let go of the pipes (or never will).
constexpr milliseconds kDrainAfterExit{500};
constexpr size_t kChunk = size_t{64} << 10;

class Descriptor {
 public:
  Descriptor() = default;
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() { reset(); }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }
  bool open() const { return fd_ >= 0; }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

struct Pipe {
  Descriptor read;
  Descriptor write;
};

// A pipe whose ends are closed in children at exec, so no other program the host starts
// meanwhile inherits them and holds them open.
void make_pipe(Pipe& pipe) {
  int fds[2];
#if defined(__APPLE__)
  if (::pipe(fds) != 0) throw RunError(std::string("cannot make a pipe: ") + std::strerror(errno));
  ::fcntl(fds[0], F_SETFD, FD_CLOEXEC);
  ::fcntl(fds[1], F_SETFD, FD_CLOEXEC);
#else
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    throw RunError(std::string("cannot make a pipe: ") + std::strerror(errno));
  }
#endif
  pipe.read.reset(fds[0]);
  pipe.write.reset(fds[1]);
}

void set_nonblocking(int fd) {
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}

bool is_executable_file(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
         ::access(path.c_str(), X_OK) == 0;
}

// What the child reports through the status pipe when it cannot exec.
struct ChildFailure {
  char step;  // 'd': chdir, 'e': execve
  int error;
};

// Runs in the child between fork and execve: async-signal-safe calls only.
[[noreturn]] void become_program(const std::string& path, char* const* argv, char* const* envp,
                                 const char* directory, int input, int output, int errors,
                                 int report, pid_t parent) {
  ::setpgid(0, 0);
#if defined(__linux__)
  // The program dies with the host even when the host is killed without a word. (Sent when the
  // forking thread ends; run() holds that thread until the program has exited.)
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);
#else
  (void)parent;
#endif
  // The host ignores or handles some signals; a program starts with the defaults.
  for (int sig = 1; sig < NSIG; ++sig) {
    if (sig != SIGKILL && sig != SIGSTOP) ::signal(sig, SIG_DFL);
  }
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::dup2(input, 0);
  ::dup2(output, 1);
  ::dup2(errors, 2);
  ChildFailure failure{'d', 0};
  if (directory != nullptr && ::chdir(directory) != 0) {
    failure.error = errno;
  } else {
    ::execve(path.c_str(), argv, envp);
    failure = {'e', errno};
  }
  [[maybe_unused]] const ssize_t n = ::write(report, &failure, sizeof failure);
  ::_exit(127);
}

// Ends the program's process group and reaps the program, unless it was reaped already.
void end_group(pid_t pid, bool reaped) {
  ::kill(-pid, SIGKILL);
  if (!reaped) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
}

// Kills and reaps the program if run() leaves early by an exception.
class ChildGuard {
 public:
  explicit ChildGuard(pid_t pid) : pid_(pid) {}
  ~ChildGuard() {
    if (!done_) end_group(pid_, reaped_);
  }
  ChildGuard(const ChildGuard&) = delete;
  ChildGuard& operator=(const ChildGuard&) = delete;
  void reaped() { reaped_ = true; }
  // Ends the program and its group now (a stop, a timeout, too much output).
  void end() {
    end_group(pid_, reaped_);
    done_ = true;
  }
  void finished() { done_ = true; }

 private:
  pid_t pid_;
  bool reaped_ = false;
  bool done_ = false;
};

// Writing to a program that closed its standard input raises SIGPIPE, which would end the host:
// it is blocked on this thread while the program runs, and one it caused is taken back after.
class SigpipeBlock {
 public:
  SigpipeBlock() {
    sigset_t pipe_only;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    ::pthread_sigmask(SIG_BLOCK, &pipe_only, &previous_);
  }
  ~SigpipeBlock() {
    sigset_t pending;
    sigemptyset(&pending);
    if (::sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1 &&
        sigismember(&previous_, SIGPIPE) == 0) {
      sigset_t pipe_only;
      sigemptyset(&pipe_only);
      sigaddset(&pipe_only, SIGPIPE);
      int taken = 0;
      ::sigwait(&pipe_only, &taken);
    }
    ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
  }
  SigpipeBlock(const SigpipeBlock&) = delete;
  SigpipeBlock& operator=(const SigpipeBlock&) = delete;

 private:
  sigset_t previous_{};
};

std::vector<char*> c_strings(const std::vector<std::string>& texts) {
  std::vector<char*> out;
  out.reserve(texts.size() + 1);
  for (const std::string& text : texts) out.push_back(const_cast<char*>(text.c_str()));
  out.push_back(nullptr);
  return out;
}

// Reads what `fd` has into `into`; false at end of file.
bool read_available(Descriptor& fd, std::string& into) {
  char buffer[kChunk];
  for (;;) {
    const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
    if (n > 0) {
      into.append(buffer, static_cast<size_t>(n));
      if (static_cast<size_t>(n) < sizeof buffer) return true;
      continue;
    }
    if (n == 0) return false;
    if (errno == EINTR) continue;
    return errno == EAGAIN || errno == EWOULDBLOCK;  // else a read error: treat as the end
  }
}

}  // namespace

char path_list_separator() {
  return ':';
}

namespace detail {

bool names_a_path(const std::string& program) {
  return program.find('/') != std::string::npos;
}

std::optional<std::string> runnable(const std::string& path) {
  if (is_executable_file(path)) return path;
  return std::nullopt;
}

char directory_separator() {
  return '/';
}

}  // namespace detail

Outcome run(const Command& command, const Watch& watch) {
  const std::string path = detail::program_path(command);
  const std::string& name = command.arguments[0];
  const std::vector<char*> argv = c_strings(command.arguments);
  const std::vector<char*> envp = c_strings(command.environment);
  const char* directory = command.directory.empty() ? nullptr : command.directory.c_str();

  Pipe input, output, errors, report;
  make_pipe(input);
  make_pipe(output);
  make_pipe(errors);
  make_pipe(report);

  // Signals stay blocked across fork so that none reaches the host's handlers in the child
  // before it has reset them.
  sigset_t all, previous;
  sigfillset(&all);
  ::pthread_sigmask(SIG_SETMASK, &all, &previous);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid == 0) {
    become_program(path, argv.data(), envp.data(), directory, input.read.get(), output.write.get(),
                   errors.write.get(), report.write.get(), parent);
  }
  const int fork_error = errno;
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  if (pid < 0) throw RunError("cannot start " + name + ": " + std::strerror(fork_error));
  ::setpgid(pid, pid);  // also here, so that a kill right after fork reaches the group
  ChildGuard child(pid);
  input.read.reset();
  output.write.reset();
  errors.write.reset();
  report.write.reset();

  ChildFailure failure{};
  ssize_t got = 0;
  do {
    got = ::read(report.read.get(), &failure, sizeof failure);
  } while (got < 0 && errno == EINTR);
  if (got == static_cast<ssize_t>(sizeof failure)) {
    child.end();
    if (failure.step == 'd') {
      throw RunError("cannot run " + name + " in " + command.directory + ": " +
                     std::strerror(failure.error));
    }
    throw RunError("cannot run " + path + ": " + std::strerror(failure.error));
  }

  SigpipeBlock no_sigpipe;
  set_nonblocking(input.write.get());
  set_nonblocking(output.read.get());
  set_nonblocking(errors.read.get());
  if (command.input.empty()) input.write.reset();

  Outcome outcome;
  size_t written = 0;
  bool exited = false;
  int wait_status = 0;
  Clock::time_point exited_at{};
  for (;;) {
    if (!exited) {
      const pid_t reaped = ::waitpid(pid, &wait_status, WNOHANG);
      if (reaped == pid) {
        exited = true;
        child.reaped();
        exited_at = Clock::now();
      }
    }
    if (exited && ((!output.read.open() && !errors.read.open()) ||
                   Clock::now() - exited_at >= kDrainAfterExit)) {
      break;
    }
    if (watch.reason) {
      if (std::optional<std::string> why = watch.reason()) {
        child.end();
        throw RunError(*why);
      }
    }
    if (watch.deadline && Clock::now() >= *watch.deadline) {
      child.end();
      throw RunError(watch.deadline_message);
    }

    pollfd fds[3];
    nfds_t count = 0;
    const auto watch_fd = [&](const Descriptor& fd, short events) {
      if (fd.open()) fds[count++] = pollfd{fd.get(), events, 0};
    };
    watch_fd(input.write, POLLOUT);
    watch_fd(output.read, POLLIN);
    watch_fd(errors.read, POLLIN);
    milliseconds wait = kPollSlice;
    if (watch.deadline) {
      const auto left = std::chrono::ceil<milliseconds>(*watch.deadline - Clock::now());
      wait = std::clamp(left, milliseconds{0}, kPollSlice);
    }
    if (::poll(count > 0 ? fds : nullptr, count, static_cast<int>(wait.count())) < 0 &&
        errno != EINTR) {
      child.end();
      throw RunError(std::string("waiting for ") + name + ": " + std::strerror(errno));
    }
    for (nfds_t i = 0; i < count; ++i) {
      if (fds[i].revents == 0) continue;
      if (fds[i].fd == input.write.get()) {
        const size_t size = std::min(kChunk, command.input.size() - written);
        const ssize_t n = ::write(input.write.get(), command.input.data() + written, size);
        if (n > 0) written += static_cast<size_t>(n);
        // A program that exits or closes its input without reading it all is its business.
        if (written == command.input.size() || (n < 0 && errno != EAGAIN && errno != EINTR)) {
          input.write.reset();
        }
      } else {
        const bool is_output = fds[i].fd == output.read.get();
        Descriptor& fd = is_output ? output.read : errors.read;
        if (!read_available(fd, is_output ? outcome.output : outcome.errors)) fd.reset();
      }
    }
    if (command.max_output > 0 &&
        outcome.output.size() + outcome.errors.size() > command.max_output) {
      child.end();
      throw RunError(name + " wrote more than " + std::to_string(command.max_output) +
                     " bytes to its standard output and error; it was ended");
    }
  }
  child.finished();
  if (WIFEXITED(wait_status)) {
    outcome.status = WEXITSTATUS(wait_status);
  } else if (WIFSIGNALED(wait_status)) {
    outcome.signal = WTERMSIG(wait_status);
  }
  return outcome;
}

}  // namespace luaform::lua::process
