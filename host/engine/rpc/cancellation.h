// Whether the CLI has gone from the RPC a thread is serving. A stream the CLI cancels (an
// InvokeAction it stopped reading, a listing it has enough of) must end the script behind it
// as StopProvider would; the protocol layer, which alone sees the call, opens a CancelScope for
// the RPC, and the logic's layer asks call_cancelled() while its code runs.
#pragma once

#include <functional>

namespace luaform::engine {

class CancelScope {
 public:
  // `cancelled` answers whether the CLI cancelled the call; it may be asked from the thread
  // serving the RPC, often, and must be cheap.
  explicit CancelScope(std::function<bool()> cancelled);
  ~CancelScope();
  CancelScope(const CancelScope&) = delete;
  CancelScope& operator=(const CancelScope&) = delete;

 private:
  CancelScope* outer_;
  std::function<bool()> cancelled_;
  friend bool call_cancelled();
};

// True when the RPC this thread serves was cancelled by the CLI (false outside a CancelScope).
bool call_cancelled();

// The message a script sees when its call ends so.
inline constexpr const char* kCancelledMessage = "the CLI cancelled the call";

}  // namespace luaform::engine
