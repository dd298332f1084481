#include "host/lua/provider/state_pool.h"

namespace luaform::lua {

StatePool::StatePool(Factory factory, size_t limit, std::unique_ptr<ScriptState> first)
    : factory_(std::move(factory)), limit_(limit < 1 ? 1 : limit) {
  if (first) {
    idle_.push_back(std::move(first));
    created_ = 1;
  }
}

StatePool::Lease StatePool::borrow() {
  std::unique_lock<std::mutex> lock(mutex_);
  returned_.wait(lock, [this] { return !idle_.empty() || created_ < limit_; });
  if (!idle_.empty()) {
    auto state = std::move(idle_.back());
    idle_.pop_back();
    return Lease(*this, std::move(state));
  }
  // Loading scripts takes a while; other callers may borrow or give back meanwhile.
  ++created_;
  lock.unlock();
  try {
    return Lease(*this, factory_());
  } catch (...) {
    lock.lock();
    --created_;
    returned_.notify_one();
    throw;
  }
}

void StatePool::give_back(std::unique_ptr<ScriptState> state) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    idle_.push_back(std::move(state));
  }
  returned_.notify_one();
}

}  // namespace luaform::lua
