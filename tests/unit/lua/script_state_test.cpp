// Loading scripts: every problem is a load diagnostic naming the script, and its detail carries
// "file:line: message" wherever Lua knows the line.
#include "host/lua/script_state.h"

#include <doctest/doctest.h>

#include "provider_dir.h"

using namespace luaform;
using namespace luaform::lua::testing;

namespace {

const char* kGoodResource = R"(
local tf = require("luaform")
return tf.resource {
  schema = { name = tf.string { required = true } },
  create = function(d) d:set_id("x") end, read = function() end, delete = function() end,
}
)";

// The one diagnostic about `script`, which must exist.
engine::Diagnostic only_error(const engine::ProviderLogic& logic) {
  const auto& items = logic.load_diagnostics().items();
  REQUIRE_MESSAGE(items.size() == 1, all_text(logic.load_diagnostics()));
  CHECK(items[0].severity == engine::Severity::Error);
  return items[0];
}

}  // namespace

TEST_CASE("a syntax error names the script in the summary and file:line in the detail") {
  ProviderDir dir;
  dir.write("resource_good.lua", kGoodResource);
  dir.write("resource_bad.lua",
            "local tf = require('luaform')\n\nreturn tf.resource {\n  schema = ,\n}\n");
  auto logic = dir.load();
  auto d = only_error(*logic);
  CHECK(d.summary.find("resource_bad.lua") != std::string::npos);
  CHECK(d.detail.find("resource_bad.lua:4:") == 0);
  SUBCASE("and the other scripts still load") {
    CHECK(logic->schema().resources.count("test_good") == 1);
    CHECK(logic->schema().resources.count("test_bad") == 0);
  }
}

TEST_CASE("a runtime error while loading points at the script line") {
  ProviderDir dir;
  dir.write("data_source_boom.lua", "local x = nil\nlocal y = x.field\nreturn y\n");
  auto d = only_error(*dir.load());
  CHECK(d.detail.find("data_source_boom.lua:2: attempt to index") == 0);
}

TEST_CASE("a misspelt option is reported at the line of the attribute") {
  ProviderDir dir;
  dir.write("resource_typo.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = {
    name = tf.string { requried = true },
  },
  create = function() end, read = function() end, delete = function() end,
}
)");
  auto d = only_error(*dir.load());
  CHECK(d.detail.find("resource_typo.lua:4: tf.string: unknown option \"requried\"") == 0);
}

TEST_CASE("an attribute that is none of required, optional or computed is a load error") {
  ProviderDir dir;
  dir.write("resource_flags.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = { name = tf.string { description = "no flags" } },
  create = function() end, read = function() end, delete = function() end,
}
)");
  auto d = only_error(*dir.load());
  CHECK(d.detail.find("resource_flags.lua:3:") == 0);
  CHECK(d.detail.find("set one of required, optional or computed") != std::string::npos);
}

TEST_CASE("declaring id is a load error") {
  ProviderDir dir;
  dir.write("resource_id.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = { id = tf.string { computed = true } },
  create = function() end, read = function() end, delete = function() end,
}
)");
  auto d = only_error(*dir.load());
  // `return tf.resource {...}` is a tail call: Lua no longer knows the line, only the file.
  CHECK(d.detail.find("resource_id.lua: tf.resource: attribute \"id\" is reserved") == 0);
}

TEST_CASE("a resource without a required function is a load error") {
  ProviderDir dir;
  dir.write("resource_nodelete.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = {},
  create = function() end, read = function() end,
}
)");
  auto d = only_error(*dir.load());
  CHECK(d.detail == "resource_nodelete.lua: tf.resource: a delete function is required");
}

TEST_CASE("a default of the wrong type is a load error") {
  ProviderDir dir;
  dir.write("resource_default.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = { size = tf.number { optional = true, default = "big" } },
  create = function() end, read = function() end, delete = function() end,
}
)");
  auto d = only_error(*dir.load());
  CHECK(d.detail.find("resource_default.lua:3: tf.number: default must be a number") == 0);
}

TEST_CASE("a script that returns the wrong thing is a load error saying what it returned") {
  ProviderDir dir;
  SUBCASE("nothing") {
    dir.write("resource_empty.lua", "-- nothing here\n");
  }
  SUBCASE("a data source from a resource script") {
    dir.write("resource_empty.lua",
              "local tf = require('luaform')\nreturn tf.data_source { read = function() end }\n");
  }
  auto d = only_error(*dir.load());
  CHECK(d.summary.find("resource_empty.lua") != std::string::npos);
  CHECK(d.detail.find("resource_empty.lua: the script must return tf.resource { ... }") == 0);
}

TEST_CASE("a hand-built table is checked by the host as well as by the SDK") {
  ProviderDir dir;
  dir.write("resource_raw.lua", R"(
return { kind = "resource", schema = { name = { kind = "attribute", type = { name = "string" } } },
         create = function() end, read = function() end, delete = function() end }
)");
  auto d = only_error(*dir.load());
  CHECK(d.detail ==
        "resource_raw.lua: attribute \"name\": set one of required, optional or computed");
}

TEST_CASE("has_update and importable follow the functions a resource declares") {
  ProviderDir dir;
  dir.write("resource_full.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = {},
  create = function() end, read = function() end, update = function() end,
  delete = function() end, import = tf.import_by_id,
}
)");
  dir.write("resource_plain.lua", kGoodResource);
  auto logic = dir.load();
  CHECK(logic->has_update("test_full"));
  CHECK(logic->importable("test_full"));
  CHECK_FALSE(logic->has_update("test_plain"));
  CHECK_FALSE(logic->importable("test_plain"));
}
