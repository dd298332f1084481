// A one-way latch shared by everything that can end the server (GRPCController.Shutdown,
// SIGTERM) and everything that must notice (the serve loop, the open stdio stream).
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace luaform::protocol {

class ShutdownSignal {
 public:
  void request() {
    {
      std::lock_guard lock(mutex_);
      requested_ = true;
    }
    cv_.notify_all();
  }
  bool requested() const {
    std::lock_guard lock(mutex_);
    return requested_;
  }
  void wait() const {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [this] { return requested_; });
  }
  // True when shutdown was requested within `timeout`.
  bool wait_for(std::chrono::milliseconds timeout) const {
    std::unique_lock lock(mutex_);
    return cv_.wait_for(lock, timeout, [this] { return requested_; });
  }

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable cv_;
  bool requested_ = false;
};

}  // namespace luaform::protocol
