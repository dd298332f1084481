// action_X.lua: an action's schema is read like a resource's, its plan function checks the
// configuration with the client, and its invoke reports progress and fails at its line.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "provider_dir.h"

using namespace luaform;
using namespace luaform::lua::testing;
using engine::Type;
using engine::Value;

namespace {

const char* kProvider = R"(local tf = require("luaform")
return tf.provider {
  schema = {},
  configure = function() return { greeting = "hello" } end,
}
)";

const char* kGreet = R"(local tf = require("luaform")
return tf.action {
  description = "Greets someone",
  schema = {
    name = tf.string { required = true },
    times = tf.number { optional = true, default = 1 },
  },
  plan = function(config, client)
    if config.name == "nobody" then error(client.greeting .. " to nobody?") end
  end,
  invoke = function(config, progress, client)
    for i = 1, config.times do progress(client.greeting .. " " .. config.name .. " " .. i) end
    if config.name == "bob" then tf.fail { summary = "Bob is away", detail = "try later" } end
  end,
}
)";

struct Greeter {
  ProviderDir dir;
  std::shared_ptr<engine::ProviderLogic> logic;
  Type type;

  Greeter() {
    dir.write("provider.lua", kProvider);
    dir.write("action_greet.lua", kGreet);
    logic = dir.load();
    REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
    REQUIRE(logic->configure(Value::null(logic->schema().provider.block.implied_type())).empty());
    type = logic->schema().actions.at("test_greet").block.implied_type();
  }
  Value config(const std::string& name, int64_t times) const {
    return Value::object(type, {{"name", Value::string(name)}, {"times", Value::number(times)}});
  }
};

}  // namespace

TEST_CASE("an action script's schema is read with its description") {
  Greeter g;
  const auto& action = g.logic->schema().actions.at("test_greet");
  CHECK(action.block.description == "Greets someone");
  CHECK(action.block.find_attribute("name")->required);
  CHECK(action.block.find_attribute("id") == nullptr);  // an action saves nothing: no id
}

TEST_CASE("an action's plan function checks the configuration with the client") {
  Greeter g;
  CHECK(g.logic->open_session()->plan_action("test_greet", g.config("ann", 1)).empty());
  const auto refused = g.logic->open_session()->plan_action("test_greet", g.config("nobody", 1));
  REQUIRE(refused.has_errors());
  CHECK(refused.items()[0].summary == "hello to nobody?");
  CHECK(refused.items()[0].detail == "test_greet: plan failed at action_greet.lua:9.");
}

TEST_CASE("an invoke reports each progress message as it goes and fails at its line") {
  Greeter g;
  std::vector<std::string> said;
  const engine::ActionProgress progress = [&](const std::string& m) { said.push_back(m); };
  CHECK(g.logic->open_session()->invoke_action("test_greet", g.config("ann", 2), progress).empty());
  CHECK(said == std::vector<std::string>{"hello ann 1", "hello ann 2"});

  said.clear();
  const auto failed =
      g.logic->open_session()->invoke_action("test_greet", g.config("bob", 1), progress);
  CHECK(said == std::vector<std::string>{"hello bob 1"});
  REQUIRE(failed.has_errors());
  CHECK(failed.items()[0].summary == "Bob is away");
  CHECK(failed.items()[0].detail ==
        "try later\n\ntest_greet: invoke failed at action_greet.lua:13.");
}

TEST_CASE("tf.action needs an invoke function") {
  ProviderDir dir;
  dir.write("action_lazy.lua", R"(local tf = require("luaform")
return tf.action { schema = {} }
)");
  auto logic = dir.load();
  CHECK(all_text(logic->load_diagnostics()).find("tf.action: an invoke function is required") !=
        std::string::npos);
}
