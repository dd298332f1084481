// Provider-defined functions from function_*.lua: tf.func's checks, the schema the host reads,
// and calls: values in both directions, tf.dynamic, tf.unknown, and failures naming the line.
#include <doctest/doctest.h>

#include "host/engine/rpc/provider_service.h"
#include "provider_dir.h"

using namespace luaform;
using namespace luaform::lua::testing;
using engine::Type;
using engine::Value;

namespace {

engine::FunctionOutcome call(engine::ProviderLogic& logic, const std::string& name,
                             const std::vector<Value>& args) {
  return logic.open_session()->call_function(name, logic.schema().functions.at(name), args);
}

const char* kPick = R"(local tf = require("luaform")
return tf.func {
  summary = "Picks",
  description = tf.markdown "Picks `key` from `from`.",
  params = {
    { name = "from", type = tf.map(tf.number), description = "where" },
    { name = "key", type = tf.string, allow_null = true },
  },
  variadic = { name = "rest", type = tf.bool, allow_unknown = true },
  returns = tf.object { key = tf.string, value = tf.number },
  run = function(from, key, ...)
    if key == nil then
      tf.fail { summary = "No key", detail = "give a key", argument = 2 }
    end
    if from[key] == nil then
      error("no " .. key .. " in the map")
    end
    return { key = key, value = from[key] }
  end,
}
)";

}  // namespace

TEST_CASE("a function script's declaration becomes the function schema") {
  ProviderDir dir;
  dir.write("function_pick.lua", kPick);
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  const auto& f = logic->schema().functions.at("pick");
  CHECK(f.summary == "Picks");
  CHECK(f.description == "Picks `key` from `from`.");
  CHECK(f.description_markdown);
  REQUIRE(f.parameters.size() == 2);
  CHECK(f.parameters[0].name == "from");
  CHECK(f.parameters[0].type == Type::map(Type::number()));
  CHECK(f.parameters[0].description == "where");
  CHECK_FALSE(f.parameters[0].allow_null);
  CHECK(f.parameters[1].allow_null);
  REQUIRE(f.variadic);
  CHECK(f.variadic->allow_unknown);
  CHECK(f.returns == Type::object({{"key", Type::string()}, {"value", Type::number()}}));
}

TEST_CASE("a function returns a value of its declared type; failures name the line") {
  ProviderDir dir;
  dir.write("function_pick.lua", kPick);
  auto logic = dir.load();
  const Value from = Value::map(Type::number(), {{"a", Value::number(1)}});

  auto out = call(*logic, "pick", {from, Value::string("a")});
  REQUIRE_MESSAGE(!out.failure, out.failure->text);
  CHECK(out.result.get_attribute("value") == Value::number(1));

  out = call(*logic, "pick", {from, Value::string("b")});
  REQUIRE(out.failure);
  CHECK(out.failure->text == "no b in the map (at function_pick.lua:16)");
  CHECK_FALSE(out.failure->argument);

  // tf.fail's argument counts from 1, the protocol's from 0.
  out = call(*logic, "pick", {from, Value::null(Type::string())});
  REQUIRE(out.failure);
  CHECK(out.failure->text == "No key: give a key (at function_pick.lua:13)");
  CHECK(out.failure->argument == 1);
}

TEST_CASE("tf.dynamic takes any value and returns the type of what the script built") {
  ProviderDir dir;
  dir.write("function_wrap.lua", R"(local tf = require("luaform")
return tf.func {
  params = { { name = "v", type = tf.dynamic } },
  returns = tf.dynamic,
  run = function(v) return { got = v, list = { 1, "two", true }, empty = {} } end,
})");
  auto logic = dir.load();
  auto out = call(*logic, "wrap", {Value::number(7)});
  REQUIRE_MESSAGE(!out.failure, out.failure->text);
  const Value& r = out.result;
  CHECK(r.get_attribute("got") == Value::number(7));
  CHECK(r.get_attribute("list").type() ==
        Type::tuple({Type::number(), Type::string(), Type::boolean()}));
  CHECK(r.get_attribute("empty").type() == Type::object({}));
}

TEST_CASE("tf.unknown marks unknown arguments where allowed and becomes an unknown result") {
  ProviderDir dir;
  dir.write("function_probe.lua", R"(local tf = require("luaform")
return tf.func {
  params = { { name = "items", type = tf.list(tf.string), allow_unknown = true } },
  returns = tf.list(tf.string),
  run = function(items)
    if items == tf.unknown then return tf.unknown end
    local out = {}
    for i, v in ipairs(items) do out[i] = v == tf.unknown and tostring(v) or v end
    return out
  end,
})");
  auto logic = dir.load();
  const Type list = Type::list(Type::string());
  auto out =
      call(*logic, "probe",
           {Value::list(Type::string(), {Value::string("a"), Value::unknown(Type::string())})});
  REQUIRE_MESSAGE(!out.failure, out.failure->text);
  CHECK(out.result ==
        Value::list(Type::string(), {Value::string("a"), Value::string("(known after apply)")}));
  out = call(*logic, "probe", {Value::unknown(list)});
  REQUIRE_MESSAGE(!out.failure, out.failure->text);
  CHECK(out.result.is_unknown());
  CHECK(out.result.type() == list);
}

TEST_CASE("a result of the wrong type is a failure saying what was expected") {
  ProviderDir dir;
  dir.write("function_bad.lua", R"(local tf = require("luaform")
return tf.func { returns = tf.number, run = function() return { 1 } end })");
  auto out = call(*dir.load(), "bad", {});
  REQUIRE(out.failure);
  CHECK(out.failure->text.find("function_bad.lua: run returned a value that is not a number") == 0);
}

TEST_CASE("mistakes in tf.func are load errors at the script's line") {
  struct Case {
    const char* body;
    const char* message;
  };
  const Case cases[] = {
      {"tf.func { returns = tf.string }", "tf.func: run must be a function, got nil"},
      {"tf.func { run = function() end }", "tf.func: returns must be a type such as tf.string"},
      {"tf.func { retruns = tf.string, run = function() end }",
       "tf.func: unknown option \"retruns\""},
      {"tf.func { params = { { name = \"A\", type = tf.string } }, returns = tf.string, run = "
       "function() end }",
       "tf.func: params[1]: name must be lowercase letters, digits and _, got \"A\""},
      {"tf.func { params = { { name = \"a\", type = tf.string }, { name = \"a\", type = "
       "tf.number } }, returns = tf.string, run = function() end }",
       "a parameter named \"a\" is declared twice"},
      {"tf.func { params = { { name = \"a\" } }, returns = tf.string, run = function() end }",
       "tf.func: params[1] (a): type must be a type such as tf.string, got nil"},
      {"tf.func { params = { { name = \"a\", type = tf.string, allow_null = 1 } }, returns = "
       "tf.string, run = function() end }",
       "allow_null must be true or false, got number"},
  };
  for (const auto& c : cases) {
    const std::string body = c.body;
    CAPTURE(body);
    ProviderDir dir;
    dir.write("function_oops.lua",
              std::string("local tf = require(\"luaform\")\nreturn ") + c.body + "\n");
    const std::string text = all_text(dir.load()->load_diagnostics());
    CHECK_MESSAGE(text.find(c.message) != std::string::npos, text);
    CHECK_MESSAGE(text.find("function_oops.lua") != std::string::npos, text);
  }
}

TEST_CASE("tf.dynamic inside a collection is refused when the provider is served") {
  ProviderDir dir;
  dir.write("function_oops.lua", R"(local tf = require("luaform")
return tf.func { returns = tf.list(tf.dynamic), run = function() end })");
  engine::ProviderService service(dir.load());
  const std::string text = all_text(service.load_problems());
  CHECK_MESSAGE(text.find("function oops: the return type has a type with tf.dynamic inside it") !=
                    std::string::npos,
                text);
}

TEST_CASE("tf.dynamic cannot be an attribute type") {
  ProviderDir dir;
  dir.write("resource_thing.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = { v = tf.dynamic { optional = true } },
  create = function() end, read = function() end, delete = function() end,
})");
  const std::string text = all_text(dir.load()->load_diagnostics());
  CHECK_MESSAGE(text.find("resource_thing.lua:3: tf.dynamic is only for the parameters and "
                          "results of functions") != std::string::npos,
                text);
}
