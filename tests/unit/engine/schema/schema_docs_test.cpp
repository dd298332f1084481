// Registry-style pages from a schema: layout, sections, nested schemas, function signatures and
// list resources.
#include "host/engine/schema/schema_docs.h"

#include <doctest/doctest.h>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

ProviderSchema sample() {
  ProviderSchema s;
  s.provider.block.description = "Servers\nin the cloud";
  Attribute token = attribute("token", Type::string(), false, true, false);
  token.sensitive = true;
  token.description = "API token";
  s.provider.block.attributes = {token};

  Schema server;
  server.block.description = "A server";
  Attribute name = attribute("name", Type::string(), true, false, false);
  name.force_new = true;
  Attribute size = attribute("size", Type::number(), false, true, false);
  size.default_value = Value::number(2);
  size.deprecated = "use flavor";
  Attribute ip = attribute("ip", Type::list(Type::string()), false, false, true);
  server.block.attributes = {name, size, ip};
  NestedBlock disk;
  disk.type_name = "disk";
  disk.min_items = 1;
  disk.max_items = 2;
  disk.block.attributes = {attribute("gb", Type::number(), true, false, false)};
  server.block.blocks = {disk};
  server.importable = false;  // the tests of imports say so
  s.resources["cloud_server"] = server;
  s.data_sources["cloud_image"] = Schema{};
  Schema login;
  login.block.attributes = {attribute("token", Type::string(), false, false, true)};
  s.ephemeral_resources["cloud_login"] = login;

  Function join;
  FunctionParameter sep;
  sep.name = "sep";
  sep.type = Type::string();
  sep.allow_null = true;
  FunctionParameter parts;
  parts.name = "parts";
  parts.type = Type::string();
  parts.description = "Pieces";
  join.parameters = {sep};
  join.variadic = parts;
  join.returns = Type::string();
  join.summary = "Joins";
  s.functions["join"] = join;
  return s;
}

}  // namespace

TEST_CASE("docs have the registry's layout: index, resources, data sources, functions") {
  auto pages = registry_docs("cloud", sample(), {{"ephemeral-resources/cloud_login", "eph {}\n"}});
  std::vector<std::string> names;
  for (const auto& [path, _] : pages) names.push_back(path);
  CHECK(names == std::vector<std::string>{"data-sources/image.md", "ephemeral-resources/login.md",
                                          "functions/join.md", "index.md", "resources/server.md"});
  const std::string& login = pages["ephemeral-resources/login.md"];
  CHECK(contains(login, "# cloud_login (Ephemeral Resource)\n"));
  CHECK(contains(login, "eph {}"));
  CHECK(contains(login, "### Read-Only\n\n- `token` (String)"));
  const std::string& index = pages["index.md"];
  CHECK(
      index.starts_with("---\npage_title: \"cloud Provider\"\nsubcategory: \"\"\n"
                        "description: |-\n  Servers in the cloud\n---\n"));
  CHECK(contains(index, "### Optional\n\n- `token` (String, Sensitive) API token.\n"));
}

TEST_CASE("a resource page lists required, optional and read-only values, then nested schemas") {
  auto pages = registry_docs("cloud", sample(), {{"resources/cloud_server", "resource {}\n"}});
  const std::string& page = pages["resources/server.md"];
  CHECK(contains(page, "# cloud_server (Resource)\n\nA server\n"));
  CHECK(contains(page, "## Example Usage\n\n```terraform\nresource {}\n```\n"));
  CHECK(contains(page,
                 "### Required\n\n- `name` (String) Changing it replaces the resource.\n"
                 "- `disk` (Block List, Min: 1, Max: 2) (see [below for nested schema]"
                 "(#nestedblock--disk))\n"));
  CHECK(contains(page, "- `size` (Number, Deprecated) Defaults to `2`. Deprecated: use flavor\n"));
  CHECK(contains(page, "### Read-Only\n\n- `ip` (List of String)\n"));
  CHECK(contains(page,
                 "<a id=\"nestedblock--disk\"></a>\n### Nested Schema for `disk`\n\n"
                 "Required:\n\n- `gb` (Number)\n"));
}

TEST_CASE("a function page shows its signature and arguments") {
  auto pages = registry_docs("cloud", sample(), {});
  const std::string& page = pages["functions/join.md"];
  CHECK(contains(page, "# function: join\n\nJoins\n"));
  CHECK(contains(page, "```text\njoin(sep string, parts string...) string\n```"));
  CHECK(contains(page, "- `sep` (String, Nullable)\n- `parts` (String, Variadic) Pieces\n"));
}

TEST_CASE("an importable resource's page says how to import it; the example's command wins") {
  ProviderSchema importable = sample();
  importable.resources["cloud_server"].importable = true;
  const auto generated = registry_docs("cloud", importable, {});
  const std::string& page = generated.at("resources/server.md");
  CHECK(page.find("## Import") != std::string::npos);
  CHECK(page.find("import {\n  to = cloud_server.example\n  id = \"<id>\"\n}") !=
        std::string::npos);
  CHECK(page.find("terraform import cloud_server.example <id>") != std::string::npos);
  // Before the identity section, after the schema.
  CHECK(page.find("## Import") > page.find("## Schema"));
  // Not importable: no section.
  CHECK(registry_docs("cloud", sample(), {}).at("resources/server.md").find("## Import") ==
        std::string::npos);
  const auto own = registry_docs(
      "cloud", importable,
      {{"resources/cloud_server/import", "terraform import cloud_server.web eu-1/web\n"}});
  CHECK(own.at("resources/server.md")
            .find("```shell\nterraform import cloud_server.web eu-1/web\n```") !=
        std::string::npos);
}

TEST_CASE("a list resource's page is under list-resources/, with its query example and filters") {
  ProviderSchema schema = sample();
  Schema filters;
  filters.block.description = "Servers by name";
  Attribute prefix = attribute("prefix", Type::string(), false, true, false);
  prefix.description = "Start of the names";
  filters.block.attributes = {prefix};
  schema.list_resources["cloud_server"] = filters;
  const auto pages = registry_docs("cloud", schema,
                                   {{"list-resources/cloud_server",
                                     "list \"cloud_server\" \"all\" {\n  provider = cloud\n}\n"}});
  const std::string& page = pages.at("list-resources/server.md");
  CHECK(page.starts_with("---\npage_title: \"cloud_server List Resource - cloud\"\n"));
  CHECK(contains(page, "# cloud_server (List Resource)\n\nServers by name\n"));
  CHECK(contains(page, "`terraform query`"));
  CHECK(contains(page, "go in the list block's `config` block"));
  CHECK(contains(page, "## Example Usage\n\n```terraform\nlist \"cloud_server\" \"all\" {\n"));
  CHECK(contains(page, "### Optional\n\n- `prefix` (String) Start of the names.\n"));
  // The resource's own page is unchanged beside it.
  CHECK(pages.at("resources/server.md") ==
        registry_docs("cloud", sample(), {}).at("resources/server.md"));
}

TEST_CASE("an action's page is under actions/, saying how it runs, with its example") {
  ProviderSchema schema = sample();
  Schema reboot;
  reboot.block.description = "Reboots a server";
  Attribute server = attribute("server_id", Type::string(), true, false, false);
  server.description = "The server to reboot";
  reboot.block.attributes = {server};
  schema.actions["cloud_reboot"] = reboot;
  const auto pages = registry_docs(
      "cloud", schema,
      {{"actions/cloud_reboot",
        "action \"cloud_reboot\" \"web\" {\n  config {\n    server_id = \"s-1\"\n  }\n}\n"}});
  const std::string& page = pages.at("actions/reboot.md");
  CHECK(page.starts_with("---\npage_title: \"cloud_reboot Action - cloud\"\n"));
  CHECK(contains(page, "# cloud_reboot (Action)\n\nReboots a server\n"));
  CHECK(contains(page, "`terraform apply -invoke=action.cloud_reboot.NAME`"));
  CHECK(contains(page, "## Example Usage\n\n```terraform\naction \"cloud_reboot\" \"web\" {\n"));
  CHECK(contains(page, "### Required\n\n- `server_id` (String) The server to reboot.\n"));
}

TEST_CASE("a state store's page is under state-stores/, saying where its block goes") {
  ProviderSchema schema = sample();
  Schema store;
  store.block.description = "States in buckets";
  Attribute bucket = attribute("bucket", Type::string(), true, false, false);
  bucket.description = "Where the states go";
  store.block.attributes = {bucket};
  schema.state_stores["cloud_bucket"] = store;
  const auto pages = registry_docs(
      "cloud", schema,
      {{"state-stores/cloud_bucket", "terraform {\n  state_store \"cloud_bucket\" {}\n}\n"}});
  const std::string& page = pages.at("state-stores/bucket.md");
  CHECK(page.starts_with("---\npage_title: \"cloud_bucket State Store - cloud\"\n"));
  CHECK(contains(page, "# cloud_bucket (State Store)\n\nStates in buckets\n"));
  CHECK(contains(page, "a `provider \"cloud\"` block inside it"));
  CHECK(contains(page, "## Example Usage\n\n```terraform\nterraform {\n  state_store"));
  CHECK(contains(page, "### Required\n\n- `bucket` (String) Where the states go.\n"));
}

TEST_CASE("docs name the variables a default comes from, never their values nor a secret") {
  // As the schema reader leaves a provider read where the shell holds these variables.
  ProviderSchema s;
  Attribute uri = attribute("uri", Type::string(), false, true, false);  // declared required
  uri.default_value = Value::string("https://uri-from-the-shell");
  uri.default_source = DefaultSource{{"CLOUD_URI"}, std::nullopt, true};
  Attribute token = attribute("token", Type::string(), false, true, false);
  token.sensitive = true;
  token.default_value = Value::string("tok-Cloud-0042");
  token.default_source = DefaultSource{{"CLOUD_TOKEN", "TOKEN"}, std::nullopt, false};
  Attribute region = attribute("region", Type::string(), false, true, false);
  region.default_value = Value::string("region-from-the-shell");
  region.default_source = DefaultSource{{"CLOUD_REGION"}, Value::string("eu-1"), false};
  Attribute key = attribute("key", Type::string(), false, true, false);
  key.sensitive = true;
  key.default_value = Value::string("key-from-the-shell");
  key.default_source = DefaultSource{{"CLOUD_KEY"}, Value::string("fallback-secret"), true};
  Attribute password = attribute("password", Type::string(), false, true, false);
  password.sensitive = true;
  password.default_value = Value::string("hunter2");
  Attribute zone = attribute("zone", Type::string(), false, true, false);
  zone.default_value = Value::string("zone-a-function-gave");
  zone.default_source = DefaultSource{};
  Attribute retries = attribute("retries", Type::number(), false, true, false);
  retries.default_value = Value::number(3);
  s.provider.block.attributes = {uri, token, region, key, password, zone, retries};

  const std::string index = registry_docs("cloud", s, {})["index.md"];
  INFO(index);
  for (const char* value :
       {"uri-from-the-shell", "tok-Cloud-0042", "region-from-the-shell", "key-from-the-shell",
        "fallback-secret", "hunter2", "zone-a-function-gave"}) {
    CHECK_FALSE(contains(index, value));
  }
  // Declared required without a fallback: required, whatever the shell held.
  CHECK(contains(index,
                 "### Required\n\n- `uri` (String) Defaults to the environment variable "
                 "`CLOUD_URI`.\n\n### Optional\n"));
  CHECK(contains(index,
                 "- `token` (String, Sensitive) Defaults to the first set of the environment "
                 "variables `CLOUD_TOKEN`, `TOKEN`.\n"));
  CHECK(contains(index,
                 "- `region` (String) Defaults to the environment variable `CLOUD_REGION`, else "
                 "to `\"eu-1\"`.\n"));
  CHECK(contains(index,
                 "- `key` (String, Sensitive) Defaults to the environment variable `CLOUD_KEY`, "
                 "else to a value not shown here (sensitive).\n"));
  CHECK(contains(index,
                 "- `password` (String, Sensitive) Has a default, not shown here "
                 "(sensitive).\n"));
  CHECK(contains(index,
                 "- `zone` (String) Defaults to what a function gives when the provider "
                 "loads.\n"));
  CHECK(contains(index, "- `retries` (Number) Defaults to `3`.\n"));
}
