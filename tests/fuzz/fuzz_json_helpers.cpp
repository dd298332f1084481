// Feeds the JSON helpers scripts call (host/lua/core/json_conversion.h: tf.json.decode, encode
// and equivalent, behind tf.suppress.equivalent_json) with two documents of any depth and
// size, in a sandboxed state under a small memory limit. Input: the first byte's low four bits
// pick the limit (256 KiB to 4 MiB); bit 0x40 nests the first document 100 levels deeper (in
// arrays), bit 0x80 makes it 65 times as large (a list of 65 copies), so that the fuzzer meets
// both bounds with small inputs; then the first document, up to a zero byte, and the second,
// the rest. Seeds nested past the bound of 150 levels are in corpus/fuzz_json_helpers.
//
// Properties: no crash, UB or leak, whatever the depth; an error is a Lua error, never
// anything else; equivalence is symmetric; a document that decodes is equivalent to itself and
// to what encode makes of what decode gave (when encode takes it: decode may give numbers JSON
// cannot hold, such as 1e999's infinity).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "host/lua/core/guarded.h"
#include "host/lua/core/json_conversion.h"
#include "host/lua/core/sandbox.h"

using namespace luaform;

namespace {

// Runs with the documents as `a` and `b` and the module as `json`; returns a failed property's
// description, "" when every property held. Errors of the helpers are fine and are caught.
constexpr const char* kProbe = R"(
local json, a, b = ...
local function equivalent(x, y)
  local ok, same = pcall(json.equivalent, x, y)
  if ok then return same end
  return nil
end
local ab, ba = equivalent(a, b), equivalent(b, a)
if ab ~= ba then
  return "equivalent(a, b) is " .. tostring(ab) .. " but equivalent(b, a) is " .. tostring(ba)
end
for _, doc in ipairs({ a, b }) do
  local ok, value = pcall(json.decode, doc)
  if ok then
    if equivalent(doc, doc) == false then return "a document that decodes is not equivalent to itself" end
    local encoded_ok, text = pcall(json.encode, value)
    if encoded_ok then
      if equivalent(doc, text) == false then
        return "decode then encode gives a document that is not equivalent: " .. text
      end
      local again_ok, again = pcall(json.decode, text)
      if again_ok and pcall(json.encode, again) and json.encode(again) ~= text then
        return "encode is not stable across decode: " .. text
      end
    end
  end
end
return ""
)";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::string input(reinterpret_cast<const char*>(data) + 1, size - 1);
  const size_t split = input.find('\0');
  std::string a = input.substr(0, split);
  if ((data[0] & 0x40) != 0) a = std::string(100, '[') + a + std::string(100, ']');
  if ((data[0] & 0x80) != 0) {
    std::string many = "[" + a;
    for (int i = 0; i < 64; ++i) many += "," + a;
    a = many + "]";
  }
  const std::string b = split == std::string::npos ? std::string() : input.substr(split + 1);

  lua::RunLimits limits;
  limits.memory_limit = static_cast<size_t>((data[0] & 0x0f) + 1) << 18;
  lua::StatePtr state = lua::new_sandboxed_state(&limits);
  std::string broken;
  auto failure = lua::protected_run(state.get(), [&](lua_State* L) {
    if (luaL_loadstring(L, kProbe) != LUA_OK) lua_error(L);
    luaL_requiref(L, "luaform_json", lua::open_json_module, 0);
    lua_pushlstring(L, a.data(), a.size());
    lua_pushlstring(L, b.data(), b.size());
    lua_call(L, 3, 1);
    broken = lua_tostring(L, -1) != nullptr ? lua_tostring(L, -1) : "the probe gave no text";
  });
  // The probe catches the helpers' errors; what escapes it is the memory limit of the state
  // itself (the probe's own tables), which is fine.
  if (failure && failure->find("memory") == std::string::npos) {
    std::fprintf(stderr, "fuzz property violated: the probe failed: %s\n", failure->c_str());
    std::abort();
  }
  if (!failure && !broken.empty()) {
    std::fprintf(stderr, "fuzz property violated: %s\n", broken.c_str());
    std::abort();
  }
  return 0;
}
