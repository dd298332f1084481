// CallFunction: arguments checked against the declared parameters before the logic runs,
// unknown arguments short-circuiting, and the result held to the declared return type.
#include <doctest/doctest.h>

#include "host/engine/codec/msgpack_codec.h"
#include "host/engine/schema/schema_rules.h"
#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

FunctionParameter parameter(std::string name, Type type, bool allow_null = false,
                            bool allow_unknown = false) {
  FunctionParameter p;
  p.name = std::move(name);
  p.type = std::move(type);
  p.allow_null = allow_null;
  p.allow_unknown = allow_unknown;
  return p;
}

struct FunctionFixture : ServiceFixture {
  FunctionFixture() {
    // join(separator, parts...) -> string
    Function join;
    join.parameters = {parameter("separator", Type::string(), true)};
    join.variadic = parameter("parts", Type::string());
    join.returns = Type::string();
    logic->declared.functions["join"] = join;
    logic->functions["join"] = [](const std::vector<Value>& args) {
      std::string out;
      const std::string separator = args[0].is_null() ? "," : args[0].as_string();
      for (size_t i = 1; i < args.size(); ++i) {
        out += (i > 1 ? separator : "") + args[i].as_string();
      }
      return FunctionOutcome{Value::string(out), std::nullopt};
    };
    // length(items) -> number, seeing unknown elements
    Function length;
    length.parameters = {parameter("items", Type::list(Type::string()), false, true)};
    length.returns = Type::number();
    logic->declared.functions["length"] = length;
    logic->functions["length"] = [](const std::vector<Value>& args) {
      return FunctionOutcome{Value::number(static_cast<int64_t>(args[0].elements().size())),
                             std::nullopt};
    };
    serve();
  }

  CallFunctionResponse call(const std::string& name, const std::vector<Value>& args) const {
    CallFunctionRequest req;
    req.name = name;
    for (const auto& a : args) req.arguments.push_back(a);
    return service->call_function(req);
  }
};

}  // namespace

TEST_CASE("a function runs on its arguments, the variadic ones last") {
  FunctionFixture f;
  auto resp = f.call("join", {Value::string("-"), Value::string("a"), Value::string("b")});
  REQUIRE_FALSE(resp.error);
  CHECK(resp.result == Value::string("a-b"));
  // No variadic arguments at all is a valid call too.
  resp = f.call("join", {Value::string("-")});
  REQUIRE_FALSE(resp.error);
  CHECK(resp.result == Value::string(""));
}

TEST_CASE("a call with too few or too many arguments fails before the logic runs") {
  FunctionFixture f;
  auto resp = f.call("join", {});
  REQUIRE(resp.error);
  CHECK(resp.error->text == "join takes at least 1 argument, got 0");
  resp = f.call("length", {Value::list(Type::string(), {}), Value::list(Type::string(), {})});
  REQUIRE(resp.error);
  CHECK(resp.error->text == "length takes 1 argument, got 2");
  CHECK(f.logic->function_calls.empty());
}

TEST_CASE("an unknown function is named in the error") {
  FunctionFixture f;
  auto resp = f.call("nope", {});
  REQUIRE(resp.error);
  CHECK(resp.error->text == "this provider has no function named \"nope\"");
}

TEST_CASE("null reaches only parameters that allow it, and the error names the argument") {
  FunctionFixture f;
  auto resp = f.call("join", {Value::null(Type::string()), Value::string("a"), Value::string("b")});
  REQUIRE_FALSE(resp.error);
  CHECK(resp.result == Value::string("a,b"));

  resp = f.call("join", {Value::string("-"), Value::string("a"), Value::null(Type::string())});
  REQUIRE(resp.error);
  CHECK(resp.error->text == "argument \"parts\" must not be null");
  CHECK(resp.error->argument == 2);
}

TEST_CASE("an argument of the wrong type is refused with its position") {
  FunctionFixture f;
  CallFunctionRequest req;
  req.name = "join";
  req.arguments = {Value::string("-"), Value::list(Type::string(), {})};
  auto resp = f.service->call_function(req);
  REQUIRE(resp.error);
  CHECK(resp.error->argument == 1);
  CHECK(resp.error->text == "argument \"parts\" must be string, not list of string");
}

TEST_CASE("an unknown argument makes the result unknown unless the parameter allows unknowns") {
  FunctionFixture f;
  auto resp = f.call("join", {Value::string("-"), Value::unknown(Type::string())});
  REQUIRE_FALSE(resp.error);
  CHECK(resp.result.is_unknown());
  CHECK(f.logic->function_calls.empty());

  // length allows unknown values: a list of known length is counted though an element is not.
  resp =
      f.call("length",
             {Value::list(Type::string(), {Value::string("a"), Value::unknown(Type::string())})});
  REQUIRE_FALSE(resp.error);
  CHECK(resp.result == Value::number(2));
}

TEST_CASE("the result must have the declared type and be known when the arguments are") {
  FunctionFixture f;
  f.logic->functions["join"] = [](const std::vector<Value>&) {
    return FunctionOutcome{Value::number(1), std::nullopt};
  };
  auto resp = f.call("join", {Value::string("-")});
  REQUIRE(resp.error);
  CHECK(resp.error->text == "join returned a number where it declares string");

  f.logic->functions["join"] = [](const std::vector<Value>&) {
    return FunctionOutcome{Value::unknown(Type::string()), std::nullopt};
  };
  resp = f.call("join", {Value::string("-")});
  REQUIRE(resp.error);
  CHECK(resp.error->text == "join returned an unknown value from known arguments");
}

TEST_CASE("a failure of the logic is passed on; an argument it blames must exist") {
  FunctionFixture f;
  f.logic->functions["join"] = [](const std::vector<Value>&) {
    return FunctionOutcome{Value(), FunctionFailure{"bad separator", 0}};
  };
  auto resp = f.call("join", {Value::string("-")});
  REQUIRE(resp.error);
  CHECK(resp.error->text == "bad separator");
  CHECK(resp.error->argument == 0);

  f.logic->functions["join"] = [](const std::vector<Value>&) {
    return FunctionOutcome{Value(), FunctionFailure{"bad part", 5}};
  };
  resp = f.call("join", {Value::string("-")});
  REQUIRE(resp.error);
  CHECK_FALSE(resp.error->argument);

  f.logic->functions["join"] = [](const std::vector<Value>&) -> FunctionOutcome {
    throw std::runtime_error("exploded");
  };
  resp = f.call("join", {Value::string("-")});
  REQUIRE(resp.error);
  CHECK(resp.error->text == "join: exploded");
}

TEST_CASE("GetFunctions and GetMetadata list the declared functions") {
  FunctionFixture f;
  auto functions = f.service->get_functions();
  REQUIRE(functions.functions != nullptr);
  CHECK(functions.functions->size() == 2);
  CHECK(f.service->get_metadata().functions == std::vector<std::string>{"join", "length"});
}

TEST_CASE("a function schema with tf.dynamic inside a type or a repeated name is refused") {
  Function f;
  f.parameters = {parameter("a", Type::list(Type::dynamic())), parameter("a", Type::string())};
  f.returns = Type::dynamic();
  Diagnostics diags;
  validate_function(f, "function bad", diags);
  REQUIRE(diags.items().size() == 2);
  CHECK(diags.items()[0].summary.find(
            "parameter \"a\" has a type with the dynamic pseudo-type inside it") !=
        std::string::npos);
  CHECK(diags.items()[1].summary == "function bad: parameter \"a\" is declared twice");
}
