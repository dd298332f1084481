#include "host/lua/testing/test_runner.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include "host/lua/core/call_context.h"
#include "host/lua/core/guarded.h"
#include "host/lua/core/sandbox.h"
#include "host/lua/modules/module_loader.h"
#include "host/lua/testing/testing_module.h"

namespace luaform::lua {
namespace {

namespace fs = std::filesystem;

bool is_test_file(const fs::path& p) {
  const std::string name = p.filename().string();
  return name.size() > 9 && name.ends_with("_test.lua");
}

// The test files named by `paths` (files, or directories searched recursively), in order.
std::vector<fs::path> test_files(const ScriptSet& scripts, const std::vector<std::string>& paths,
                                 std::ostream& err) {
  std::vector<fs::path> roots(paths.begin(), paths.end());
  if (roots.empty()) roots.push_back(scripts.directory / "tests");
  std::vector<fs::path> files;
  for (const auto& root : roots) {
    std::error_code ec;
    if (fs::is_regular_file(root, ec)) {
      files.push_back(root);
      continue;
    }
    if (!fs::is_directory(root, ec)) {
      err << "error: " << root.string() << ": no such test file or directory\n";
      continue;
    }
    std::vector<fs::path> found;
    for (auto it = fs::recursive_directory_iterator(root, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_regular_file(ec) && is_test_file(it->path())) found.push_back(it->path());
    }
    std::sort(found.begin(), found.end());
    if (found.empty()) err << "error: no test files (*_test.lua) in " << root.string() << "\n";
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

// Test files are the author's own code run by the author: unlike provider scripts they get
// the whole io and os libraries (files, commands for acceptance tests).
void open_test_libraries(lua_State* L) {
  const std::pair<const char*, lua_CFunction> libraries[] = {{LUA_IOLIBNAME, luaopen_io},
                                                             {LUA_OSLIBNAME, luaopen_os}};
  for (const auto& [name, open] : libraries) {
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    lua_pushnil(L);
    lua_setfield(L, -2, name);
    lua_pop(L, 1);
    luaL_requiref(L, name, open, 1);
    lua_pop(L, 1);
  }
}

void run_file(const ScriptSet& scripts, const fs::path& file, std::ostream& out,
              TestTotals& totals) {
  const std::string display = display_name(file, scripts.directory);
  out << display << "\n";
  out.flush();
  RunLimits limits;
  CallContext context;
  StatePtr state = new_sandboxed_state(&limits);
  lua_State* L = state.get();
  set_call_context(L, &context);
  int passed = 0;
  int failed = 0;
  int skipped = 0;
  auto failure = protected_run(L, [&](lua_State* S) {
    open_test_libraries(S);
    install_module_loader(S, scripts);
    preload_testing_module(S, &scripts);
    std::string error;
    if (!load_script_file(S, file, display, error)) throw std::runtime_error(error);
    lua_call(S, 0, 0);
    lua_getglobal(S, "require");
    lua_pushliteral(S, "luaform_testing");
    lua_call(S, 1, 1);
    lua_getfield(S, -1, "run_registered");
    lua_call(S, 0, 3);
    passed = static_cast<int>(lua_tointeger(S, -3));
    failed = static_cast<int>(lua_tointeger(S, -2));
    skipped = static_cast<int>(lua_tointeger(S, -1));
  });
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
  if (failure) {
    out << "  FAIL  " << display << " did not run: " << *failure << "\n";
    ++totals.failed;
  }
}

}  // namespace

TestTotals run_tests(const ScriptSet& scripts, const std::vector<std::string>& paths,
                     std::ostream& out, std::ostream& err) {
  TestTotals totals;
  const auto files = test_files(scripts, paths, err);
  if (files.empty()) {
    ++totals.failed;
    return totals;
  }
  for (const auto& file : files) run_file(scripts, file, out, totals);
  out << totals.passed << " passed, " << totals.failed << " failed, " << totals.skipped
      << " skipped\n";
  return totals;
}

}  // namespace luaform::lua
