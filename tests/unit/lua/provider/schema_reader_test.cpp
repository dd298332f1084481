#include "host/lua/provider/schema_reader.h"

#include <doctest/doctest.h>

#include <cstdlib>

#include "host/engine/rpc/provider_service.h"
#include "host/engine/schema/schema_docs.h"

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

// The load diagnostics of a resource script whose line 2 is `local b = <spec>`.
std::string load_errors_of_line_2(const std::string& spec) {
  ProviderDir dir;
  dir.write("resource_x.lua", "local tf = require(\"luaform\")\nlocal b = " + spec +
                                  "\nreturn tf.resource { schema = {}, create = function() end, "
                                  "read = function() end, delete = function() end }\n");
  return all_text(dir.load()->load_diagnostics());
}

}  // namespace

TEST_CASE("every SDK type and option becomes the engine attribute it names") {
  ProviderDir dir;
  dir.write("resource_server.lua", R"(
local tf = require("luaform")
return tf.resource {
  description = tf.markdown "A **server**",
  schema = {
    name = tf.string { required = true, force_new = true, description = "Its name" },
    size = tf.number { optional = true, default = 2, description = tf.markdown "In " .. "`GB`" },
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
  CHECK(s.block.description == "A **server**");
  CHECK(s.block.description_markdown);

  CHECK(attr(s, "id").type == Type::string());
  CHECK(attr(s, "id").computed);
  CHECK(s.block.attributes.front().name == "id");

  const auto& name = attr(s, "name");
  CHECK(name.type == Type::string());
  CHECK(name.required);
  CHECK(name.force_new);
  CHECK(name.description == "Its name");
  CHECK_FALSE(name.description_markdown);
  // Lua reads tf.markdown "In " .. "`GB`" as (tf.markdown "In ") .. "`GB`": still markdown.
  CHECK(attr(s, "size").description == "In `GB`");
  CHECK(attr(s, "size").description_markdown);
  CHECK(attr(s, "size").declared_at == "resource_server.lua:7");
  CHECK(attr(s, "size").description_markdown);
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

TEST_CASE("list, set and single blocks become nested blocks with their options, at any depth") {
  ProviderDir dir;
  dir.write("resource_vm.lua", R"(
local tf = require("luaform")
return tf.resource {
  schema = {
    name = tf.string { required = true },
    disk = tf.list_block {
      min_items = 1, max_items = 4, description = tf.markdown "_Disks_",
      schema = {
        size = tf.number { required = true },
        id = tf.string { computed = true },
        partition = tf.set_block { schema = { label = tf.string { required = true, force_new = true } } },
      },
    },
    boot = tf.single_block { required = true, schema = { image = tf.string { required = true } } },
    net = tf.set_block { force_new = true, schema = { cidr = tf.string { optional = true } } },
  },
  create = function() end, read = function() end, delete = function() end,
}
)");
  auto logic = dir.load();
  CHECK_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  const engine::Block& b = logic->schema().resources.at("test_vm").block;
  REQUIRE(b.blocks.size() == 3);
  CHECK(b.blocks[0].type_name == "boot");
  CHECK(b.blocks[0].nesting == engine::NestingMode::Single);
  CHECK(b.blocks[0].min_items == 1);
  const engine::NestedBlock* disk = b.find_block("disk");
  REQUIRE(disk != nullptr);
  CHECK(disk->nesting == engine::NestingMode::List);
  CHECK(disk->min_items == 1);
  CHECK(disk->max_items == 4);
  CHECK(disk->block.description == "_Disks_");
  CHECK(disk->block.description_markdown);
  CHECK(disk->block.find_attribute("id")->computed);  // "id" is reserved only at the top level
  const engine::NestedBlock* partition = disk->block.find_block("partition");
  REQUIRE(partition != nullptr);
  CHECK(partition->nesting == engine::NestingMode::Set);
  CHECK(partition->block.find_attribute("label")->force_new);
  CHECK(b.find_block("net")->force_new);
  CHECK(b.find_attribute("disk") == nullptr);
}

TEST_CASE("tf.object types describe structured attribute values") {
  ProviderDir dir;
  dir.write("data_source_list.lua", R"(
local tf = require("luaform")
return tf.data_source {
  schema = {
    items = tf.list(tf.object { name = tf.string, size = tf.number, tags = tf.map(tf.string) }) {
      computed = true,
    },
    origin = tf.object { host = tf.string, port = tf.number } {
      optional = true, default = { host = "localhost", port = 80 },
    },
  },
  read = function() end,
}
)");
  auto logic = dir.load();
  CHECK_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  const engine::Schema& s = logic->schema().data_sources.at("test_list");
  const Type item = Type::object(
      {{"name", Type::string()}, {"size", Type::number()}, {"tags", Type::map(Type::string())}});
  CHECK(attr(s, "items").type == Type::list(item));
  const Type origin = Type::object({{"host", Type::string()}, {"port", Type::number()}});
  CHECK(attr(s, "origin").type == origin);
  CHECK(attr(s, "origin").default_value ==
        engine::Value::object(origin, {{"host", engine::Value::string("localhost")},
                                       {"port", engine::Value::number(80)}}));
}

TEST_CASE("mistakes in a block's options are load errors at the line of the block") {
  const char* cases[][2] = {
      {"tf.list_block { schema = {}, max_itmes = 2 }", "unknown option \"max_itmes\""},
      {"tf.list_block { }", "schema is required"},
      {"tf.single_block { schema = {}, max_items = 1 }", "does not apply to a single block"},
      {"tf.set_block { schema = {}, min_items = 3, max_items = 2 }",
       "min_items is larger than max_items"},
      {"tf.list_block { schema = {}, min_items = -1 }", "whole number of at least 0"},
      {"tf.list_block { schema = { x = tf.string } }", "tf.string { optional = true }"},
      {"tf.object { Name = tf.string }", "lowercase letters"},
  };
  for (const auto& entry : cases) {
    const char* spec = entry[0];
    const char* expected = entry[1];
    const std::string text = load_errors_of_line_2(spec);
    CHECK_MESSAGE(text.find("resource_x.lua:2:") != std::string::npos, text);
    CHECK_MESSAGE(text.find(expected) != std::string::npos, spec, " -> ", text);
  }
}

TEST_CASE("tf.*_nested become nested attributes with inner attributes and their own flags") {
  ProviderDir dir;
  dir.write("resource_net.lua", R"(
local tf = require("luaform")
return tf.resource {
  schema = {
    subnets = tf.list_nested { optional = true, force_new = true, schema = {
      cidr = tf.string { required = true },
      gateway = tf.string { computed = true },
    } },
    peers = tf.set_nested { optional = true, schema = { name = tf.string { required = true } } },
    labels = tf.map_nested { required = true, schema = { value = tf.string { optional = true } } },
    dns = tf.single_nested { optional = true, computed = true, sensitive = true,
      description = tf.markdown "The *DNS*", schema = { ttl = tf.number { optional = true } } },
  },
  create = function() end, read = function() end, delete = function() end,
}
)");
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  const engine::Schema& s = logic->schema().resources.at("test_net");
  const auto& subnets = attr(s, "subnets");
  REQUIRE(subnets.nested != nullptr);
  CHECK(subnets.nested->nesting == engine::NestingMode::List);
  CHECK(subnets.nested->type_name == "subnets");
  CHECK(subnets.force_new);
  CHECK(subnets.nested->force_new);
  CHECK(subnets.nested->block.find_attribute("gateway")->computed);
  CHECK(subnets.type == Type::list(subnets.nested->block.implied_type()));
  CHECK(attr(s, "peers").nested->nesting == engine::NestingMode::Set);
  CHECK(attr(s, "labels").nested->nesting == engine::NestingMode::Map);
  CHECK(attr(s, "labels").required);
  const auto& dns = attr(s, "dns");
  CHECK(dns.nested->nesting == engine::NestingMode::Single);
  CHECK((dns.optional && dns.computed && dns.sensitive && dns.description_markdown));
  CHECK(dns.type == dns.nested->block.implied_type());
}

TEST_CASE("mistakes in a nested attribute's options are load errors at its line") {
  const char* cases[][2] = {
      {"tf.list_nested { schema = {} }", "set one of required, optional or computed"},
      {"tf.list_nested { optional = true }", "schema is required"},
      {"tf.set_nested { optional = true, max_items = 2, schema = {} }",
       "unknown option \"max_items\""},
      {"tf.map_nested { required = true, computed = true, schema = {} }",
       "required cannot be combined"},
      {"tf.list_nested { optional = true, schema = { b = tf.list_block { schema = {} } } }",
       "\"b\" is a block; a nested attribute holds attributes only"},
  };
  for (const auto& entry : cases) {
    const char* spec = entry[0];
    const char* expected = entry[1];
    const std::string text = load_errors_of_line_2(spec);
    CHECK_MESSAGE(text.find("resource_x.lua:2:") != std::string::npos, text);
    CHECK_MESSAGE(text.find(expected) != std::string::npos, spec, " -> ", text);
  }
}

TEST_CASE("a default function runs once at load; tf.env makes a required attribute optional") {
  ::setenv("LUAFORM_TEST_TOKEN_SET", "s3cret", 1);
  ::unsetenv("LUAFORM_TEST_TOKEN_UNSET");
  ProviderDir dir;
  dir.write("provider.lua", R"(local tf = require("luaform")
return tf.provider {
  schema = {
    token = tf.string { required = true, sensitive = true, default = tf.env("LUAFORM_TEST_TOKEN_SET") },
    other = tf.string { required = true, default = tf.env({ "LUAFORM_TEST_TOKEN_UNSET" }) },
    region = tf.string { optional = true, default = tf.env("LUAFORM_TEST_TOKEN_UNSET", "eu-1") },
    retries = tf.number { optional = true, default = function() return "7" end },
  },
}
)");
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  const engine::Schema& s = logic->schema().provider;
  CHECK_FALSE(attr(s, "token").required);
  CHECK(attr(s, "token").optional);
  CHECK(attr(s, "token").default_value == engine::Value::string("s3cret"));
  CHECK(attr(s, "other").required);
  CHECK_FALSE(attr(s, "other").default_value.has_value());
  CHECK(attr(s, "region").default_value == engine::Value::string("eu-1"));
  CHECK(attr(s, "retries").default_value == engine::Value::number(7));
  // Where each default comes from, whatever the environment held (the docs show that).
  REQUIRE(attr(s, "token").default_source.has_value());
  CHECK(attr(s, "token").default_source->environment ==
        std::vector<std::string>{"LUAFORM_TEST_TOKEN_SET"});
  CHECK(attr(s, "token").default_source->declared_required);
  CHECK_FALSE(attr(s, "token").default_source->fallback.has_value());
  REQUIRE(attr(s, "region").default_source.has_value());
  CHECK(attr(s, "region").default_source->fallback == engine::Value::string("eu-1"));
  CHECK_FALSE(attr(s, "region").default_source->declared_required);
  REQUIRE(attr(s, "retries").default_source.has_value());
  CHECK(attr(s, "retries").default_source->environment.empty());
  ::unsetenv("LUAFORM_TEST_TOKEN_SET");
}

TEST_CASE("the docs of a provider read with its variables set show none of their values") {
  ProviderDir dir;
  dir.write("provider.lua", R"(local tf = require("luaform")
return tf.provider {
  schema = {
    uri = tf.string { required = true, default = tf.env("LUAFORM_TEST_URI") },
    token = tf.string { optional = true, sensitive = true, default = tf.env({ "LUAFORM_TEST_TOKEN", "LUAFORM_TEST_TOKEN2" }) },
    insecure = tf.bool { optional = true, default = tf.env("LUAFORM_TEST_INSECURE", "false") },
    password = tf.string { optional = true, sensitive = true, default = "hunter2" },
  },
}
)");
  const std::pair<const char*, const char*> environment[] = {
      {"LUAFORM_TEST_URI", "https://uri-q7z.example"},
      {"LUAFORM_TEST_TOKEN", "tok-Restapi-0042"},
      {"LUAFORM_TEST_INSECURE", "TRUE"}};
  for (const auto& [name, value] : environment) ::setenv(name, value, 1);
  auto logic = dir.load();
  for (const auto& [name, value] : environment) ::unsetenv(name);
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  // The schema served holds what the environment gave: the CLI needs it.
  CHECK(attr(logic->schema().provider, "token").default_value ==
        engine::Value::string("tok-Restapi-0042"));
  const std::string index = engine::registry_docs("probe", logic->schema(), {})["index.md"];
  INFO(index);
  for (const char* value : {"uri-q7z", "tok-Restapi-0042", "TRUE", "hunter2"}) {
    CHECK(index.find(value) == std::string::npos);
  }
  CHECK(index.find("### Required\n\n- `uri` (String) Defaults to the environment variable "
                   "`LUAFORM_TEST_URI`.\n") != std::string::npos);
  CHECK(index.find("- `token` (String, Sensitive) Defaults to the first set of the environment "
                   "variables `LUAFORM_TEST_TOKEN`, `LUAFORM_TEST_TOKEN2`.\n") !=
        std::string::npos);
  CHECK(index.find("- `insecure` (Boolean) Defaults to the environment variable "
                   "`LUAFORM_TEST_INSECURE`, else to `false`.\n") != std::string::npos);
  CHECK(index.find("- `password` (String, Sensitive) Has a default, not shown here "
                   "(sensitive).\n") != std::string::npos);
}

TEST_CASE(
    "environment text reads as Go's strconv reads it; bad text fails the argument, not the load") {
  ProviderDir dir;
  dir.write("provider.lua", R"(local tf = require("luaform")
return tf.provider {
  schema = {
    a = tf.bool { optional = true, default = tf.env("LUAFORM_TEST_A") },
    b = tf.bool { optional = true, default = tf.env("LUAFORM_TEST_B") },
    c = tf.bool { optional = true, default = tf.env("LUAFORM_TEST_C") },
    d = tf.bool { optional = true, default = tf.env("LUAFORM_TEST_D") },
    n = tf.number { optional = true, default = tf.env("LUAFORM_TEST_N") },
    bad = tf.bool { required = true, default = tf.env("LUAFORM_TEST_BAD") },
    worse = tf.number { optional = true, default = tf.env("LUAFORM_TEST_WORSE") },
  },
}
)");
  const std::pair<const char*, const char*> environment[] = {
      {"LUAFORM_TEST_A", "1"},       {"LUAFORM_TEST_B", "TRUE"},  {"LUAFORM_TEST_C", "True"},
      {"LUAFORM_TEST_D", "f"},       {"LUAFORM_TEST_N", "2.5e1"}, {"LUAFORM_TEST_BAD", "maybe"},
      {"LUAFORM_TEST_WORSE", "0x1f"}};
  for (const auto& [name, value] : environment) ::setenv(name, value, 1);
  auto logic = dir.load();
  for (const auto& [name, value] : environment) ::unsetenv(name);
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  const engine::Schema& s = logic->schema().provider;
  CHECK(attr(s, "a").default_value == engine::Value::boolean(true));
  CHECK(attr(s, "b").default_value == engine::Value::boolean(true));
  CHECK(attr(s, "c").default_value == engine::Value::boolean(true));
  CHECK(attr(s, "d").default_value == engine::Value::boolean(false));
  CHECK(attr(s, "n").default_value == engine::Value::number(25));
  // Not values of their types: no default, and an error when a configuration leaves them unset.
  CHECK_FALSE(attr(s, "bad").default_value.has_value());
  CHECK_FALSE(attr(s, "bad").required);
  CHECK(attr(s, "bad").default_problem ==
        "LUAFORM_TEST_BAD: \"maybe\" is not a bool (true, false, 1, 0, t, f, TRUE, FALSE, True, "
        "False)");
  CHECK(attr(s, "worse").default_problem == "LUAFORM_TEST_WORSE: \"0x1f\" is not a number");
  engine::ProviderService service(logic);
  const engine::Type type = s.block.implied_type();
  engine::Value::Object unset;
  for (const auto& [name, t] : type.attributes()) unset[name] = engine::Value::null(t);
  engine::Value::Object set = unset;
  set["bad"] = engine::Value::boolean(true);
  set["worse"] = engine::Value::number(1);
  const auto request = [&](engine::Value::Object values) {
    return engine::ValidateRequest{"", engine::Value::object(type, std::move(values))};
  };
  const std::string unset_errors = all_text(service.validate_provider_config(request(unset)));
  CHECK(unset_errors.find("Invalid default for \"bad\"") != std::string::npos);
  CHECK(unset_errors.find("LUAFORM_TEST_BAD: \"maybe\" is not a bool") != std::string::npos);
  CHECK(unset_errors.find("Invalid default for \"worse\"") != std::string::npos);
  CHECK(service.validate_provider_config(request(set)).empty());
}

TEST_CASE("a default function that fails or gives the wrong type is a load error") {
  const char* cases[][2] = {
      {"tf.number { optional = true, default = function() error('no default today') end }",
       "no default today"},
      {"tf.number { optional = true, default = function() return {} end }",
       "expected number, got table"},
  };
  for (const auto& entry : cases) {
    const char* spec = entry[0];
    const char* expected = entry[1];
    ProviderDir dir;
    dir.write(
        "resource_x.lua",
        std::string("local tf = require(\"luaform\")\nreturn tf.resource { schema = { a = ") +
            spec +
            " }, create = function() end, read = function() end, delete = function() end }\n");
    const std::string text = all_text(dir.load()->load_diagnostics());
    CHECK_MESSAGE(text.find(expected) != std::string::npos, spec, " -> ", text);
  }
}

// Found with the fuzz_schema target (regressions/fuzz_schema/*-nesting.lua): a type or schema
// table that contains itself, or a tower of thousands of types, overflowed the C++ stack.
TEST_CASE("types and blocks that nest without end are errors, not stack overflows") {
  ProviderDir dir;
  dir.write("resource_cyclic_type.lua", R"(
local t = { kind = "type", name = "list" }
t.element = t
return { kind = "resource", schema = { a = { kind = "attribute", type = t, optional = true } } }
)");
  dir.write("resource_deep_type.lua", R"(
local t = { kind = "type", name = "string" }
for _ = 1, 100000 do t = { kind = "type", name = "map", element = t } end
return { kind = "resource", schema = { a = { kind = "attribute", type = t, optional = true } } }
)");
  dir.write("resource_cyclic_block.lua", R"(
local s = {}
s.b = { kind = "block", nesting = "list", schema = s }
return { kind = "resource", schema = s }
)");
  dir.write("resource_cyclic_nested.lua", R"(
local s = {}
s.n = { kind = "nested_attribute", nesting = "single", optional = true, schema = s }
return { kind = "resource", schema = s }
)");
  const std::string errors = all_text(dir.load()->load_diagnostics());
  CHECK(errors.find("resource_cyclic_type.lua: attribute \"a\": its type nests more than 64") !=
        std::string::npos);
  CHECK(errors.find("resource_deep_type.lua: attribute \"a\": its type nests more than 64") !=
        std::string::npos);
  CHECK(errors.find("resource_cyclic_block.lua: b.b.b.") != std::string::npos);
  CHECK(errors.find("resource_cyclic_nested.lua: n.n.n.") != std::string::npos);
  CHECK(errors.find("blocks nest more than 64 levels deep") != std::string::npos);
}
