// CancelScope and call_cancelled: what the logic's layer asks while a script runs, answered by
// the scope the protocol layer opened for the RPC the thread serves.
#include "host/engine/rpc/cancellation.h"

#include <doctest/doctest.h>

#include <atomic>
#include <thread>

using namespace luaform::engine;

TEST_CASE("outside any scope no call is cancelled") {
  CHECK_FALSE(call_cancelled());
  CancelScope never(nullptr);  // a scope without a question: nothing can cancel it
  CHECK_FALSE(call_cancelled());
}

TEST_CASE("a scope answers what its question answers, asked each time") {
  bool gone = false;
  int asked = 0;
  {
    CancelScope scope([&] {
      ++asked;
      return gone;
    });
    CHECK_FALSE(call_cancelled());
    gone = true;  // the CLI stops reading the stream while the script runs
    CHECK(call_cancelled());
    CHECK(asked == 2);
  }
  // Closed with its RPC: the next call on this thread starts clean.
  CHECK_FALSE(call_cancelled());
}

TEST_CASE("scopes nest: an inner call is cancelled when its own or an outer one is") {
  bool outer_gone = false;
  bool inner_gone = false;
  CancelScope outer([&] { return outer_gone; });
  {
    CancelScope inner([&] { return inner_gone; });
    CHECK_FALSE(call_cancelled());
    outer_gone = true;
    CHECK(call_cancelled());
    outer_gone = false;
    inner_gone = true;
    CHECK(call_cancelled());
  }
  // The inner scope is closed: only the outer question is asked again.
  CHECK_FALSE(call_cancelled());
}

TEST_CASE("a scope belongs to the thread that opened it") {
  CancelScope here([] { return true; });
  REQUIRE(call_cancelled());
  std::atomic<bool> elsewhere{true};
  std::thread other([&] { elsewhere = call_cancelled(); });
  other.join();
  // Another RPC's thread is not cancelled by this one's CLI going away.
  CHECK_FALSE(elsewhere.load());
}
