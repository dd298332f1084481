#include "host/commands/discovery.h"

#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "host/platform/platform.h"

namespace luaform {
namespace fs = std::filesystem;

namespace {

const std::string kPrefix = "terraform-provider-";

// The kinds of script a provider directory holds, by file name prefix.
struct ScriptKind {
  std::string_view prefix;
  std::map<std::string, fs::path> lua::ScriptSet::*scripts;
  bool typed;  // registered as PROVIDER_rest (a type name), else as rest (a function name)
};
constexpr ScriptKind kScriptKinds[] = {
    {"resource_", &lua::ScriptSet::resources, true},
    {"data_source_", &lua::ScriptSet::data_sources, true},
    {"ephemeral_", &lua::ScriptSet::ephemeral_resources, true},
    {"function_", &lua::ScriptSet::functions, false},
    {"list_", &lua::ScriptSet::list_resources, true},
    {"action_", &lua::ScriptSet::actions, true},
    {"state_store_", &lua::ScriptSet::state_stores, true},
};
constexpr std::string_view kLuaSuffix = ".lua";

// The kind of script the file `file` is (resource_server.lua: a resource), or null.
const ScriptKind* script_kind(std::string_view file) {
  if (!file.ends_with(kLuaSuffix)) return nullptr;
  for (const auto& kind : kScriptKinds) {
    if (file.starts_with(kind.prefix) && file.size() > kind.prefix.size() + kLuaSuffix.size()) {
      return &kind;
    }
  }
  return nullptr;
}

bool has_scripts(const fs::path& dir) {
  std::error_code ec;
  if (fs::exists(dir / "provider.lua", ec)) return true;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (script_kind(entry.path().filename().string()) != nullptr) return true;
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
  fs::path self = platform::executable_path();
  return self.empty() ? fs::path(arg) : self;
}

lua::ScriptSet locate_provider(const fs::path& invoked) {
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
  return set;
}

lua::ScriptSet list_scripts(const lua::ScriptSet& located) {
  lua::ScriptSet set = located;
  std::error_code ec;
  if (fs::exists(set.directory / "provider.lua", ec))
    set.provider_script = set.directory / "provider.lua";
  if (fs::is_directory(set.directory / "lua-sdk", ec))
    set.sdk_directory = set.directory / "lua-sdk";
  for (const auto& entry : fs::directory_iterator(set.directory, ec)) {
    const std::string file = entry.path().filename().string();
    const ScriptKind* kind = script_kind(file);
    if (kind == nullptr) continue;
    // resource_server.lua is "example_server"; function_parse_arn.lua is "parse_arn".
    const std::string rest =
        file.substr(kind->prefix.size(), file.size() - kind->prefix.size() - kLuaSuffix.size());
    (set.*kind->scripts)[kind->typed ? set.provider_name + "_" + rest : rest] = entry.path();
  }
  return set;
}

}  // namespace luaform
