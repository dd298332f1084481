// Every call into a script goes one way (host/lua/provider/invocation.h): tf.warn and tf.fail
// work in every kind of hook, every kind has a deadline, and what a call lends a script (`d`,
// a listing's emit, an action's progress) is refused once the call has returned.
#include "host/lua/provider/invocation.h"

#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <string>

#include "host/engine/rpc/cancellation.h"
#include "host/engine/rpc/provider_service.h"

#include "provider_dir.h"

using namespace luaform;
using namespace luaform::lua::testing;
using engine::Value;

namespace {

const char* kProvider = R"(local tf = require("luaform")
return tf.provider {
  schema = { token = tf.string { optional = true, sensitive = true } },
  hook_timeouts = { check = "200ms", plan = "300ms" },
  configure = function(config)
    tf.warn { summary = "configured", detail = "with care" }
    return { token = config.token }
  end,
}
)";

// A module where one call leaves what it was lent, for a later call to try.
const char* kShared = "return {}\n";

const char* kThing = R"(local tf = require("luaform")
local shared = require("lib.shared")
return tf.resource {
  schema = {
    name = tf.string {
      optional = true,
      validate = function(value)
        if value == "loop" then while true do end end
        if value == "odd" then tf.warn { summary = "an odd name", path = "name" } end
      end,
    },
    size = tf.number {
      optional = true, computed = true,
      plan = function(p)
        if p.planned == 13 then
          tf.fail { summary = "unlucky size", detail = "13 is refused", path = "size" }
        end
        if p.planned == 7 then tf.warn { summary = "a lucky size" } end
        if p.planned == 99 then while true do end end
      end,
    },
  },
  create = function(d)
    d:set_id("thing")
    if shared.emit then shared.emit { identity = { id = "late" } } end
    if shared.progress then shared.progress("late") end
  end,
  read = function() end,
  delete = function() end,
  identity = { schema = { id = tf.string { required_for_import = true } } },
}
)";

const char* kListThing = R"(local tf = require("luaform")
local shared = require("lib.shared")
return tf.list_resource {
  schema = {},
  list = function(request, emit)
    shared.emit = emit
    emit { identity = { id = "one" } }
  end,
}
)";

const char* kAction = R"(local tf = require("luaform")
local shared = require("lib.shared")
return tf.action {
  schema = { forever = tf.bool { optional = true } },
  invoke = function(config, progress)
    shared.progress = progress
    progress("working")
    while config.forever do end
  end,
}
)";

struct Things {
  ProviderDir dir;
  std::shared_ptr<engine::ProviderLogic> logic;

  Things() {
    dir.write("provider.lua", kProvider);
    dir.write("lib/shared.lua", kShared);
    dir.write("resource_thing.lua", kThing);
    dir.write("list_thing.lua", kListThing);
    dir.write("action_poke.lua", kAction);
    logic = dir.load();
    REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  }
  engine::Diagnostics configure() {
    const engine::Type type = logic->schema().provider.block.implied_type();
    return logic->configure(Value::object(type, {{"token", Value::string("tok")}}));
  }
  engine::Diagnostics create() {
    Instance i(*logic, "test_thing");
    engine::ResourceData d(i.schema, i.null(), i.object({}), i.null());
    return logic->open_session()->call(engine::Operation::Create, "test_thing", d);
  }
  std::optional<Value> plan_size(double size, engine::Diagnostics& diags) {
    Instance i(*logic, "test_thing");
    const Value planned = i.object({{"size", Value::number(size)}});
    const Value prior = i.null();
    engine::PlanContext at{{engine::AttributeName{"size"}}, prior, planned, planned, planned};
    return logic->open_session()->plan_attribute("test_thing",
                                                 *i.schema.block.find_attribute("size"), at, diags);
  }
};

}  // namespace

TEST_CASE("tf.warn reaches the CLI from configure, validators and plan functions") {
  Things t;
  const engine::Diagnostics configured = t.configure();
  REQUIRE(configured.items().size() == 1);
  CHECK(configured.items()[0].severity == engine::Severity::Warning);
  CHECK(configured.items()[0].summary == "configured");

  const engine::Diagnostics validated = t.logic->open_session()->validate_value(
      engine::SchemaOwner::Resource, "test_thing", {engine::AttributeName{"name"}},
      Value::string("odd"), {Value(), Value(), Value()});
  REQUIRE(validated.items().size() == 1);
  CHECK(validated.items()[0].severity == engine::Severity::Warning);
  CHECK(validated.items()[0].summary == "an odd name");
  CHECK(engine::path_to_string(validated.items()[0].path) == "name");

  engine::Diagnostics planned;
  CHECK(t.plan_size(7, planned) == std::nullopt);
  REQUIRE(planned.items().size() == 1);
  CHECK(planned.items()[0].severity == engine::Severity::Warning);
  CHECK(planned.items()[0].summary == "a lucky size");
}

TEST_CASE("tf.fail in a plan function keeps its summary, detail and path") {
  Things t;
  REQUIRE(!t.configure().has_errors());
  engine::Diagnostics diags;
  CHECK(t.plan_size(13, diags) == std::nullopt);
  REQUIRE(diags.items().size() == 1);
  const engine::Diagnostic& d = diags.items()[0];
  CHECK(d.severity == engine::Severity::Error);
  CHECK(d.summary == "unlucky size");
  CHECK(d.detail.starts_with("13 is refused"));
  CHECK(d.detail.find("resource_thing.lua:16") != std::string::npos);
  CHECK(engine::path_to_string(d.path) == "size");
}

TEST_CASE("validators and plan functions end at their kind's deadline, which provider.lua sets") {
  Things t;
  REQUIRE(!t.configure().has_errors());
  const auto start = std::chrono::steady_clock::now();
  const engine::Diagnostics validated = t.logic->open_session()->validate_value(
      engine::SchemaOwner::Resource, "test_thing", {engine::AttributeName{"name"}},
      Value::string("loop"), {Value(), Value(), Value()});
  REQUIRE(validated.has_errors());
  CHECK_MESSAGE(validated.items()[0].summary ==
                    "validate of \"name\" did not finish within its timeout of 0.2s "
                    "(hook_timeouts.check in provider.lua sets it)",
                all_text(validated));
  CHECK(validated.items()[0].detail.find("resource_thing.lua:8") != std::string::npos);

  engine::Diagnostics planned;
  CHECK(t.plan_size(99, planned) == std::nullopt);
  REQUIRE(planned.has_errors());
  CHECK(
      planned.items()[0].summary.starts_with("plan of \"size\" did not finish within its "
                                             "timeout of 0.3s"));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
}

TEST_CASE("an emit kept past its listing is refused, not a crash") {
  Things t;
  REQUIRE(!t.configure().has_errors());
  engine::ProviderService service(t.logic);
  std::vector<engine::ListEvent> events;
  service.list_resource(
      engine::ListRequest{"test_thing", Value::object(engine::Type::object({}), {}), false, 10},
      [&](const engine::ListEvent& e) {
        events.push_back(e);
        return true;
      });
  REQUIRE(events.size() == 1);
  // The create runs on the same state, where the module kept the listing's emit.
  const engine::Diagnostics created = t.create();
  REQUIRE(created.has_errors());
  CHECK(created.items()[0].summary ==
        "emit is no longer usable: the call it was passed to has returned (keep what it gives, "
        "not the function itself)");
  CHECK(created.items()[0].detail.find("resource_thing.lua:25") != std::string::npos);
}

TEST_CASE("a progress kept past its invoke is refused, not a crash") {
  Things t;
  REQUIRE(!t.configure().has_errors());
  std::vector<std::string> said;
  const engine::Type type = t.logic->schema().actions.at("test_poke").block.implied_type();
  const engine::Diagnostics invoked = t.logic->open_session()->invoke_action(
      "test_poke", Value::object(type, {{"forever", Value::null(engine::Type::boolean())}}),
      [&](const std::string& message) { said.push_back(message); });
  REQUIRE_MESSAGE(!invoked.has_errors(), all_text(invoked));
  CHECK(said == std::vector<std::string>{"working"});
  const engine::Diagnostics created = t.create();
  REQUIRE(created.has_errors());
  CHECK(created.items()[0].summary.starts_with("progress is no longer usable"));
  CHECK(said.size() == 1);
}

TEST_CASE("an invoke whose stream the CLI cancelled ends as a stop would") {
  Things t;
  REQUIRE(!t.configure().has_errors());
  const auto start = std::chrono::steady_clock::now();
  // The protocol layer's scope: the CLI went away 100 ms into the call.
  const engine::CancelScope cancel(
      [&] { return std::chrono::steady_clock::now() - start > std::chrono::milliseconds(100); });
  const engine::Type type = t.logic->schema().actions.at("test_poke").block.implied_type();
  const engine::Diagnostics invoked = t.logic->open_session()->invoke_action(
      "test_poke", Value::object(type, {{"forever", Value::boolean(true)}}),
      [](const std::string&) {});
  REQUIRE(invoked.has_errors());
  CHECK(invoked.items()[0].summary == "the CLI cancelled the call");
  CHECK(invoked.items()[0].detail.find("action_poke.lua:8") != std::string::npos);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
}
