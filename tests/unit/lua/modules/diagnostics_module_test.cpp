// tf.fail and tf.warn: diagnostics with a summary, a detail and the attribute they are about.
#include "host/lua/modules/diagnostics_module.h"

#include <doctest/doctest.h>

#include "provider_dir.h"

using namespace luaform::lua::testing;
using luaform::engine::AttributeName;
using luaform::engine::AttributePath;
using luaform::engine::ElementIndex;
using luaform::engine::Operation;
using luaform::engine::Severity;

namespace {

constexpr const char* kServer = R"(local tf = require("luaform")
return tf.resource {
  schema = {
    name = tf.string { required = true },
    disk = tf.list_block { schema = { size = tf.number { required = true } } },
  },
  create = function(d)
    d:set_id("s1")
    tf.warn { summary = "size rounded up", detail = "the API sells 10 GB steps", path = "disk.0.size" }
    if d:get("name") == "taken" then
      tf.fail { summary = "Name already taken", detail = "pick another name", path = "name" }
    end
    if d:get("name") == "plain" then tf.fail("the API said no") end
    if d:get("name") == "caught" then
      pcall(tf.fail, { summary = "swallowed", path = "name" })
      error("a later error")
    end
  end,
  read = function() end, delete = function() end,
}
)";

luaform::engine::Diagnostics create(const std::string& name) {
  ProviderDir dir;
  dir.write("resource_server.lua", kServer);
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  Instance i(*logic, "test_server");
  const luaform::engine::Value config = i.object({{"name", luaform::engine::Value::string(name)}});
  luaform::engine::ResourceData d(i.schema, i.null(), config, config);
  return logic->open_session()->call(Operation::Create, "test_server", d);
}

}  // namespace

TEST_CASE("tf.fail ends the operation with its summary, a detail at the line, and the path") {
  const auto diags = create("taken");
  REQUIRE(diags.items().size() == 2);
  const auto& warning = diags.items()[0];
  CHECK(warning.severity == Severity::Warning);
  CHECK(warning.summary == "size rounded up");
  CHECK(warning.detail == "the API sells 10 GB steps");
  CHECK(warning.path ==
        AttributePath{AttributeName{"disk"}, ElementIndex{0}, AttributeName{"size"}});
  const auto& error = diags.items()[1];
  CHECK(error.severity == Severity::Error);
  CHECK(error.summary == "Name already taken");
  CHECK(error.detail ==
        "pick another name\n\ntest_server: create failed at resource_server.lua:11.");
  CHECK(error.path == AttributePath{AttributeName{"name"}});
}

TEST_CASE("tf.fail with a message, or caught and followed by another error, reads as usual") {
  // The message is the summary; the detail says what failed and where.
  const auto plain = create("plain");
  REQUIRE(plain.has_errors());
  CHECK(plain.items().back().summary == "the API said no");
  CHECK(plain.items().back().detail == "test_server: create failed at resource_server.lua:13.");
  CHECK(plain.items().back().path.empty());

  const auto caught = create("caught");
  REQUIRE(caught.has_errors());
  CHECK(caught.items().back().summary == "a later error");
  CHECK(caught.items().back().detail == "test_server: create failed at resource_server.lua:16.");

  const auto fine = create("fine");
  CHECK_FALSE(fine.has_errors());
  CHECK(fine.items().size() == 1);  // the warning alone
}
