// engine::Value <-> Lua (host/lua/core/value_conversion.h). Most of the conversion is specified
// through the scripts that use it (resource_data_object_test, lua_provider_test); these cases
// pin what tests/fuzz (fuzz_value_lua) found.
#include "host/lua/core/value_conversion.h"

#include <doctest/doctest.h>

#include <string>

#include "host/lua/core/guarded.h"
#include "host/lua/core/sandbox.h"

using namespace luaform;
using engine::Type;
using engine::Value;

namespace {

using namespace std::string_literals;

// Pushes `v` and converts it back towards `t`; the error message when the conversion fails.
std::string round_trip(const Value& v, const Type& t, Value& back) {
  lua::RunLimits limits;
  lua::StatePtr state = lua::new_sandboxed_state(&limits);
  auto failure = lua::protected_run(state.get(), [&](lua_State* L) {
    lua::push_value(L, v);
    back = lua::to_value(L, -1, t, "x");
  });
  return failure.value_or("");
}

}  // namespace

// Found by fuzz_value_lua (regressions/fuzz_value_lua): keys were read with lua_tostring, which
// stops at a zero byte, so {"\0" = ...} came back as {"" = ...}.
TEST_CASE("map keys and strings with zero bytes survive the trip") {
  const Type t = Type::map(Type::string());
  const Value v =
      Value::map(Type::string(), {{"a\0b"s, Value::string("c\0d"s)}, {"\0"s, Value::string("e")}});
  Value back;
  CHECK(round_trip(v, t, back).empty());
  CHECK(back == v);
}

TEST_CASE("a string with a zero byte is not read as the number or bool before it") {
  Value back;
  CHECK_FALSE(round_trip(Value::string("1\0x"s), Type::number(), back).empty());
  CHECK_FALSE(round_trip(Value::string("true\0"s), Type::boolean(), back).empty());
  CHECK(round_trip(Value::string("12"), Type::number(), back).empty());
  CHECK(back == Value::number(12));
}

TEST_CASE("a table that contains itself is an error, not the end of the stack") {
  lua::RunLimits limits;
  lua::StatePtr state = lua::new_sandboxed_state(&limits);
  for (const char* code : {"local t = {} t[1] = t return t", "local t = {} t.self = t return t"}) {
    CAPTURE(code);
    auto failure = lua::protected_run(state.get(), [&](lua_State* L) {
      REQUIRE(luaL_dostring(L, code) == LUA_OK);
      lua::to_value(L, -1, Type::dynamic(), "result");
    });
    REQUIRE(failure);
    CHECK(failure->find("attribute \"result\": the value nests more than 200 levels deep") !=
          std::string::npos);
  }
  // A deep value that does end converts (dynamic values nest as deep as JSON does in practice).
  auto failure = lua::protected_run(state.get(), [&](lua_State* L) {
    REQUIRE(luaL_dostring(L, "local t = {} for i = 1, 150 do t = { t } end return t") == LUA_OK);
    CHECK(lua::to_value(L, -1, Type::dynamic(), "result").is_known());
  });
  CHECK_FALSE(failure);
}
