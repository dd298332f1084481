// Feeds schema loading (host/lua/provider/schema_reader.h): the input is the Lua source of a
// provider script, run in the sandbox (host/lua/core/sandbox.h) with the SDK available through
// require, as the host loads resource_*.lua. Whatever table it returns is read with read_schema (or
// read_function for kind = "function"), then checked and served as the engine would
// (validate_block, implied types, the schema JSON). Scripts come from provider authors, so a
// wrong table must end in an error naming the problem, never in a crash, UB or a leak.
//
// The harness narrows the sandbox so that fuzzed code is harmless: no io, no os.remove or
// os.rename, stub http/fs/time/log modules, a 500 ms deadline through RunLimits (ends infinite
// loops), and a memory budget through the Lua allocator (ends string.rep("x", 1e12)).
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "host/engine/schema/schema.h"
#include "host/engine/schema/schema_json.h"
#include "host/engine/schema/schema_rules.h"
#include "host/lua/core/guarded.h"
#include "host/lua/core/sandbox.h"
#include "host/lua/core/script_set.h"
#include "host/lua/modules/module_loader.h"
#include "host/lua/provider/schema_reader.h"

using namespace luaform;

namespace {

// Lua's allocator with a budget: past it, allocations fail and Lua raises "not enough memory".
struct Budget {
  lua_Alloc inner = nullptr;
  void* inner_ud = nullptr;
  long long used = 0;  // may go negative: blocks allocated before the budget was installed
  static constexpr long long kLimit = 64LL << 20;
};

void* budget_alloc(void* ud, void* ptr, size_t osize, size_t nsize) {
  auto* b = static_cast<Budget*>(ud);
  const long long before = ptr ? static_cast<long long>(osize) : 0;
  if (nsize > 0 && b->used - before + static_cast<long long>(nsize) > Budget::kLimit) {
    return nullptr;
  }
  void* out = b->inner(b->inner_ud, ptr, osize, nsize);
  if (out != nullptr || nsize == 0) b->used += static_cast<long long>(nsize) - before;
  return out;
}

// A provider directory that does not exist: require finds the embedded SDK and nothing else,
// and no fuzz run leaves a directory behind.
const lua::ScriptSet& scripts() {
  static const lua::ScriptSet set = [] {
    lua::ScriptSet s;
    s.provider_name = "fuzz";
    s.directory = "/nonexistent/luaform-fuzz";
    return s;
  }();
  return set;
}

int empty_module(lua_State* L) {
  lua_newtable(L);
  return 1;
}

// Takes away what could touch the machine; runs inside a protected call.
void narrow_sandbox(lua_State* L) {
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "preload");
  for (const char* name : {"luaform_http", "luaform_fs", "luaform_time", "luaform_log"}) {
    lua_pushcfunction(L, empty_module);
    lua_setfield(L, -2, name);
  }
  lua_pop(L, 2);
  lua_pushnil(L);
  lua_setglobal(L, "io");
  lua_getglobal(L, "os");
  for (const char* name : {"remove", "rename"}) {
    lua_pushnil(L);
    lua_setfield(L, -2, name);
  }
  lua_pop(L, 1);
  lua_pushcfunction(L, empty_module);  // print: quiet
  lua_setglobal(L, "print");
}

// What the host does with a schema once read: check it and describe it.
void use_schema(const engine::Schema& schema, bool resource) {
  engine::Diagnostics diags;
  engine::validate_block(
      schema.block, "fuzz", diags,
      resource ? engine::BlockPlace::ResourceTop : engine::BlockPlace::Elsewhere);
  (void)schema.block.implied_type();
  engine::ProviderSchema provider;
  provider.resources["fuzz_x"] = schema;
  (void)engine::provider_schema_json("registry.opentofu.org/luaform/fuzz", provider);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  lua::RunLimits limits;
  limits.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
  limits.deadline_message = "fuzz input ran too long";
  Budget budget;  // declared before the state, which frees through it when closed
  lua::StatePtr state = lua::new_sandboxed_state(&limits);
  lua_State* L = state.get();
  budget.inner = lua_getallocf(L, &budget.inner_ud);
  lua_setallocf(L, budget_alloc, &budget);

  const std::string source(reinterpret_cast<const char*>(data), size);
  engine::Schema schema;
  engine::Function function;
  std::string kind;
  auto failure = lua::protected_run(L, [&](lua_State* S) {
    lua::install_module_loader(S, scripts());
    narrow_sandbox(S);
    if (luaL_loadbufferx(S, source.data(), source.size(), "=fuzz", "t") != LUA_OK) {
      lua_error(S);
    }
    lua_call(S, 0, 1);
    if (!lua_istable(S, -1)) throw std::runtime_error("the script must return a table");
    if (lua_getfield(S, -1, "kind") == LUA_TSTRING) kind = lua_tostring(S, -1);
    lua_pop(S, 1);
    if (kind == "function") {
      function = lua::read_function(S, -1);
    } else {
      schema = lua::read_schema(S, -1, kind != "provider" && kind != "ephemeral");
    }
  });
  if (failure) {
    // For writing seeds: LUAFORM_FUZZ_VERBOSE=1 says why a script was rejected.
    if (std::getenv("LUAFORM_FUZZ_VERBOSE"))
      std::fprintf(stderr, "rejected: %s\n", failure->c_str());
    return 0;
  }
  if (kind == "function") {
    engine::Diagnostics diags;
    engine::validate_function(function, "fuzz", diags);
  } else {
    use_schema(schema, kind == "resource");
  }
  return 0;
}
