#include "host/engine/schema/schema_json.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

using namespace luaform::engine;
using nlohmann::json;

namespace {

const char* kAddress = "registry.opentofu.org/luaform/demo";

json render(const ProviderSchema& schema) {
  return json::parse(provider_schema_json(kAddress, schema));
}

Attribute attr(const char* name, Type type) {
  Attribute a;
  a.name = name;
  a.type = std::move(type);
  return a;
}

}  // namespace

TEST_CASE("the document names the format version and keys the provider by its address") {
  json doc = render(ProviderSchema{});
  CHECK(doc["format_version"] == "1.0");
  CHECK(doc["provider_schemas"].size() == 1);
  CHECK(doc["provider_schemas"].contains(kAddress));
}

TEST_CASE("an empty provider block still has a version and a plain description kind") {
  json provider = render(ProviderSchema{})["provider_schemas"][kAddress];
  CHECK(provider ==
        json::parse(R"({"provider":{"version":0,"block":{"description_kind":"plain"}}})"));
}

TEST_CASE("attributes carry their cty type and only the flags that are true") {
  ProviderSchema schema;
  Attribute path = attr("path", Type::string());
  path.required = true;
  path.description = "Where the file lives.";
  path.force_new = true;  // an engine rule, invisible to the CLI
  Attribute mode = attr("mode", Type::string());
  mode.optional = true;
  mode.computed = true;
  mode.default_value = Value::string("0644");  // defaults are not part of the served schema
  Attribute secret = attr("secret", Type::map(Type::string()));
  secret.optional = true;
  secret.sensitive = true;
  secret.description = "**never** shown";
  secret.description_markdown = true;
  Attribute old = attr("old", Type::list(Type::object({{"a", Type::number()}}, {"a"})));
  old.optional = true;
  old.deprecated = "use path";
  Schema resource;
  resource.version = 2;
  resource.block.attributes = {path, mode, secret, old};
  schema.resources["demo_file"] = resource;

  json block = render(schema)["provider_schemas"][kAddress]["resource_schemas"]["demo_file"];
  CHECK(block["version"] == 2);
  CHECK(block["block"] == json::parse(R"({
    "attributes": {
      "path": {"type": "string", "description": "Where the file lives.",
               "description_kind": "plain", "required": true},
      "mode": {"type": "string", "description_kind": "plain", "optional": true, "computed": true},
      "secret": {"type": ["map", "string"], "description": "**never** shown",
                 "description_kind": "markdown", "optional": true, "sensitive": true},
      "old": {"type": ["list", ["object", {"a": "number"}, ["a"]]], "description_kind": "plain",
              "optional": true, "deprecated": true, "deprecation_message": "use path"}
    },
    "description_kind": "plain"
  })"));
}

TEST_CASE("nested blocks appear under block_types with nesting mode and nonzero item limits") {
  ProviderSchema schema;
  NestedBlock rule;
  rule.type_name = "rule";
  rule.nesting = NestingMode::Set;
  rule.min_items = 1;
  rule.block.description = "One rule.";
  rule.block.description_markdown = true;
  Attribute port = attr("port", Type::number());
  port.required = true;
  rule.block.attributes.push_back(port);
  NestedBlock timeouts;
  timeouts.type_name = "timeouts";
  timeouts.nesting = NestingMode::Single;
  timeouts.max_items = 1;
  Schema data;
  data.block.blocks = {rule, timeouts};
  data.block.description = "Reads things.";
  schema.data_sources["demo_thing"] = data;

  json provider = render(schema)["provider_schemas"][kAddress];
  CHECK_FALSE(provider.contains("resource_schemas"));
  CHECK(provider["data_source_schemas"]["demo_thing"] == json::parse(R"({
    "version": 0,
    "block": {
      "block_types": {
        "rule": {"nesting_mode": "set", "min_items": 1, "block": {
          "attributes": {"port": {"type": "number", "description_kind": "plain", "required": true}},
          "description": "One rule.", "description_kind": "markdown"}},
        "timeouts": {"nesting_mode": "single", "max_items": 1,
                     "block": {"description_kind": "plain"}}
      },
      "description": "Reads things.",
      "description_kind": "plain"
    }
  })"));
}

// Found by tests/fuzz (regressions/fuzz_schema): a description with a byte that is not UTF-8
// made nlohmann's dump throw, which ended `luaform --schema`.
TEST_CASE("text that is not UTF-8 is written with U+FFFD instead of failing") {
  ProviderSchema schema;
  Schema resource;
  resource.block.description = "A s\x8d server";
  Attribute a = attr("name\xff", Type::string());
  a.description = "bad \xc3";
  a.required = true;
  resource.block.attributes.push_back(a);
  schema.resources["demo_x"] = resource;
  json doc = render(schema);
  json block = doc["provider_schemas"][kAddress]["resource_schemas"]["demo_x"]["block"];
  CHECK(block["description"] == "A s\xef\xbf\xbd server");
  CHECK(block["attributes"].contains("name\xef\xbf\xbd"));
  CHECK(block["attributes"]["name\xef\xbf\xbd"]["description"] == "bad \xef\xbf\xbd");
}

TEST_CASE("list resources are under list_resource_schemas with their own block, as filters") {
  CHECK_FALSE(
      render(ProviderSchema{})["provider_schemas"][kAddress].contains("list_resource_schemas"));
  ProviderSchema schema;
  Schema filters;
  filters.block.description = "Servers by name";
  Attribute prefix = attr("prefix", Type::string());
  prefix.optional = true;
  filters.block.attributes = {prefix};
  schema.list_resources["demo_server"] = filters;
  // Terraform's providers schema -json takes its `config` wrapping off again: the block is the
  // provider's, with no id and no data attribute.
  CHECK(render(schema)["provider_schemas"][kAddress]["list_resource_schemas"] ==
        json::parse(R"({"demo_server":{"version":0,"block":{
          "attributes":{"prefix":{"type":"string","description_kind":"plain","optional":true}},
          "description":"Servers by name","description_kind":"plain"}}})"));
}

TEST_CASE("actions are under action_schemas, each its block alone") {
  CHECK_FALSE(render(ProviderSchema{})["provider_schemas"][kAddress].contains("action_schemas"));
  ProviderSchema schema;
  Schema reboot;
  reboot.block.description = "Reboots a server";
  Attribute server = attr("server_id", Type::string());
  server.required = true;
  reboot.block.attributes = {server};
  schema.actions["demo_reboot"] = reboot;
  CHECK(render(schema)["provider_schemas"][kAddress]["action_schemas"] ==
        json::parse(R"({"demo_reboot":{"block":{
          "attributes":{"server_id":{"type":"string","description_kind":"plain","required":true}},
          "description":"Reboots a server","description_kind":"plain"}}})"));
}

TEST_CASE("state stores are under state_store_schemas, as resources are") {
  CHECK_FALSE(
      render(ProviderSchema{})["provider_schemas"][kAddress].contains("state_store_schemas"));
  ProviderSchema schema;
  Schema store;
  Attribute bucket = attr("bucket", Type::string());
  bucket.required = true;
  store.block.attributes = {bucket};
  schema.state_stores["demo_bucket"] = store;
  CHECK(render(schema)["provider_schemas"][kAddress]["state_store_schemas"] ==
        json::parse(R"({"demo_bucket":{"version":0,"block":{
          "attributes":{"bucket":{"type":"string","description_kind":"plain","required":true}},
          "description_kind":"plain"}}})"));
}
