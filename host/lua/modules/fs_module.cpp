#include "host/lua/modules/fs_module.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/lua/core/guarded.h"
#include "host/platform/platform.h"

namespace luaform::lua {
namespace {

[[noreturn]] void fail(const char* what, const std::string& path, int error) {
  throw std::runtime_error(std::string(what) + " " + path + ": " + std::strerror(error));
}

// "0644", "644" or "1777": permission bits (with setuid, setgid and sticky), as an octal string.
mode_t mode_of(lua_State* L, int index) {
  const std::string text = luaL_checkstring(L, index);
  const bool octal =
      !text.empty() && text.size() <= 5 && text.find_first_not_of("01234567") == std::string::npos;
  const unsigned long value = octal ? std::stoul(text, nullptr, 8) : 0;
  if (!octal || value > 07777) {
    throw std::runtime_error("\"" + text + "\" is not a file mode such as \"0644\" or \"0755\"");
  }
  return static_cast<mode_t>(value);
}

[[maybe_unused]] std::string mode_text(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

int stat_path(lua_State* L) {
  const std::string path = luaL_checkstring(L, 1);
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) {
      lua_pushnil(L);
      return 1;
    }
    fail("stat", path, errno);
  }
  lua_createtable(L, 0, 3);
  const char* type = S_ISREG(info.st_mode) ? "file" : S_ISDIR(info.st_mode) ? "directory" : "other";
  lua_pushstring(L, type);
  lua_setfield(L, -2, "type");
#if !defined(_WIN32)
  // Windows has no permission bits to report (its st_mode is made up from the read-only flag).
  lua_pushstring(L, mode_text(info.st_mode).c_str());
  lua_setfield(L, -2, "mode");
#endif
  lua_pushinteger(L, static_cast<lua_Integer>(info.st_size));
  lua_setfield(L, -2, "size");
  lua_pushinteger(L, static_cast<lua_Integer>(info.st_mtime));
  lua_setfield(L, -2, "modified");
  return 1;
}

int change_mode(lua_State* L) {
  const std::string path = luaL_checkstring(L, 1);
  const mode_t mode = mode_of(L, 2);
  if (::chmod(path.c_str(), mode) != 0) fail("chmod", path, errno);
  return 0;
}

// Creates `path` (not its parents) with exactly `mode`; true when it was created, false when a
// directory is already there.
bool make_one(const std::string& path, mode_t mode) {
  if (platform::make_directory(path.c_str(), mode) != 0) {
    const int error = errno;
    struct stat info {};
    if (error == EEXIST && ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) {
      return false;
    }
    fail("mkdir", path, error);
  }
  // mkdir's mode passes through the umask; the configured mode is what was asked for.
  if (::chmod(path.c_str(), mode) != 0) fail("chmod", path, errno);
  return true;
}

int make_directory(lua_State* L) {
  std::string path = luaL_checkstring(L, 1);
  const mode_t mode = mode_of(L, 2);
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  if (path.empty()) throw std::runtime_error("mkdir: the path is empty");
  // Each missing parent, from the top down.
  for (size_t slash = path.find('/', 1); slash != std::string::npos;
       slash = path.find('/', slash + 1)) {
    if (path[slash - 1] == '/') continue;
    make_one(path.substr(0, slash), mode);
  }
  make_one(path, mode);
  return 0;
}

// The names in a directory (not "." and ".."), sorted, so a listing reads the same every time.
int list_directory(lua_State* L) {
  const std::string path = luaL_checkstring(L, 1);
  std::error_code error;
  std::vector<std::string> names;
  for (std::filesystem::directory_iterator it(path, error), end; !error && it != end;
       it.increment(error)) {
    names.push_back(it->path().filename().string());
  }
  if (error) fail("list", path, error.value());
  std::sort(names.begin(), names.end());
  lua_createtable(L, static_cast<int>(names.size()), 0);
  lua_Integer index = 0;
  for (const std::string& name : names) {
    lua_pushlstring(L, name.data(), name.size());
    lua_rawseti(L, -2, ++index);
  }
  return 1;
}

int remove_directory(lua_State* L) {
  const std::string path = luaL_checkstring(L, 1);
  if (::rmdir(path.c_str()) != 0) fail("rmdir", path, errno);
  return 0;
}

}  // namespace

int open_fs_module(lua_State* L) {
  const luaL_Reg functions[] = {
      {"stat", guarded<stat_path>},       {"chmod", guarded<change_mode>},
      {"mkdir", guarded<make_directory>}, {"rmdir", guarded<remove_directory>},
      {"list", guarded<list_directory>},  {nullptr, nullptr}};
  luaL_newlib(L, functions);
  return 1;
}

}  // namespace luaform::lua
