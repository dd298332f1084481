// tf.time: sleeping that StopProvider and the operation's timeout can end, and durations.
#include "host/lua/time_module.h"

#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "provider_dir.h"

using namespace luaform::lua::testing;
using luaform::engine::Operation;

TEST_CASE("durations read as seconds and print the way Terraform prints them") {
  CHECK(evaluate("tf.time.seconds('1h30m')") == "5400.0");
  CHECK(evaluate("tf.time.seconds(2.5)") == "2.5");
  CHECK(evaluate("tf.time.seconds('soon')").find("\"soon\" is not a duration") !=
        std::string::npos);
  CHECK(evaluate("tf.time.seconds(-1)").find("must not be negative") != std::string::npos);
  CHECK(evaluate("tf.time.format(90)") == "1m30s");
  CHECK(evaluate("tf.time.format(0.25)") == "0.25s");
  CHECK(evaluate("(function() local t = tf.time.now() tf.time.sleep(0.05) "
                 "return tf.time.now() - t >= 0.05 end)()") == "true");
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
  auto diags = logic->call(Operation::Create, "test_sleeper", d);
  REQUIRE(diags.has_errors());
  CHECK(diags.items()[0].detail ==
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
  auto diags = logic->call(Operation::Create, "test_sleeper", d);
  stopper.join();
  REQUIRE(diags.has_errors());
  CHECK(diags.items()[0].detail == "resource_sleeper.lua:7: stopped by StopProvider");
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::milliseconds(250));
}
