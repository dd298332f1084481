// Lua states are single-threaded and Terraform calls a provider concurrently, so calls borrow
// a state each from a pool that grows on demand up to a bound and then makes callers wait.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "host/lua/provider/script_state.h"

namespace luaform::lua {

class StatePool {
 public:
  using Factory = std::function<std::unique_ptr<ScriptState>()>;

  // `first` is the state loaded while building the schema; it is lent before new ones are made.
  StatePool(Factory factory, size_t limit, std::unique_ptr<ScriptState> first);

  // A borrowed state, given back when the lease ends.
  class Lease {
   public:
    Lease(StatePool& pool, std::unique_ptr<ScriptState> state)
        : pool_(&pool), state_(std::move(state)) {
      state_->begin_call();
    }
    Lease(Lease&& o) noexcept = default;
    Lease& operator=(Lease&&) = delete;
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease() {
      if (state_) pool_->give_back(std::move(state_));
    }
    ScriptState& operator*() const { return *state_; }
    ScriptState* operator->() const { return state_.get(); }

   private:
    StatePool* pool_;
    std::unique_ptr<ScriptState> state_;
  };

  // An idle state, a new one while fewer than `limit` exist, else the next one given back.
  // Throws what the factory throws.
  Lease borrow();

 private:
  void give_back(std::unique_ptr<ScriptState> state);

  Factory factory_;
  size_t limit_;
  std::mutex mutex_;
  std::condition_variable returned_;
  std::vector<std::unique_ptr<ScriptState>> idle_;
  size_t created_ = 0;
};

}  // namespace luaform::lua
