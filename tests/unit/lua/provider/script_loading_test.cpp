// Loading: the types provider.lua declares in `types` are served like those of script files; a
// broken one leaves out only itself; a script file of the same type replaces it.
#include <doctest/doctest.h>

#include "provider_dir.h"

using namespace luaform;
using namespace luaform::lua::testing;

namespace {

const char* kDeclaring = R"(local tf = require("luaform")
local function thing(extra)
  return tf.resource {
    schema = { name = tf.string { required = true, force_new = true }, [extra] = tf.string {
      optional = true } },
    create = function(d) d:set_id(d:get("name")) end,
    read = function() end,
    delete = function() end,
  }
end
return tf.provider {
  types = {
    resources = { thing = thing("colour"), other = thing("size") },
    data_sources = {
      look = tf.data_source { schema = { seen = tf.string { computed = true } },
        read = function(d) d:set_id("x") end },
    },
  },
}
)";

}  // namespace

TEST_CASE("provider.lua's types are served as PROVIDER_name") {
  ProviderDir dir;
  dir.write("provider.lua", kDeclaring);
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  const auto& schema = logic->schema();
  REQUIRE(schema.resources.contains("test_thing"));
  CHECK(schema.resources.at("test_thing").block.find_attribute("colour") != nullptr);
  CHECK(schema.resources.at("test_other").block.find_attribute("size") != nullptr);
  CHECK(schema.data_sources.contains("test_look"));
}

TEST_CASE("a script file replaces the declared type of its name") {
  ProviderDir dir;
  dir.write("provider.lua", kDeclaring);
  dir.write("resource_thing.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = { mine = tf.string { optional = true } },
  create = function(d) d:set_id("x") end, read = function() end, delete = function() end,
}
)");
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  const auto& block = logic->schema().resources.at("test_thing").block;
  CHECK(block.find_attribute("mine") != nullptr);
  CHECK(block.find_attribute("colour") == nullptr);
}

TEST_CASE("a declared type that does not load leaves out only itself, named in the warning") {
  ProviderDir dir;
  std::string text = kDeclaring;
  // A listing whose timeout is no duration: the host refuses it as it reads the definition.
  text.replace(text.find("    data_sources = {"), 0, R"(    list_resources = {
      thing = tf.list_resource { timeout = "soon", list = function() end },
    },
)");
  dir.write("provider.lua", text);
  auto logic = dir.load();
  const std::string problems = all_text(logic->load_diagnostics());
  CHECK(problems.find("Cannot load provider.lua (types.list_resources.thing): test_thing is "
                      "left out") != std::string::npos);
  CHECK(problems.find("timeout must be a duration") != std::string::npos);
  CHECK(logic->schema().resources.contains("test_thing"));
  CHECK(logic->schema().data_sources.contains("test_look"));
}

TEST_CASE("types that are not definitions are refused, naming the entry") {
  ProviderDir dir;
  dir.write("provider.lua", R"(local tf = require("luaform")
return tf.provider {
  types = { resources = { thing = { schema = {} } } },
}
)");
  auto logic = dir.load();
  CHECK(all_text(logic->load_diagnostics())
            .find("tf.provider: types.resources.thing must be a tf.resource { ... }") !=
        std::string::npos);
}
