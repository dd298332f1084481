#include "host/lua/modules/module_loader.h"

#include <cctype>
#include <cerrno>
#include <cstdarg>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

#include "host/lua/core/embedded_sdk.h"
#include "host/lua/core/frozen_tables.h"
#include "host/lua/core/guarded.h"
#include "host/lua/core/json_conversion.h"
#include "host/lua/core/value_conversion.h"
#include "host/lua/modules/diagnostics_module.h"
#include "host/lua/modules/document_module.h"
#include "host/lua/modules/encoding_module.h"
#include "host/lua/modules/exec_module.h"
#include "host/lua/modules/fs_module.h"
#include "host/lua/modules/http_module.h"
#include "host/lua/modules/log_module.h"
#include "host/lua/modules/lpeg_module.h"
#include "host/lua/modules/openssl_modules.h"
#include "host/lua/modules/socket_module.h"
#include "host/lua/modules/time_module.h"

namespace luaform::lua {
namespace fs = std::filesystem;

namespace {

// Upvalues of the searcher: the directories to look in, most important first, as strings.
constexpr int kRootsUpvalue = 1;
constexpr int kProviderDirUpvalue = 2;

const EmbeddedModule* find_embedded(const std::string& name) {
  for (const auto& module : embedded_sdk_modules()) {
    if (module.name == name) return &module;
  }
  return nullptr;
}

void load_embedded(lua_State* L, const EmbeddedModule& module) {
  const std::string chunkname(module.chunkname);
  if (luaL_loadbufferx(L, module.source.data(), module.source.size(), chunkname.c_str(), "t") !=
      LUA_OK) {
    lua_error(L);  // the embedded SDK is compiled in and tested; this is a build defect
  }
}

// The SDK's modules (`luaform` and its `luaform_*` parts, native ones too) are frozen as their
// loader returns them (frozen_tables.h): no call can change what a later one runs.
bool is_sdk_module(const std::string& name) {
  return name == "luaform" || name.starts_with("luaform_");
}

// A loader that freezes what the loader it wraps (upvalue 1) returns, named upvalue 2.
int freezing_loader(lua_State* L) {
  const int nargs = lua_gettop(L);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, nargs, 1);
  freeze_table(L, -1, lua_tostring(L, lua_upvalueindex(2)));
  return 1;
}

// Replaces the loader on top of the stack by one that freezes the module `name` it loads.
void freeze_when_loaded(lua_State* L, const std::string& name) {
  lua_pushstring(L, name.c_str());
  lua_pushcclosure(L, freezing_loader, 2);
}

// package.preload entry for an embedded module: upvalue 1 is its name.
int preload_embedded(lua_State* L) {
  const std::string name = lua_tostring(L, lua_upvalueindex(1));
  const EmbeddedModule* module = find_embedded(name);
  if (module == nullptr) return luaL_error(L, "no embedded module '%s'", name.c_str());
  load_embedded(L, *module);
  lua_pushstring(L, name.c_str());
  lua_call(L, 1, 1);
  freeze_table(L, -1, name);
  return 1;
}

// A module name is words of letters, digits, '_' and '-' joined by dots: nothing in it can
// name a path outside the directories searched ("/tmp/x", "..tmp.x").
bool is_module_name(const std::string& name) {
  bool word_started = false;
  for (const char c : name) {
    if (c == '.') {
      if (!word_started) return false;
      word_started = false;
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-') {
      word_started = true;
    } else {
      return false;
    }
  }
  return word_started;
}

// True when `file` is inside `root` once links are followed.
bool stays_inside(const fs::path& file, const fs::path& root) {
  std::error_code ec;
  const fs::path real_file = fs::canonical(file, ec);
  if (ec) return false;
  const fs::path real_root = fs::canonical(root, ec);
  if (ec) return false;
  const fs::path relative = real_file.lexically_relative(real_root);
  return !relative.empty() && *relative.begin() != "..";
}

// Raises the message (lua_pushfstring's format) at the line of the script that called require
// (level 1 is require itself).
int error_at_caller(lua_State* L, const char* format, ...) {
  luaL_where(L, 2);
  va_list arguments;
  va_start(arguments, format);
  lua_pushvfstring(L, format, arguments);
  va_end(arguments);
  lua_concat(L, 2);
  return lua_error(L);
}

// luaform_served: what the provider is served with, for the SDK: { protocol = 5 or 6 }, or an
// empty table for the commands (--schema and the others describe protocol 6). Upvalue 1: the
// protocol, 0 for none.
int open_served_module(lua_State* L) {
  lua_createtable(L, 0, 1);
  const lua_Integer protocol = lua_tointeger(L, lua_upvalueindex(1));
  if (protocol != 0) {
    lua_pushinteger(L, protocol);
    lua_setfield(L, -2, "protocol");
  }
  return 1;
}

// package.searchers[2]: name "lib.util" is looked up as lib/util.lua, then lib/util/init.lua,
// in each root; then among the embedded SDK modules. Only names of modules inside the roots
// are accepted, and a file a link takes outside them is refused.
int search_module(lua_State* L) {
  const std::string name = luaL_checkstring(L, 1);
  if (!is_module_name(name)) {
    return error_at_caller(L,
                           "require: '%s' is not a module name: modules are found only inside "
                           "the provider directory, by names such as 'lib.util' (letters, "
                           "digits, _ and -, joined by dots)",
                           name.c_str());
  }
  std::string relative = name;
  for (char& c : relative) {
    if (c == '.') c = '/';
  }
  const fs::path provider_dir = lua_tostring(L, lua_upvalueindex(kProviderDirUpvalue));
  const int roots = lua_upvalueindex(kRootsUpvalue);
  const lua_Integer root_count = luaL_len(L, roots);
  std::vector<std::string> tried;
  for (lua_Integer i = 1; i <= root_count; ++i) {
    lua_rawgeti(L, roots, i);
    const fs::path root = lua_tostring(L, -1);
    lua_pop(L, 1);
    for (const fs::path& candidate : {root / (relative + ".lua"), root / relative / "init.lua"}) {
      std::error_code ec;
      const std::string display = display_name(candidate, provider_dir);
      if (!fs::is_regular_file(candidate, ec)) {
        tried.push_back(display);
        continue;
      }
      if (!stays_inside(candidate, root)) {
        return error_at_caller(L, "require: '%s' (%s) leads outside the provider directory",
                               name.c_str(), display.c_str());
      }
      std::string error;
      if (!load_script_file(L, candidate, display, error)) {
        // The message says which line asked for the broken module.
        return error_at_caller(L, "error loading module '%s' from '%s':\n\t%s", name.c_str(),
                               display.c_str(), error.c_str());
      }
      if (is_sdk_module(name)) freeze_when_loaded(L, name);
      lua_pushstring(L, display.c_str());
      return 2;
    }
  }
  if (const EmbeddedModule* module = find_embedded(lua_tostring(L, 1))) {
    load_embedded(L, *module);
    freeze_when_loaded(L, name);
    lua_pushliteral(L, ":embedded:");
    return 2;
  }
  std::string message;
  for (const auto& file : tried) {
    if (!message.empty()) message += "\n\t";
    message += "no file '" + file + "'";
  }
  lua_pushstring(L, message.c_str());
  return 1;
}

// The directories require() searches, in order.
std::vector<fs::path> search_roots(const ScriptSet& scripts) {
  std::vector<fs::path> roots;
  if (scripts.sdk_directory) roots.push_back(*scripts.sdk_directory);
  roots.push_back(scripts.directory);
  return roots;
}

}  // namespace

std::string display_name(const fs::path& file, const fs::path& directory) {
  const fs::path relative =
      file.lexically_normal().lexically_relative(directory.lexically_normal());
  if (relative.empty() || *relative.begin() == "..") return file.string();
  return relative.string();
}

bool load_script_file(lua_State* L, const fs::path& file, const std::string& display,
                      std::string& error) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    error = display + ": cannot open: " + std::strerror(errno);
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    error = display + ": cannot read: " + std::strerror(errno);
    return false;
  }
  const std::string source = text.str();
  const std::string chunkname = "@" + display;
  if (luaL_loadbufferx(L, source.data(), source.size(), chunkname.c_str(), "t") != LUA_OK) {
    error = error_message(L);
    lua_pop(L, 1);
    return false;
  }
  return true;
}

void install_module_loader(lua_State* L, const ScriptSet& scripts) {
  const std::vector<fs::path> roots = search_roots(scripts);
  lua_getglobal(L, LUA_LOADLIBNAME);
  const int package = lua_gettop(L);

  // package.path documents where require looks; the searcher below uses its own fixed copy
  // so that a script cannot widen it.
  std::string path;
  for (const auto& root : roots) {
    if (!path.empty()) path += ';';
    path += (root / "?.lua").string() + ";" + (root / "?" / "init.lua").string();
  }
  lua_pushstring(L, path.c_str());
  lua_setfield(L, package, "path");
  lua_pushliteral(L, "");
  lua_setfield(L, package, "cpath");
  lua_pushnil(L);
  lua_setfield(L, package, "loadlib");

  // searchers = { the standard preload searcher, ours }: no C loaders.
  lua_getfield(L, package, "searchers");
  lua_createtable(L, 2, 0);
  lua_rawgeti(L, -2, 1);
  lua_rawseti(L, -2, 1);
  lua_createtable(L, static_cast<int>(roots.size()), 0);
  for (size_t i = 0; i < roots.size(); ++i) {
    lua_pushstring(L, roots[i].string().c_str());
    lua_rawseti(L, -2, static_cast<lua_Integer>(i) + 1);
  }
  lua_pushstring(L, scripts.directory.string().c_str());
  lua_pushcclosure(L, guarded<search_module>, 2);
  lua_rawseti(L, -2, 2);
  lua_setfield(L, package, "searchers");
  lua_pop(L, 1);  // the old searchers

  // Native modules are always preloaded. Without an override directory the embedded SDK is
  // preloaded too, so nothing shadows it.
  const std::pair<const char*, lua_CFunction> native_modules[] = {
      {"luaform_json", open_json_module},
      {"luaform_http", open_http_module},
      {"luaform_diagnostics", open_diagnostics_module},
      {"luaform_encoding", open_encoding_module},
      {"luaform_exec", open_exec_module},
      {"luaform_fs", open_fs_module},
      {"luaform_log", open_log_module},
      {"luaform_time", open_time_module},
      {"luaform_values", open_values_module},
      {"socket", open_socket_module},
      {"mime", open_mime_module},
      {"ssl", open_ssl_module},
      {"openssl.digest", open_openssl_digest_module},
      {"openssl.hmac", open_openssl_hmac_module},
      {"openssl.kdf", open_openssl_kdf_module},
      {"openssl.rand", open_openssl_rand_module},
      {"openssl.x509", open_openssl_x509_module},
      {"socket.unix", open_socket_unix_module},
      {"lpeg", open_lpeg_module},
  };
  lua_getfield(L, package, "preload");
  for (const auto& [name, open] : native_modules) {
    lua_pushcfunction(L, open);
    freeze_when_loaded(L, name);
    lua_setfield(L, -2, name);
  }
  // The documents module reads from the provider directory, which its opener holds.
  push_document_module_opener(L, scripts.directory);
  freeze_when_loaded(L, "luaform_documents");
  lua_setfield(L, -2, "luaform_documents");
  lua_pushinteger(L, scripts.served_protocol);
  lua_pushcclosure(L, open_served_module, 1);
  freeze_when_loaded(L, "luaform_served");
  lua_setfield(L, -2, "luaform_served");
  lua_pop(L, 1);
  if (!scripts.sdk_directory) {
    lua_getfield(L, package, "preload");
    for (const auto& module : embedded_sdk_modules()) {
      const std::string name(module.name);
      lua_pushstring(L, name.c_str());
      lua_pushcclosure(L, guarded<preload_embedded>, 1);
      lua_setfield(L, -2, name.c_str());
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);  // package
}

}  // namespace luaform::lua
