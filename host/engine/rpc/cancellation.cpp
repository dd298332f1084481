#include "host/engine/rpc/cancellation.h"

#include <utility>

namespace luaform::engine {
namespace {

thread_local CancelScope* current = nullptr;

}  // namespace

CancelScope::CancelScope(std::function<bool()> cancelled)
    : outer_(current), cancelled_(std::move(cancelled)) {
  current = this;
}

CancelScope::~CancelScope() {
  current = outer_;
}

bool call_cancelled() {
  for (const CancelScope* scope = current; scope != nullptr; scope = scope->outer_) {
    if (scope->cancelled_ && scope->cancelled_()) return true;
  }
  return false;
}

}  // namespace luaform::engine
