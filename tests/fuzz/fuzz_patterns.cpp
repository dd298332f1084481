// Feeds the sandbox's pattern functions (host/lua/core/string_patterns.h: string.find, match,
// gmatch and gsub over the budgeted matcher) side by side with Lua's own, as the differential
// unit test does with generated cases (string_patterns_test). Input: byte 0 picks the function
// and whether a start position (or gsub's count) is given, byte 1 is that number (-128..127),
// then the subject up to a zero byte, the pattern up to the next, and gsub's replacement text
// (the rest).
//
// Properties: no crash, UB or leak; the same results and the same errors (without their
// position) as Lua 5.4's functions, unless ours gave up at its step budget, where Lua's own
// could run for hours (that case is not run in Lua).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "host/lua/core/guarded.h"
#include "host/lua/core/sandbox.h"

using namespace luaform;

namespace {

// What one call gave: each result with its type, or the error without its position.
constexpr const char* kProbe = R"(
local kind, s, p, n, r = ...
local function described(ok, ...)
  local out = { tostring(ok) }
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    if not ok then v = tostring(v):gsub("^[^\n]-:%d+: ", "") end
    out[#out + 1] = type(v) .. ":" .. tostring(v)
  end
  return table.concat(out, "|")
end
if kind == 0 then return described(pcall(string.find, s, p, n)) end
if kind == 1 then return described(pcall(string.find, s, p, n, true)) end
if kind == 2 then return described(pcall(string.match, s, p, n)) end
if kind == 3 then
  return described(pcall(function()
    local seen = {}
    for x, y in string.gmatch(s, p, n) do
      seen[#seen + 1] = tostring(x) .. "," .. tostring(y)
      if #seen > 200 then break end
    end
    return table.concat(seen, ";")
  end))
end
if kind == 4 then return described(pcall(string.gsub, s, p, r, n)) end
return described(pcall(string.gsub, s, p, { a = "A", b = false, ["1"] = "one" }, n))
)";

// The probe's answer; a failure of the probe itself (not of the function it calls) aborts.
std::string probe(lua_State* L, int kind, const std::string& s, const std::string& p, const int* n,
                  const std::string& r) {
  std::string out;
  auto failure = lua::protected_run(L, [&](lua_State* S) {
    // Compiled once per state, kept in the registry under kProbe's address.
    if (lua_rawgetp(S, LUA_REGISTRYINDEX, kProbe) != LUA_TFUNCTION) {
      lua_pop(S, 1);
      if (luaL_loadstring(S, kProbe) != LUA_OK) lua_error(S);
      lua_pushvalue(S, -1);
      lua_rawsetp(S, LUA_REGISTRYINDEX, kProbe);
    }
    lua_pushinteger(S, kind);
    lua_pushlstring(S, s.data(), s.size());
    lua_pushlstring(S, p.data(), p.size());
    if (n != nullptr) {
      lua_pushinteger(S, *n);
    } else {
      lua_pushnil(S);
    }
    lua_pushlstring(S, r.data(), r.size());
    lua_call(S, 5, 1);
    out = lua_tostring(S, -1);
  });
  if (failure) {
    std::fprintf(stderr, "fuzz property violated: the probe failed: %s\n", failure->c_str());
    std::abort();
  }
  return out;
}

struct States {
  States() : ours(lua::new_sandboxed_state(&limits)), reference(luaL_newstate()) {
    luaL_openlibs(reference.get());
  }
  lua::RunLimits limits;
  lua::StatePtr ours;
  lua::StatePtr reference;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const int kind = (data[0] & 0x7f) % 6;
  const bool with_number = (data[0] & 0x80) != 0;
  const int number = static_cast<int8_t>(data[1]);
  const std::string rest(reinterpret_cast<const char*>(data) + 2, size - 2);
  const size_t first = rest.find('\0');
  const size_t second = first == std::string::npos ? std::string::npos : rest.find('\0', first + 1);
  const std::string subject = rest.substr(0, first);
  const std::string pattern =
      first == std::string::npos ? std::string() : rest.substr(first + 1, second - first - 1);
  const std::string replacement = second == std::string::npos ? "<%0>" : rest.substr(second + 1);

  static States states;  // fresh per input would cost more than the matching
  const int* n = with_number ? &number : nullptr;
  const std::string ours = probe(states.ours.get(), kind, subject, pattern, n, replacement);
  // Ours gave up where Lua's own may backtrack for hours: nothing to compare. (Only an error
  // says so: a result may hold any text of the subject.)
  if (ours.rfind("false|", 0) == 0 &&
      ours.find("pattern too complex for this subject") != std::string::npos) {
    return 0;
  }
  const std::string lua = probe(states.reference.get(), kind, subject, pattern, n, replacement);
  if (ours != lua) {
    std::fprintf(stderr, "fuzz property violated: kind %d, number %s\n  ours: %s\n  Lua's: %s\n",
                 kind, with_number ? std::to_string(number).c_str() : "none", ours.c_str(),
                 lua.c_str());
    std::abort();
  }
  lua_settop(states.ours.get(), 0);
  lua_settop(states.reference.get(), 0);
  return 0;
}
