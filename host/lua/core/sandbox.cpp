#include "host/lua/core/sandbox.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>

#include "host/engine/rpc/cancellation.h"
#include "host/engine/rules/secret_scope.h"
#include "host/engine/rules/secrets.h"
#include "host/lua/core/call_context.h"
#include "host/lua/core/frozen_tables.h"
#include "host/lua/core/guarded.h"
#include "host/lua/core/sandbox_guards.h"
#include "host/lua/core/string_patterns.h"

namespace luaform::lua {
namespace {

// How many VM instructions run between two looks at the limits: rare enough to cost nothing
// measurable, frequent enough that a busy loop stops within microseconds.
constexpr int kHookInterval = 1000;

// The limits live in the state's extra space, which coroutines inherit.
RunLimits*& run_limits(lua_State* L) {
  return *static_cast<RunLimits**>(lua_getextraspace(L));
}

// The state's allocator (ud: its RunLimits, or null for no limit).
void* limited_alloc(void* ud, void* block, size_t old_size, size_t new_size) {
  auto* limits = static_cast<RunLimits*>(ud);
  // Without a block, old_size tells the kind of object being made, not a size.
  const size_t held = block == nullptr ? 0 : old_size;
  if (new_size == 0) {
    std::free(block);
    if (limits != nullptr) limits->memory_used -= held;
    return nullptr;
  }
  if (limits != nullptr && limits->memory_limit != 0 && new_size > held) {
    const size_t hard_limit = limits->memory_limit + limits->memory_limit / 4;
    if (limits->memory_used - held + new_size > hard_limit) return nullptr;
  }
  void* grown = std::realloc(block, new_size);
  if (grown != nullptr && limits != nullptr)
    limits->memory_used = limits->memory_used - held + new_size;
  return grown;
}

// True when the state holds more than its limit even after a full collection (garbage left
// by an operation that failed is no reason to fail the next one).
bool over_memory_limit(lua_State* L, const RunLimits* limits) {
  if (limits->memory_limit == 0 || limits->memory_used <= limits->memory_limit) return false;
  lua_gc(L, LUA_GCCOLLECT);
  return limits->memory_used > limits->memory_limit;
}

// How many runs of the count hook (of kHookInterval instructions each) pass between two asks
// whether the CLI cancelled the call: a few microseconds of script apart.
constexpr uint32_t kCancelInterval = 16;

const char* exceeded(RunLimits* limits, bool ask_cancelled) {
  if (limits == nullptr) return nullptr;
  if (limits->stops != nullptr &&
      limits->stops->load(std::memory_order_relaxed) != limits->stops_before) {
    return kStoppedMessage;
  }
  if (limits->deadline && std::chrono::steady_clock::now() > *limits->deadline) {
    return limits->deadline_message.c_str();
  }
  if (ask_cancelled && engine::call_cancelled()) return engine::kCancelledMessage;
  return nullptr;
}

void limits_hook(lua_State* L, lua_Debug*) {
  RunLimits* limits = run_limits(L);
  if (limits != nullptr && over_memory_limit(L, limits)) {
    luaL_where(L, 0);
    lua_pushfstring(L,
                    "the script holds more than %d MiB of memory, the limit of a provider's "
                    "Lua state (LUAFORM_MEMORY_LIMIT_MB sets it)",
                    static_cast<int>(limits->memory_limit >> 20));
    lua_concat(L, 2);
    lua_error(L);
  }
  const char* message =
      exceeded(limits, limits != nullptr && ++limits->ticks % kCancelInterval == 0);
  if (message == nullptr) return;
  // Inside a hook, level 0 is the Lua function being run: the line the script was at.
  luaL_where(L, 0);
  lua_pushstring(L, message);
  lua_concat(L, 2);
  lua_error(L);
}

// print writes to stderr: the plugin's stdout carries the go-plugin handshake, and go-plugin
// copies stderr into the CLI's log (TF_LOG). Secrets are hidden there as in tf.log's lines.
int print_to_stderr(lua_State* L) {
  const int n = lua_gettop(L);
  std::string line;
  for (int i = 1; i <= n; ++i) {
    size_t length = 0;
    const char* text = luaL_tolstring(L, i, &length);
    if (i > 1) line += '\t';
    line.append(text, length);
    lua_pop(L, 1);
  }
  line = engine::redact(std::move(line), engine::secrets_in_scope()) + '\n';
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
  return 0;
}

// load() restricted to source text: precompiled chunks can crash the VM.
int load_text_only(lua_State* L) {
  // Argument 4 (env) is significant even when nil, so only pad up to the mode argument.
  if (lua_gettop(L) < 3) lua_settop(L, 3);
  lua_pushliteral(L, "t");
  lua_replace(L, 3);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

// Whether `path` (absolute) is one of the doors below.
bool is_door_path(const std::filesystem::path& path) {
  auto part = path.begin();
  if (part == path.end() || *part != "/" || ++part == path.end()) return false;
  if (*part == "dev") {
    if (++part == path.end()) return false;
    const std::string device = part->string();
    // The memory devices, and the plugin's own standard streams and terminal: scripts have no
    // standard input or output (stdout carries the plugin protocol).
    return device == "mem" || device == "kmem" || device == "port" || device == "stdin" ||
           device == "stdout" || device == "stderr" || device == "fd" || device == "tty" ||
           device == "console" || device == "pts";
  }
  if (*part != "proc" || ++part == path.end()) return false;
  const std::string process = part->string();
  return process == "self" || process == "thread-self" ||
         process.find_first_not_of("0123456789") == std::string::npos;
}

// The obvious doors from a file name into the host process, its standard streams or the
// machine's memory: any process's directory under /proc (/proc/self/mem lets a script rewrite
// the host's code), /dev/stdin and /dev/fd, the terminal and the memory devices. The name is
// checked as written and once links are followed, so no other name reaches them either.
bool is_host_door(const std::string& name) {
  std::error_code ec;
  const std::filesystem::path written = std::filesystem::absolute(name, ec).lexically_normal();
  if (!ec && is_door_path(written)) return true;
  const std::filesystem::path real = std::filesystem::weakly_canonical(name, ec);
  return !ec && is_door_path(real);
}

void refuse_host_doors(lua_State* L, const char* function) {
  const char* name = luaL_checkstring(L, 1);
  if (is_host_door(name)) {
    luaL_error(L, "%s: '%s' is closed to provider scripts (it reaches into processes or memory)",
               function, name);
  }
}

// io.open(filename, mode) and io.lines(filename, ...) without the doors above: upvalue 1 is
// the library's function, upvalue 2 its name for the error. The file name is required, so
// io.lines cannot read the plugin's stdin either.
int file_function(lua_State* L) {
  refuse_host_doors(L, lua_tostring(L, lua_upvalueindex(2)));
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

// string.rep(s, n [, sep]) that allocates its result once, from the state's memory (so the
// limit refuses what would not fit before any work is done), and fills it by doubling: Lua's adds
// one copy at a time inside one C call, which the count hook cannot end (a 1 GiB result took
// 20 s there).
int bounded_rep(lua_State* L) {
  size_t length = 0;
  size_t separator_length = 0;
  const char* text = luaL_checklstring(L, 1, &length);
  const lua_Integer count = luaL_checkinteger(L, 2);
  const char* separator = luaL_optlstring(L, 3, "", &separator_length);
  const size_t unit = length + separator_length;
  if (count <= 0 || unit == 0) {
    lua_pushliteral(L, "");
    return 1;
  }
  const auto times = static_cast<size_t>(count);
  if (unit > (SIZE_MAX - 1) / times) return luaL_error(L, "resulting string too large");
  const size_t total = unit * times - separator_length;
  luaL_Buffer buffer;
  char* out = luaL_buffinitsize(L, &buffer, total);
  std::memcpy(out, text, length);
  size_t filled = length;
  if (times > 1) {
    std::memcpy(out + filled, separator, separator_length);
    filled += separator_length;
  }
  // out holds whole units (text and separator); each copy doubles them, the last one ends
  // with a text without its separator.
  while (filled < total) {
    const size_t n = std::min(filled, total - filled);
    std::memcpy(out + filled, out, n);
    filled += n;
  }
  luaL_pushresultsize(&buffer, total);
  return 1;
}

// collectgarbage without the options that would change later calls on the state: "stop" (the
// collector stayed off for every call after it, and memory grew without end), and the modes
// and tunings. Collecting, counting and stepping stay. Upvalue 1: the library's function.
int bounded_collectgarbage(lua_State* L) {
  static constexpr const char* kAllowed[] = {"collect", "count", "step", "isrunning"};
  const char* option = luaL_optstring(L, 1, "collect");
  bool allowed = false;
  for (const char* name : kAllowed) allowed = allowed || std::strcmp(option, name) == 0;
  if (!allowed) {
    return luaL_error(L,
                      "collectgarbage(\"%s\") is not available to provider scripts: it would "
                      "change how every later call on this state collects (\"collect\", "
                      "\"count\", \"step\" and \"isrunning\" are)",
                      option);
  }
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

// Replaces the library table on top of the stack by a new one holding only `names`, and
// makes it both the global `name` and package.loaded[name].
void keep_only(lua_State* L, const char* name, std::initializer_list<const char*> names) {
  lua_newtable(L);
  for (const char* field : names) {
    lua_getfield(L, -2, field);
    lua_setfield(L, -2, field);
  }
  lua_remove(L, -2);
  lua_pushvalue(L, -1);
  lua_setglobal(L, name);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  lua_insert(L, -2);
  lua_setfield(L, -2, name);
  lua_pop(L, 1);
}

void open_libraries(lua_State* L) {
  const std::pair<const char*, lua_CFunction> full[] = {
      {LUA_GNAME, luaopen_base},          {LUA_LOADLIBNAME, luaopen_package},
      {LUA_TABLIBNAME, luaopen_table},    {LUA_STRLIBNAME, luaopen_string},
      {LUA_MATHLIBNAME, luaopen_math},    {LUA_UTF8LIBNAME, luaopen_utf8},
      {LUA_COLIBNAME, luaopen_coroutine},
  };
  for (const auto& [name, open] : full) {
    luaL_requiref(L, name, open, 1);
    lua_pop(L, 1);
  }

  // io for files only: no popen, no stdin/stdout, no default input or output.
  luaL_requiref(L, LUA_IOLIBNAME, luaopen_io, 0);
  for (const char* function : {"lines", "open"}) {
    lua_getfield(L, -1, function);
    lua_pushfstring(L, "io.%s", function);
    lua_pushcclosure(L, guarded<file_function>, 2);
    lua_setfield(L, -2, function);
  }
  keep_only(L, LUA_IOLIBNAME, {"open", "lines", "type"});

  // os for time, environment and file removal/renaming: no execute, exit, setlocale, tmpname.
  luaL_requiref(L, LUA_OSLIBNAME, luaopen_os, 0);
  keep_only(L, LUA_OSLIBNAME, {"time", "date", "clock", "difftime", "getenv", "remove", "rename"});

  // Base functions that reach the file system or precompiled code go; load keeps text only.
  lua_pushnil(L);
  lua_setglobal(L, "dofile");
  lua_pushnil(L);
  lua_setglobal(L, "loadfile");
  lua_getglobal(L, "load");
  lua_pushcclosure(L, guarded<load_text_only>, 1);
  lua_setglobal(L, "load");
  lua_pushcfunction(L, guarded<print_to_stderr>);
  lua_setglobal(L, "print");
  lua_getglobal(L, "collectgarbage");
  lua_pushcclosure(L, guarded<bounded_collectgarbage>, 1);
  lua_setglobal(L, "collectgarbage");
  lua_getglobal(L, LUA_STRLIBNAME);
  lua_pushcfunction(L, guarded<bounded_rep>);
  lua_setfield(L, -2, "rep");
  lua_pop(L, 1);
  install_sandbox_guards(L);
  install_budgeted_patterns(L);
}

// The globals' proxy's __newindex: every assignment to a global is refused.
int refuse_global(lua_State* L) {
  const char* name = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : luaL_typename(L, 2);
  return luaL_error(L,
                    "assignment to undeclared global '%s': declare it local (globals are "
                    "shared by every script of the provider and by every later call)",
                    name);
}

// rawset without a way around the proxy or a frozen table (upvalue 1: the proxy, upvalue 2:
// rawset).
int guarded_rawset(lua_State* L) {
  if (lua_rawequal(L, 1, lua_upvalueindex(1))) {
    lua_settop(L, 2);
    return refuse_global(L);
  }
  if (is_frozen(L, 1)) {
    throw std::runtime_error(
        "rawset: this table is read-only (a table of Lua's or the SDK's libraries: a change "
        "would reach every later call)");
  }
  lua_pushvalue(L, lua_upvalueindex(2));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

// The libraries every script shares, frozen once the state is set up (see frozen_tables.h).
// `package` is replaced by a frozen copy whose loaded, preload and searchers are read-only
// views: require goes on using the real ones, which a script can no longer reach.
void freeze_libraries(lua_State* L, int real_globals) {
  for (const char* name : {LUA_STRLIBNAME, LUA_TABLIBNAME, LUA_MATHLIBNAME, LUA_UTF8LIBNAME,
                           LUA_COLIBNAME, LUA_IOLIBNAME, LUA_OSLIBNAME}) {
    lua_getfield(L, real_globals, name);
    freeze_table(L, -1, name);
    lua_pop(L, 1);
  }
  // Strings' methods are read straight from the hidden table, not through string's metatable.
  lua_pushliteral(L, "");
  lua_getmetatable(L, -1);
  lua_getfield(L, real_globals, LUA_STRLIBNAME);
  lua_getmetatable(L, -1);
  lua_getfield(L, -1, "__index");
  lua_setfield(L, -4, "__index");
  lua_pop(L, 4);

  lua_getfield(L, real_globals, LUA_LOADLIBNAME);
  const int real_package = lua_gettop(L);
  lua_newtable(L);
  const int copy = lua_gettop(L);
  for (const char* field : {"path", "cpath", "config", "searchpath"}) {
    lua_getfield(L, real_package, field);
    lua_setfield(L, copy, field);
  }
  for (const char* field : {"loaded", "preload", "searchers"}) {
    lua_getfield(L, real_package, field);
    push_read_only_view(L, -1, std::string("package.") + field);
    lua_setfield(L, copy, field);
    lua_pop(L, 1);
  }
  freeze_table(L, copy, LUA_LOADLIBNAME);
  lua_pushvalue(L, copy);
  lua_setfield(L, real_globals, LUA_LOADLIBNAME);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  lua_pushvalue(L, copy);
  lua_setfield(L, -2, LUA_LOADLIBNAME);
  lua_pop(L, 3);

  // The metatables Lua's libraries and the host registered by name (files' "FILE*", `d`'s)
  // can no longer be reached with getmetatable.
  lua_pushnil(L);
  while (lua_next(L, LUA_REGISTRYINDEX) != 0) {
    if (lua_type(L, -2) == LUA_TSTRING && lua_istable(L, -1)) {
      if (lua_getfield(L, -1, "__name") == LUA_TSTRING) {
        const std::string name = lua_tostring(L, -1);
        seal_metatable(L, -2, name.c_str());
      }
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
}

void seal(lua_State* L) {
  // The real globals stay where the libraries put them, behind an empty proxy that becomes
  // every chunk's _ENV (the registry's globals) and _G.
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
  const int real = lua_gettop(L);
  lua_newtable(L);
  const int proxy = lua_gettop(L);
  lua_createtable(L, 0, 4);
  lua_pushvalue(L, real);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, refuse_global);
  lua_setfield(L, -2, "__newindex");
  push_pairs_over(L, real);
  lua_setfield(L, -2, "__pairs");
  lua_pushliteral(L, "the globals are sealed");
  lua_setfield(L, -2, "__metatable");
  lua_setmetatable(L, proxy);

  lua_pushvalue(L, proxy);
  lua_setfield(L, real, "_G");
  lua_pushvalue(L, proxy);
  lua_getfield(L, real, "rawset");
  lua_pushcclosure(L, guarded_rawset, 2);
  lua_setfield(L, real, "rawset");
  lua_pushvalue(L, proxy);
  lua_rawseti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
  freeze_libraries(L, real);

  // getmetatable("") gives this string instead of the table every string shares.
  lua_pushliteral(L, "");
  if (lua_getmetatable(L, -1)) {
    lua_pushliteral(L, "string");
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 1);
  }
  lua_settop(L, real - 1);
}

}  // namespace

void seal_globals(lua_State* L) {
  if (auto failure = protected_run(L, seal)) {
    throw std::runtime_error("cannot seal the Lua globals: " + *failure);
  }
}

std::optional<std::string> limit_reached(lua_State* L) {
  if (const char* message = exceeded(run_limits(L), true)) return std::string(message);
  return std::nullopt;
}

void check_memory_limit(lua_State* L, const std::string& what) {
  const RunLimits* limits = run_limits(L);
  if (limits == nullptr || !over_memory_limit(L, limits)) return;
  throw std::runtime_error(what + " would hold more than the " +
                           std::to_string(limits->memory_limit >> 20) +
                           " MiB memory limit of a provider's Lua state "
                           "(LUAFORM_MEMORY_LIMIT_MB sets the limit)");
}

std::optional<std::chrono::steady_clock::time_point> current_deadline(lua_State* L) {
  const RunLimits* limits = run_limits(L);
  if (limits == nullptr) return std::nullopt;
  return limits->deadline;
}

NativeMemory::NativeMemory(lua_State* L, std::string what)
    : limit_(0), left_(SIZE_MAX), what_(std::move(what)) {
  if (const RunLimits* limits = run_limits(L); limits != nullptr && limits->memory_limit != 0) {
    limit_ = limits->memory_limit;
    left_ = limits->memory_used < limit_ ? limit_ - limits->memory_used : 0;
  }
}

void NativeMemory::add(size_t bytes) {
  if (bytes > left_ - held_) {
    throw std::runtime_error(what_ + " would hold more than the " + std::to_string(left_ >> 20) +
                             " MiB the script has left under its memory limit of " +
                             std::to_string(limit_ >> 20) +
                             " MiB (LUAFORM_MEMORY_LIMIT_MB sets the limit)");
  }
  held_ += bytes;
}

size_t RunLimits::default_memory_limit() {
  static const size_t limit = [] {
    const char* text = std::getenv("LUAFORM_MEMORY_LIMIT_MB");
    if (text == nullptr || *text == '\0') return size_t{1024} << 20;
    char* end = nullptr;
    const unsigned long long mib = std::strtoull(text, &end, 10);
    if (end == text || *end != '\0') return size_t{1024} << 20;
    return static_cast<size_t>(mib) << 20;
  }();
  return limit;
}

StatePtr new_sandboxed_state(RunLimits* limits) {
  StatePtr state(lua_newstate(limited_alloc, limits));
  if (!state) throw std::runtime_error("cannot create a Lua state: out of memory");
  lua_State* L = state.get();
  // What luaL_newstate would set besides the allocator: an unprotected error is a bug of ours,
  // reported before the abort it leads to.
  lua_atpanic(L, [](lua_State* S) {
    std::fprintf(stderr, "luaform: unprotected Lua error: %s\n", lua_tostring(S, -1));
    return 0;
  });
  run_limits(L) = limits;
  if (auto failure = protected_run(L, open_libraries)) {
    throw std::runtime_error("cannot open the Lua libraries: " + *failure);
  }
  lua_sethook(L, limits_hook, LUA_MASKCOUNT, kHookInterval);
  return state;
}

}  // namespace luaform::lua
