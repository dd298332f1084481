// What a script can and cannot reach (documented in lua-sdk/README.md, "The sandbox").
#include "host/lua/sandbox.h"

#include <doctest/doctest.h>

#include "provider_dir.h"

using namespace luaform;
using namespace luaform::lua::testing;

TEST_CASE("dangerous functions are absent") {
  CHECK(evaluate("os.execute") == "nil");
  CHECK(evaluate("os.exit") == "nil");
  CHECK(evaluate("io.popen") == "nil");
  CHECK(evaluate("io.read") == "nil");
  CHECK(evaluate("io.write") == "nil");
  CHECK(evaluate("debug") == "nil");
  CHECK(evaluate("dofile") == "nil");
  CHECK(evaluate("loadfile") == "nil");
  CHECK(evaluate("package.loadlib") == "nil");
  CHECK(evaluate("require('os').execute") == "nil");
}

TEST_CASE("the libraries a provider needs are there") {
  CHECK(evaluate(
            "string.format('%d', 3) .. table.concat({'a'}) .. math.floor(2.5) .. utf8.char(72)") ==
        "3a2H");
  CHECK(evaluate("type(os.time()) .. type(os.date('%Y')) .. type(os.clock())") ==
        "numberstringnumber");
  CHECK(evaluate("type(os.getenv('PATH'))") == "string");
  CHECK(evaluate("type(os.remove) .. type(os.rename) .. type(io.open) .. type(io.lines)") ==
        "functionfunctionfunctionfunction");
}

TEST_CASE("files can be written, read back, renamed and removed") {
  ProviderDir scratch;
  const std::string base = scratch.path().string();
  CHECK(evaluate("(function() local f = assert(io.open('" + base +
                 "/a', 'w')) f:write('hi') f:close() assert(os.rename('" + base + "/a', '" + base +
                 "/b')) local g = assert(io.open('" + base +
                 "/b')) local s = g:read('a') g:close() assert(os.remove('" + base +
                 "/b')) return s end)()") == "hi");
}

TEST_CASE("io.lines needs a file name: it cannot read the plugin's stdin") {
  CHECK(evaluate("io.lines()").find("bad argument #1 to 'lines'") != std::string::npos);
}

TEST_CASE("load accepts source text but not precompiled chunks") {
  CHECK(evaluate("load('return 1 + 1')()") == "2");
  CHECK(evaluate("select(2, load(string.dump(function() return 1 end)))")
            .find("attempt to load a binary chunk") != std::string::npos);
}
