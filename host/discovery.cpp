#include "host/discovery.h"

#include <cstdlib>
#include <system_error>
#include <vector>

namespace luaform {
namespace fs = std::filesystem;

namespace {

const std::string kPrefix = "terraform-provider-";

bool has_scripts(const fs::path& dir) {
  std::error_code ec;
  if (fs::exists(dir / "provider.lua", ec)) return true;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.ends_with(".lua") &&
        (name.starts_with("resource_") || name.starts_with("data_source_") ||
         name.starts_with("ephemeral_") || name.starts_with("function_")))
      return true;
  }
  return false;
}

// The directories to look in: the invoked path's, then each symlink target's in turn.
std::vector<fs::path> candidate_directories(const fs::path& invoked) {
  std::vector<fs::path> dirs;
  std::error_code ec;
  fs::path current = fs::absolute(invoked, ec);
  for (int hops = 0; hops < 16; ++hops) {
    dirs.push_back(current.parent_path());
    if (!fs::is_symlink(current, ec)) break;
    fs::path target = fs::read_symlink(current, ec);
    if (ec) break;
    current = target.is_absolute() ? target : current.parent_path() / target;
  }
  fs::path resolved = fs::canonical(invoked, ec);
  if (!ec) dirs.push_back(resolved.parent_path());
  return dirs;
}

// Registers `dir`'s scripts whose file names start with `prefix` under `name_prefix` + the
// rest of the name: resource_server.lua as "example_server", function_parse.lua as "parse".
void collect(const fs::path& dir, const std::string& prefix, const std::string& name_prefix,
             std::map<std::string, fs::path>& out) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string file = entry.path().filename().string();
    if (!file.starts_with(prefix) || !file.ends_with(".lua")) continue;
    const std::string rest = file.substr(prefix.size(), file.size() - prefix.size() - 4);
    if (rest.empty()) continue;
    out[name_prefix + rest] = entry.path();
  }
}

}  // namespace

std::string provider_name_from_file(const std::string& file_name) {
  if (!file_name.starts_with(kPrefix)) return "";
  std::string name = file_name.substr(kPrefix.size());
  if (auto version = name.find("_v"); version != std::string::npos) name.resize(version);
  if (auto dot = name.find('.'); dot != std::string::npos) name.resize(dot);
  return name;
}

fs::path invoked_path(const char* argv0) {
  std::string arg = argv0 ? argv0 : "";
  if (arg.find('/') != std::string::npos) return fs::path(arg);
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path(arg) : self;
}

lua::ScriptSet discover_scripts(const fs::path& invoked) {
  lua::ScriptSet set;
  set.provider_name = provider_name_from_file(invoked.filename().string());
  if (const char* name = std::getenv("LUAFORM_PROVIDER_NAME"); name && *name) {
    set.provider_name = name;
  }
  std::vector<fs::path> dirs = candidate_directories(invoked);
  if (const char* dir = std::getenv("LUAFORM_PROVIDER_DIR"); dir && *dir) {
    dirs.insert(dirs.begin(), fs::path(dir));
  }
  set.directory = dirs.empty() ? fs::current_path() : dirs.front();
  for (const auto& dir : dirs) {
    if (has_scripts(dir)) {
      set.directory = dir;
      break;
    }
  }
  if (set.provider_name.empty()) set.provider_name = set.directory.filename().string();

  std::error_code ec;
  if (fs::exists(set.directory / "provider.lua", ec))
    set.provider_script = set.directory / "provider.lua";
  if (fs::is_directory(set.directory / "lua-sdk", ec))
    set.sdk_directory = set.directory / "lua-sdk";
  collect(set.directory, "resource_", set.provider_name + "_", set.resources);
  collect(set.directory, "data_source_", set.provider_name + "_", set.data_sources);
  collect(set.directory, "ephemeral_", set.provider_name + "_", set.ephemeral_resources);
  collect(set.directory, "function_", "", set.functions);
  return set;
}

}  // namespace luaform
