// engine::Value <-> Lua (host/lua/core/value_conversion.h). Most of the conversion is specified
// through the scripts that use it (resource_data_object_test, lua_provider_test); these cases
// pin what tests/fuzz (fuzz_value_lua) found.
#include "host/lua/core/value_conversion.h"

#include <doctest/doctest.h>

#include <string>

#include "host/lua/core/guarded.h"
#include "host/lua/core/sandbox.h"
#include "small_stack.h"

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

// Found by review (issue 37), like json.encode's: a value's strings are copies in the host's
// memory, so 160 references to one 8 MiB string set as a list took 1.3 GB outside the limit.
TEST_CASE("what a conversion builds counts against the memory limit, naming the attribute") {
  lua::RunLimits limits;
  limits.memory_limit = size_t{64} << 20;
  lua::StatePtr state = lua::new_sandboxed_state(&limits);
  for (const Type& t : {Type::list(Type::string()), Type::dynamic()}) {
    auto failure = lua::protected_run(state.get(), [&](lua_State* L) {
      REQUIRE(luaL_dostring(L,
                            "local s = ('x'):rep(8 * 1024 * 1024) local t = {} "
                            "for i = 1, 160 do t[i] = s end return t") == LUA_OK);
      lua::to_value(L, -1, t, "tags[1]");
    });
    REQUIRE(failure);
    CHECK_MESSAGE(failure->find("attribute \"tags\": the value would hold more than the") !=
                      std::string::npos,
                  *failure);
    CHECK(failure->find("under its memory limit of 64 MiB") != std::string::npos);
  }
  // Within the limit, and for the next conversion, nothing is left counted.
  auto failure = lua::protected_run(state.get(), [&](lua_State* L) {
    lua_gc(L, LUA_GCCOLLECT);
    REQUIRE(luaL_dostring(L, "local s = ('x'):rep(1024 * 1024) return { s, s, s, s }") == LUA_OK);
    CHECK(lua::to_value(L, -1, Type::list(Type::string()), "tags").elements().size() == 4);
  });
  CHECK_FALSE(failure);
}

// Release hosts run scripts on musl's 128 KiB threads (small_stack.h). Before, to_value
// recursed at about 800 bytes a level: 160 KiB at its bound of 200 (g++ -O2), past the end.
TEST_CASE("at the depth bound, conversions both ways fit in a quarter of a musl thread's stack") {
  std::optional<std::string> failure = "did not run";
  lua::testing::run_on_small_stack(lua::testing::kQuarterOfMuslStack, [&] {
    lua::RunLimits limits;
    lua::StatePtr state = lua::new_sandboxed_state(&limits);
    failure = lua::protected_run(state.get(), [&](lua_State* L) {
      // 200 levels, alternating lists and objects, then one more.
      REQUIRE(luaL_dostring(L, "local t = {} for i = 1, 99 do t = { { a = t } } end return t") ==
              LUA_OK);
      const Value v = lua::to_value(L, -1, Type::dynamic(), "result");
      lua::push_value(L, v);
      CHECK(lua::to_value(L, -1, Type::dynamic(), "result") == v);
      REQUIRE(luaL_dostring(L, "local t = {} for i = 1, 250 do t = { t } end return t") == LUA_OK);
      CHECK_THROWS_AS(lua::to_value(L, -1, Type::dynamic(), "result"), lua::ConversionError);
    });
  });
  CHECK_FALSE(failure);
}
