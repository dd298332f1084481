// Turns termination signals into a shutdown request. A signal handler may do almost nothing,
// so it only writes the signal number to a pipe; a watcher thread reads it and acts. On Windows
// (signal_watcher_windows.cpp) the console's control events stand for the signals: Ctrl-C for
// SIGINT, Ctrl-Break and closing the console for SIGTERM.
#pragma once

#include <csignal>
#include <functional>
#include <thread>
#include <vector>

namespace luaform::protocol {

class SignalWatcher {
 public:
  // Installs handlers for `handled` (calling `on_signal` from the watcher thread) and sets
  // `ignored` to SIG_IGN. The previous dispositions come back on destruction.
  SignalWatcher(const std::vector<int>& handled, const std::vector<int>& ignored,
                std::function<void(int)> on_signal);
  ~SignalWatcher();
  SignalWatcher(const SignalWatcher&) = delete;
  SignalWatcher& operator=(const SignalWatcher&) = delete;

 private:
  std::function<void(int)> on_signal_;
#if defined(_WIN32)
  std::vector<int> handled_;
  std::vector<int> ignored_;
  friend int __stdcall on_console_event(unsigned long event);
#else
  void run();
  std::vector<std::pair<int, struct sigaction> > saved_;
  int pipe_[2] = {-1, -1};
  std::thread thread_;
#endif
};

}  // namespace luaform::protocol
