// SignalWatcher on Windows, where a console delivers control events instead of signals. The
// system runs the handler on a thread of its own, so it may call on_signal directly.
#include <windows.h>

#include <algorithm>
#include <atomic>

#include "host/protocol/goplugin/signal_watcher.h"

namespace luaform::protocol {

namespace {

// The one watcher (serve() is not reentrant), for the handler.
std::atomic<SignalWatcher*> g_watcher{nullptr};

int signal_of(DWORD event) {
  switch (event) {
    case CTRL_C_EVENT:
      return SIGINT;
    case CTRL_BREAK_EVENT:
    case CTRL_CLOSE_EVENT:
    case CTRL_SHUTDOWN_EVENT:
      return SIGTERM;
    default:
      return 0;
  }
}

bool contains(const std::vector<int>& signals, int signo) {
  return std::find(signals.begin(), signals.end(), signo) != signals.end();
}

}  // namespace

// TRUE: the event is dealt with; FALSE: the next handler (in the end, the process exits).
int __stdcall on_console_event(unsigned long event) {
  SignalWatcher* watcher = g_watcher.load();
  const int signo = signal_of(event);
  if (watcher == nullptr || signo == 0) return FALSE;
  if (contains(watcher->ignored_, signo)) return TRUE;
  if (!contains(watcher->handled_, signo)) return FALSE;
  watcher->on_signal_(signo);
  return TRUE;
}

SignalWatcher::SignalWatcher(const std::vector<int>& handled, const std::vector<int>& ignored,
                             std::function<void(int)> on_signal_cb)
    : on_signal_(std::move(on_signal_cb)), handled_(handled), ignored_(ignored) {
  g_watcher.store(this);
  ::SetConsoleCtrlHandler(&on_console_event, TRUE);
}

SignalWatcher::~SignalWatcher() {
  ::SetConsoleCtrlHandler(&on_console_event, FALSE);
  g_watcher.store(nullptr);
}

}  // namespace luaform::protocol
