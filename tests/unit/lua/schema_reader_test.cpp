#include "host/lua/schema_reader.h"

#include <doctest/doctest.h>

#include "provider_dir.h"

using namespace luaform;
using namespace luaform::lua::testing;
using engine::Type;

namespace {

const engine::Attribute& attr(const engine::Schema& s, const std::string& name) {
  const engine::Attribute* a = s.block.find_attribute(name);
  REQUIRE_MESSAGE(a != nullptr, name);
  return *a;
}

}  // namespace

TEST_CASE("every SDK type and option becomes the engine attribute it names") {
  ProviderDir dir;
  dir.write("resource_server.lua", R"(
local tf = require("luaform")
return tf.resource {
  description = "A server",
  schema = {
    name = tf.string { required = true, force_new = true, description = "Its name" },
    size = tf.number { optional = true, default = 2 },
    ratio = tf.number { optional = true, default = 0.5 },
    on = tf.bool { optional = true, computed = true },
    ip = tf.string { computed = true, sensitive = true },
    tags = tf.map(tf.string) { optional = true },
    lines = tf.list(tf.string) { optional = true, default = { "a", "b" } },
    groups = tf.set(tf.number) { optional = true, deprecated = "use lines" },
  },
  create = function() end, read = function() end, delete = function() end,
}
)");
  auto logic = dir.load();
  CHECK_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  const engine::Schema& s = logic->schema().resources.at("test_server");
  CHECK(s.block.description == "A server");

  CHECK(attr(s, "id").type == Type::string());
  CHECK(attr(s, "id").computed);
  CHECK(s.block.attributes.front().name == "id");

  const auto& name = attr(s, "name");
  CHECK(name.type == Type::string());
  CHECK(name.required);
  CHECK(name.force_new);
  CHECK(name.description == "Its name");
  CHECK(attr(s, "size").default_value == engine::Value::number(2));
  CHECK(attr(s, "ratio").default_value == engine::Value::number(*engine::Number::parse("0.5")));
  CHECK(attr(s, "on").type == Type::boolean());
  CHECK((attr(s, "on").optional && attr(s, "on").computed));
  CHECK(attr(s, "ip").sensitive);
  CHECK(attr(s, "tags").type == Type::map(Type::string()));
  CHECK(attr(s, "lines").type == Type::list(Type::string()));
  CHECK(attr(s, "lines").default_value ==
        engine::Value::list(Type::string(),
                            {engine::Value::string("a"), engine::Value::string("b")}));
  CHECK(attr(s, "groups").type == Type::set(Type::number()));
  CHECK(attr(s, "groups").deprecated == "use lines");
}

TEST_CASE("attributes are sorted by name after the id so the schema is stable") {
  ProviderDir dir;
  dir.write("data_source_x.lua", R"(
local tf = require("luaform")
return tf.data_source {
  schema = { zeta = tf.string { computed = true }, alpha = tf.string { required = true },
             mid = tf.number { optional = true } },
  read = function() end,
}
)");
  auto logic = dir.load();
  const auto& attrs = logic->schema().data_sources.at("test_x").block.attributes;
  REQUIRE(attrs.size() == 4);
  CHECK(attrs[0].name == "id");
  CHECK(attrs[1].name == "alpha");
  CHECK(attrs[2].name == "mid");
  CHECK(attrs[3].name == "zeta");
}

TEST_CASE("the provider schema comes from provider.lua and has no id") {
  ProviderDir dir;
  dir.write("provider.lua", R"(
local tf = require("luaform")
return tf.provider {
  description = "Test provider",
  schema = { endpoint = tf.string { optional = true }, token = tf.string { optional = true, sensitive = true } },
}
)");
  auto logic = dir.load();
  const auto& block = logic->schema().provider.block;
  CHECK(block.description == "Test provider");
  REQUIRE(block.attributes.size() == 2);
  CHECK(block.find_attribute("id") == nullptr);
  CHECK(block.find_attribute("token")->sensitive);
}

TEST_CASE("without provider.lua the provider schema is an empty block") {
  ProviderDir dir;
  auto logic = dir.load();
  CHECK(logic->load_diagnostics().empty());
  CHECK(logic->schema().provider.block.attributes.empty());
  CHECK(logic->schema().resources.empty());
}
