// `terraform-provider-NAME --test [PATH...]`: runs the provider's Lua test files (each
// `*_test.lua` under the given files and directories; by default the `tests/` directory beside
// the scripts), each in a state of its own, and reports every test they register through
// `require("luaform_testing")`.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "host/lua/core/script_set.h"

namespace luaform::lua {

struct TestTotals {
  int passed = 0;
  int failed = 0;  // failed tests, and test files that could not run
  int skipped = 0;
};

// Runs the tests, writing a line per test to `out` and problems with the files to `err`.
TestTotals run_tests(const ScriptSet& scripts, const std::vector<std::string>& paths,
                     std::ostream& out, std::ostream& err);

}  // namespace luaform::lua
