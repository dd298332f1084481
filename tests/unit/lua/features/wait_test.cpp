// tf.wait_for and tf.retry (lua-sdk/luaform_wait.lua), run inside a script as authors use them.
#include <doctest/doctest.h>

#include "provider_dir.h"

using namespace luaform::lua::testing;

namespace {

// An expression that builds refresh(), answering the given states one per call (the last one
// repeats), with nil for "nil" (not found), then runs `call`.
std::string with_states(const std::string& states, const std::string& call) {
  return "(function() local states, n = {" + states +
         "}, 0 local function refresh() n = n + 1 local s = states[math.min(n, #states)] "
         "if s == 'nil' then return nil end return {n = n}, s end return " +
         call + " end)()";
}

}  // namespace

TEST_CASE("wait_for refreshes through pending states until a target, and returns the object") {
  CHECK(evaluate(with_states("'queued', 'building', 'building', 'ready'",
                             "tf.wait_for { pending = {'queued', 'building'}, target = {'ready'}, "
                             "refresh = refresh, timeout = '10s', min_timeout = 0 }.n")) == "4");
  // Not found for a moment (eventual consistency), then there.
  CHECK(evaluate(with_states("'nil', 'nil', 'ready'",
                             "select(2, tf.wait_for { target = {'ready'}, refresh = refresh, "
                             "timeout = 10 })")) == "ready");
  // An empty target waits for the object to be gone.
  CHECK(evaluate(with_states("'deleting', 'nil'",
                             "tf.wait_for { pending = {'deleting'}, target = {}, refresh = "
                             "refresh, timeout = 10 } == nil")) == "true");
  // continuous_target_occurence: the target has to be seen that many times in a row.
  CHECK(evaluate(with_states("'ready', 'syncing', 'ready', 'ready', 'ready'",
                             "tf.wait_for { pending = {'syncing'}, target = {'ready'}, refresh = "
                             "refresh, timeout = 10, poll_interval = 0.01, "
                             "continuous_target_occurence = 3 }.n")) == "5");
}

TEST_CASE("wait_for fails at the caller's line on an unexpected state, a timeout, or no object") {
  const std::string unexpected =
      evaluate(with_states("'building', 'failed'",
                           "tf.wait_for { pending = {'building'}, target = "
                           "{'ready'}, refresh = refresh, timeout = 10 }"));
  CHECK_MESSAGE(unexpected.find("resource_probe.lua:6: tf.wait_for: unexpected state \"failed\", "
                                "wanted \"ready\" (pending: \"building\")") != std::string::npos,
                unexpected);
  const std::string late =
      evaluate(with_states("'building'",
                           "tf.wait_for { pending = {'building'}, target = {'ready'}, refresh = "
                           "refresh, timeout = 0.3 }"));
  CHECK_MESSAGE(
      late.find("resource_probe.lua:6: tf.wait_for: timeout while waiting for state to "
                "become \"ready\" (last state: \"building\", timeout: 0.3s)") != std::string::npos,
      late);
  const std::string missing =
      evaluate(with_states("'nil'",
                           "tf.wait_for { target = {'ready'}, refresh = refresh, timeout = 10, "
                           "poll_interval = 0, not_found_checks = 3 }"));
  CHECK_MESSAGE(missing.find("the object was not found 4 times in a row") != std::string::npos,
                missing);
  CHECK(evaluate("tf.wait_for { target = {'x'}, refresh = print, timeuot = 1 }")
            .find("resource_probe.lua:6: tf.wait_for: unknown option \"timeuot\"") !=
        std::string::npos);
  CHECK(evaluate("tf.wait_for { target = {'x'}, refresh = print }").find("timeout is required") !=
        std::string::npos);
}

TEST_CASE("retry tries again after retryable errors only, and gives up at its timeout") {
  CHECK(evaluate("(function() local n = 0 return tf.retry('10s', function() n = n + 1 "
                 "if n < 3 then error(tf.retryable('busy')) end return 'done after ' .. n end) "
                 "end)()") == "done after 3");
  // Any other error ends it at once, unchanged.
  CHECK(evaluate("(function() local n = 0 local ok, err = pcall(tf.retry, 10, function() "
                 "n = n + 1 error({code = 7}) end) return tostring(err.code) .. ' after ' .. n "
                 "end)()") == "7 after 1");
  const std::string gave_up =
      evaluate("tf.retry(0.3, function() error(tf.retryable('conflict: locked')) end)");
  CHECK_MESSAGE(gave_up.find("resource_probe.lua:6: tf.retry: still failing after 0.3s: "
                             "conflict: locked") != std::string::npos,
                gave_up);
}
