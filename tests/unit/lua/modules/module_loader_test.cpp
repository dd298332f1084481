// require(): the provider's own modules, the SDK override directory, and file names in messages.
#include "host/lua/modules/module_loader.h"

#include <doctest/doctest.h>

#include "provider_dir.h"

using namespace luaform;
using namespace luaform::lua::testing;

namespace {

engine::Diagnostic only_error(const engine::ProviderLogic& logic) {
  const auto& items = logic.load_diagnostics().items();
  REQUIRE_MESSAGE(items.size() == 1, all_text(logic.load_diagnostics()));
  return items[0];
}

}  // namespace

TEST_CASE("require finds the provider's own modules, with file names relative to it") {
  ProviderDir dir;
  dir.write("lib/util.lua",
            "local M = {}\nfunction M.twice(s) return s .. s end\n"
            "function M.fail() error('from util') end\nreturn M\n");
  dir.write("lib/pkg/init.lua", "return { name = 'pkg' }\n");
  dir.write("resource_req.lua", R"(local tf = require("luaform")
local util = require("lib.util")
local pkg = require("lib.pkg")
return tf.resource {
  schema = { name = tf.string { optional = true } },
  create = function(d) d:set_id(util.twice(pkg.name)) end,
  read = function() util.fail() end,
  delete = function() end,
}
)");
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  Instance r(*logic, "test_req");
  engine::ResourceData d(r.schema, r.null(), r.null(), r.null());
  CHECK_FALSE(logic->open_session()->call(engine::Operation::Create, "test_req", d).has_errors());
  CHECK(d.id() == "pkgpkg");
  auto diags = logic->open_session()->call(engine::Operation::Read, "test_req", d);
  REQUIRE(diags.has_errors());
  CHECK(as_raised(diags.items()[0]) == "lib/util.lua:3: from util");
}

TEST_CASE("require of a missing module lists where it looked") {
  ProviderDir dir;
  dir.write("resource_missing.lua", "local x = require('lib.nothere')\nreturn x\n");
  auto d = only_error(*dir.load());
  CHECK(d.detail.find("resource_missing.lua:1: module 'lib.nothere' not found") == 0);
  CHECK(d.detail.find("no file 'lib/nothere.lua'") != std::string::npos);
}

TEST_CASE("a lua-sdk directory beside the scripts overrides the embedded SDK") {
  ProviderDir dir;
  dir.write("lua-sdk/luaform.lua", R"(return {
  resource = function(t) t.kind = "resource"; t.schema = { marker = { kind = "attribute",
    type = { name = "string" }, computed = true } }; return t end,
})");
  dir.write("resource_over.lua",
            "return require('luaform').resource { create = function() end }\n");
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  CHECK(logic->schema().resources.at("test_over").block.find_attribute("marker") != nullptr);
}

TEST_CASE("a lua-sdk directory without luaform.lua still gets the embedded SDK") {
  ProviderDir dir;
  dir.write("lua-sdk/extra.lua", "return { answer = 42 }\n");
  dir.write("resource_mix.lua", R"(local tf = require("luaform")
local extra = require("extra")
return tf.resource {
  schema = { n = tf.number { optional = true, default = extra.answer } },
  create = function() end, read = function() end, delete = function() end,
}
)");
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  CHECK(logic->schema().resources.at("test_mix").block.find_attribute("n")->default_value ==
        engine::Value::number(42));
}

TEST_CASE("a lua-sdk directory may override one internal part of the embedded luaform") {
  ProviderDir dir;
  // The embedded luaform.lua assembles tf.func from luaform_functions, found here first.
  dir.write("lua-sdk/luaform_functions.lua", "return { func = function() return 42 end }\n");
  dir.write("resource_part.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = { n = tf.number { optional = true, default = tf.func() } },
  create = function() end, read = function() end, delete = function() end,
}
)");
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  CHECK(logic->schema().resources.at("test_part").block.find_attribute("n")->default_value ==
        engine::Value::number(42));
}

TEST_CASE("a syntax error in a required module names that module's file and line") {
  ProviderDir dir;
  dir.write("lib/broken.lua", "local M = {}\nfunction M.f(\nreturn M\n");
  dir.write("resource_user.lua", "local broken = require('lib.broken')\nreturn broken\n");
  auto d = only_error(*dir.load());
  CHECK(d.summary == "Cannot load resource_user.lua: test_user is left out");
  CHECK(d.detail.find("resource_user.lua:1: error loading module 'lib.broken' from "
                      "'lib/broken.lua':\n\tlib/broken.lua:3:") == 0);
}

TEST_CASE("require refuses names that would reach outside the provider directory") {
  ProviderDir outside;
  outside.write("x.lua", "return 'escaped'\n");
  const std::string target = (outside.path() / "x").string();
  for (const std::string& name : {target, std::string("..........tmp.x"), std::string("lib..x"),
                                  std::string("lib/x"), std::string(".x"), std::string("x.")}) {
    ProviderDir dir;
    dir.write("resource_escape.lua", "local x = require('" + name + "')\nreturn x\n");
    auto d = only_error(*dir.load());
    CAPTURE(name);
    CHECK(d.detail.find("resource_escape.lua:1: require: '" + name + "' is not a module name") ==
          0);
  }
}

TEST_CASE("require refuses a module that a link takes outside the provider directory") {
  ProviderDir outside;
  outside.write("secret.lua", "return 'escaped'\n");
  ProviderDir dir;
  std::filesystem::create_directories(dir.path() / "lib");
  std::filesystem::create_symlink(outside.path() / "secret.lua", dir.path() / "lib" / "x.lua");
  dir.write("resource_link.lua", "local x = require('lib.x')\nreturn x\n");
  auto d = only_error(*dir.load());
  CHECK(d.detail.find("require: 'lib.x' (lib/x.lua) leads outside the provider directory") !=
        std::string::npos);
}
