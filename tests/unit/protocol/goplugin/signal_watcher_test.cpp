// SignalWatcher on POSIX: a handled signal reaches the callback on the watcher's own thread (a
// signal handler may do almost nothing itself), each once and in order; an ignored one does
// nothing at all; the dispositions from before come back when the watcher goes. SIGUSR1 and
// SIGUSR2 stand in for serve()'s SIGTERM and SIGINT, which whatever runs the tests may send.
#include "host/protocol/goplugin/signal_watcher.h"

#include <doctest/doctest.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace luaform::protocol {
namespace {

using namespace std::chrono_literals;

// What a watcher's callback was given, and on which threads it ran. Declare it before the
// watcher, which calls it until it goes.
class Received {
 public:
  std::function<void(int)> callback() {
    return [this](int signo) {
      {
        std::lock_guard lock(mutex_);
        signals_.push_back(signo);
        threads_.push_back(std::this_thread::get_id());
      }
      changed_.notify_all();
    };
  }
  // The signals received, once there are `count` of them (or all there are after `timeout`).
  std::vector<int> signals(size_t count = 0, std::chrono::milliseconds timeout = 5000ms) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, timeout, [&] { return signals_.size() >= count; });
    return signals_;
  }
  std::vector<std::thread::id> threads() {
    std::lock_guard lock(mutex_);
    return threads_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<int> signals_;
  std::vector<std::thread::id> threads_;
};

using Handler = void (*)(int);

// What `signo` does now.
Handler handler_of(int signo) {
  struct sigaction now {};
  ::sigaction(signo, nullptr, &now);
  return now.sa_handler;
}

// Whether `signo` is handled by `handler` now (a function, SIG_IGN or SIG_DFL).
bool handled_by(int signo, Handler handler) {
  return handler_of(signo) == handler;
}

std::atomic<int> g_own_handler_calls{0};
void count_own_handler_call(int) {
  ++g_own_handler_calls;
}
const Handler own_handler = count_own_handler_call;

// A handler the program installed itself before the watcher, for one scope.
class ScopedHandler {
 public:
  ScopedHandler(int signo, Handler handler) : signo_(signo) {
    struct sigaction sa {};
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    ::sigaction(signo, &sa, &saved_);
  }
  ~ScopedHandler() { ::sigaction(signo_, &saved_, nullptr); }
  ScopedHandler(const ScopedHandler&) = delete;
  ScopedHandler& operator=(const ScopedHandler&) = delete;

 private:
  int signo_;
  struct sigaction saved_ {};
};

TEST_CASE("a handled signal reaches the callback on the watcher's own thread, not the handler's") {
  Received received;
  SignalWatcher watcher({SIGUSR1}, {}, received.callback());
  ::raise(SIGUSR1);  // the handler runs on this thread before raise returns
  CHECK(received.signals(1) == std::vector<int>{SIGUSR1});
  const auto threads = received.threads();
  REQUIRE(threads.size() == 1);
  CHECK(threads[0] != std::this_thread::get_id());
}

TEST_CASE("each handled signal reaches the callback once, in the order they came") {
  Received received;
  SignalWatcher watcher({SIGUSR1, SIGUSR2}, {}, received.callback());
  ::raise(SIGUSR2);
  ::raise(SIGUSR1);
  ::raise(SIGUSR2);
  CHECK(received.signals(3) == std::vector<int>{SIGUSR2, SIGUSR1, SIGUSR2});
  CHECK(received.signals(4, 100ms).size() == 3);
}

TEST_CASE("an ignored signal neither ends the process nor reaches the callback") {
  Received received;
  SignalWatcher watcher({SIGUSR1}, {SIGUSR2}, received.callback());
  CHECK(handled_by(SIGUSR2, SIG_IGN));
  ::raise(SIGUSR2);  // its default action would end the test binary
  // A handled signal after it: had the ignored one reached the callback, it would come first.
  ::raise(SIGUSR1);
  CHECK(received.signals(1) == std::vector<int>{SIGUSR1});
}

TEST_CASE("the dispositions from before the watcher come back when it goes") {
  ScopedHandler own(SIGUSR1, own_handler);
  const Handler usr2_before = handler_of(SIGUSR2);
  g_own_handler_calls = 0;
  {
    Received received;
    SignalWatcher watcher({SIGUSR1}, {SIGUSR2}, received.callback());
    CHECK_FALSE(handled_by(SIGUSR1, own_handler));
    ::raise(SIGUSR1);
    CHECK(received.signals(1) == std::vector<int>{SIGUSR1});
    CHECK(g_own_handler_calls == 0);
  }
  CHECK(handled_by(SIGUSR1, own_handler));
  CHECK(handled_by(SIGUSR2, usr2_before));
  ::raise(SIGUSR1);
  CHECK(g_own_handler_calls == 1);
}

TEST_CASE("a watcher made after another has gone handles the signals itself") {
  Received first;
  Received second;
  {
    SignalWatcher watcher({SIGUSR1}, {}, first.callback());
    ::raise(SIGUSR1);
    REQUIRE(first.signals(1).size() == 1);
  }
  {
    SignalWatcher watcher({SIGUSR1}, {}, second.callback());
    ::raise(SIGUSR1);
    CHECK(second.signals(1) == std::vector<int>{SIGUSR1});
  }
  CHECK(first.signals().size() == 1);
}

TEST_CASE("a watcher that saw no signal stops at once when it goes") {
  Received received;
  const auto start = std::chrono::steady_clock::now();
  { SignalWatcher watcher({SIGUSR1}, {SIGUSR2}, received.callback()); }
  CHECK(std::chrono::steady_clock::now() - start < 1s);
  CHECK(received.signals().empty());
}

}  // namespace
}  // namespace luaform::protocol
