// tf.time: sleeping that StopProvider and the operation's timeout can end, and durations.
#include "host/lua/modules/time_module.h"

#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "provider_dir.h"

using namespace luaform::lua::testing;
using luaform::engine::Operation;

TEST_CASE("durations read as seconds and print the way Terraform prints them") {
  // A whole number of seconds is an integer, as the types say.
  CHECK(evaluate("tf.time.seconds('1h30m')") == "5400");
  CHECK(evaluate("math.type(tf.time.seconds('1h30m'))") == "integer");
  CHECK(evaluate("tf.time.seconds(2.5)") == "2.5");
  CHECK(evaluate("tf.time.seconds('1.5s')") == "1.5");
  CHECK(evaluate("tf.time.seconds('soon')").find("\"soon\" is not a duration") !=
        std::string::npos);
  CHECK(evaluate("tf.time.seconds(-1)").find("must not be negative") != std::string::npos);
  CHECK(evaluate("tf.time.format(90)") == "1m30s");
  CHECK(evaluate("tf.time.format(0.25)") == "0.25s");
  CHECK(evaluate("(function() local t = tf.time.now() tf.time.sleep(0.05) "
                 "return tf.time.now() - t >= 0.05 end)()") == "true");
}

TEST_CASE("RFC 3339 timestamps read as seconds since 1970 and print in UTC") {
  CHECK(evaluate("tf.time.parse_rfc3339('2026-11-24T20:29:13+01:00')") == "1795548553");
  CHECK(evaluate("math.type(tf.time.parse_rfc3339('2026-11-24T19:29:13Z'))") == "integer");
  CHECK(evaluate("tf.time.parse_rfc3339('1970-01-01T00:00:01.5Z')") == "1.5");
  CHECK(evaluate("tf.time.parse_rfc3339('2026-02-30T00:00:00Z')")
            .find("\"2026-02-30T00:00:00Z\" is not an RFC 3339 timestamp") != std::string::npos);
  CHECK(evaluate("tf.time.rfc3339(1795548553)") == "2026-11-24T19:29:13Z");
  CHECK(evaluate("tf.time.rfc3339(1795548553.25)") == "2026-11-24T19:29:13.25Z");
  CHECK(evaluate("tf.time.rfc3339(tf.time.parse_rfc3339('2026-11-24T14:29:13.125-05:00'))") ==
        "2026-11-24T19:29:13.125Z");
  // Without an argument: now, by the wall clock, which os.time also reads.
  CHECK(evaluate("math.abs(tf.time.parse_rfc3339(tf.time.rfc3339()) - os.time()) <= 2") == "true");
  CHECK(evaluate("tf.time.rfc3339(1e13)").find("finite number of seconds") != std::string::npos);
}

namespace {

// A resource whose create sleeps for an hour: only a stop or its timeout can end it.
constexpr const char* kSleeper = R"(local tf = require("luaform")
return tf.resource {
  schema = {},
  timeouts = { create = "300ms" },
  create = function(d)
    d:set_id("asleep")
    tf.time.sleep("1h")
  end,
  read = function() end, delete = function() end,
}
)";

}  // namespace

TEST_CASE("a sleep ends at the operation's timeout, at the line that slept") {
  ProviderDir dir;
  dir.write("resource_sleeper.lua", kSleeper);
  auto logic = dir.load();
  Instance i(*logic, "test_sleeper");
  luaform::engine::ResourceData d(i.schema, i.null(), i.null(), i.null());
  const auto started = std::chrono::steady_clock::now();
  auto diags = logic->open_session()->call(Operation::Create, "test_sleeper", d);
  REQUIRE(diags.has_errors());
  CHECK(as_raised(diags.items()[0]) ==
        "resource_sleeper.lua:7: create did not finish within its timeout of 0.3s");
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
  CHECK(d.id() == "asleep");
}

TEST_CASE("StopProvider ends a sleep within a moment") {
  ProviderDir dir;
  dir.write("resource_sleeper.lua", kSleeper);
  auto logic = dir.load();
  Instance i(*logic, "test_sleeper");
  luaform::engine::ResourceData d(i.schema, i.null(), i.null(), i.null());
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    logic->stop();
  });
  const auto started = std::chrono::steady_clock::now();
  auto diags = logic->open_session()->call(Operation::Create, "test_sleeper", d);
  stopper.join();
  REQUIRE(diags.has_errors());
  CHECK(as_raised(diags.items()[0]) == "resource_sleeper.lua:7: stopped by StopProvider");
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::milliseconds(250));
}
