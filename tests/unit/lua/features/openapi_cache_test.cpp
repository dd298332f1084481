// tf.openapi.provider's model kept between starts (lua-sdk/luaform_openapi_cache.lua): a second
// start serves what the first mapped, and nothing it kept outlives a change of what it was made
// from (the description, a file its `$ref`s name, the options the mapping reads), a broken entry
// or a cache that cannot be written.
//
// This file also points LUAFORM_OPENAPI_CACHE at a directory of this process's own for the
// whole lua_tests binary (removed at exit), so that no test writes the user's cache, and the
// other tests of mapped providers meet both starts: the first load of a description maps it,
// the next ones read the kept model.
#include <doctest/doctest.h>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "provider_dir.h"

using namespace luaform;
using namespace luaform::lua::testing;
namespace fs = std::filesystem;

namespace {

// The binary's own cache directory, set before any test runs.
struct ProcessCache {
  fs::path dir =
      fs::temp_directory_path() / ("luaform-lua-test-openapi-cache-" + std::to_string(getpid()));
  ProcessCache() {
    fs::remove_all(dir);
    ::setenv("LUAFORM_OPENAPI_CACHE", dir.c_str(), 1);
  }
  ~ProcessCache() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  ProcessCache(const ProcessCache&) = delete;
  ProcessCache& operator=(const ProcessCache&) = delete;
};
const ProcessCache process_cache;

// LUAFORM_OPENAPI_CACHE set to `value` while the object lives, then the process's again.
struct CacheSetting {
  explicit CacheSetting(const std::string& value) {
    ::setenv("LUAFORM_OPENAPI_CACHE", value.c_str(), 1);
  }
  ~CacheSetting() { ::setenv("LUAFORM_OPENAPI_CACHE", process_cache.dir.c_str(), 1); }
  CacheSetting(const CacheSetting&) = delete;
  CacheSetting& operator=(const CacheSetting&) = delete;
};

const char* kProvider = R"(local tf = require("luaform")
return tf.openapi.provider { document = "api.json" }
)";

// A host with a shape from a file beside the description (`$ref` to "shapes.json").
std::string description(const std::string& name_description = "The host's name") {
  return R"({"openapi": "3.0.3", "info": {"title": "Hosts", "version": "1"},
  "paths": {
    "/hosts": {"post": {"operationId": "createHost", "requestBody": {"content":
      {"application/json": {"schema": {"$ref": "#/components/schemas/Host"}}}},
      "responses": {"201": {"description": "made", "content":
        {"application/json": {"schema": {"$ref": "#/components/schemas/Host"}}}}}}},
    "/hosts/{id}": {"parameters": [{"name": "id", "in": "path", "required": true,
        "schema": {"type": "string"}}],
      "get": {"operationId": "getHost", "responses": {"200": {"description": "the host",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Host"}}}}}}}},
  "components": {"schemas": {"Host": {"type": "object", "properties": {
    "id": {"type": "string", "readOnly": true},
    "name": {"type": "string", "description": ")" +
         name_description + R"("},
    "size": {"$ref": "shapes.json#/Size"}}}}}})";
}

const char* kShapes = R"({"Size": {"type": "integer", "description": "Cores"}})";

// The files in `dir`, by name.
std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    names.push_back(entry.path().filename().string());
  }
  return names;
}

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A provider directory with the description and its side file, and a cache of its own.
struct Hosts {
  ProviderDir dir;
  ProviderDir cache;
  CacheSetting setting{cache.path().string()};
  explicit Hosts(const std::string& provider = kProvider) {
    dir.write("provider.lua", provider);
    dir.write("api.json", description());
    dir.write("shapes.json", kShapes);
  }
  std::shared_ptr<engine::ProviderLogic> load() const {
    auto logic = dir.load();
    REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
    return logic;
  }
  static const engine::Attribute* attribute(const engine::ProviderLogic& logic,
                                            const std::string& name) {
    return logic.schema().resources.at("test_host").block.find_attribute(name);
  }
  static std::string described(const engine::ProviderLogic& logic, const std::string& name) {
    const engine::Attribute* found = attribute(logic, name);
    REQUIRE_MESSAGE(found != nullptr, "test_host has no attribute " << name);
    return found->description;
  }
};

}  // namespace

TEST_CASE("a mapped provider's second start serves the model its first start kept") {
  Hosts hosts;
  CHECK(Hosts::described(*hosts.load(), "name") == "The host's name");
  const std::vector<std::string> kept = entries(hosts.cache.path());
  REQUIRE(kept.size() == 1);
  // The entry is what the next start serves: a word changed in it shows in the schema, with
  // the description untouched.
  const fs::path entry = hosts.cache.path() / kept[0];
  std::string text = read_text(entry);
  const size_t at = text.find("The host's name");
  REQUIRE(at != std::string::npos);
  text.replace(at, 15, "The kept's name");
  std::ofstream(entry, std::ios::binary) << text;
  auto logic = hosts.load();
  CHECK(Hosts::described(*logic, "name") == "The kept's name");
  CHECK(Hosts::described(*logic, "size") == "Cores");
  CHECK(entries(hosts.cache.path()).size() == 1);
}

TEST_CASE("a changed description, file its $ref names, or option is mapped again") {
  Hosts hosts;
  hosts.load();
  SUBCASE("the description") {
    hosts.dir.write("api.json", description("What the host is called"));
    CHECK(Hosts::described(*hosts.load(), "name") == "What the host is called");
  }
  SUBCASE("a file beside it") {
    hosts.dir.write("shapes.json", R"({"Size": {"type": "integer", "description": "vCPUs"}})");
    CHECK(Hosts::described(*hosts.load(), "size") == "vCPUs");
  }
  SUBCASE("an option the mapping reads: the field that holds the id") {
    hosts.dir.write("provider.lua", R"(local tf = require("luaform")
return tf.openapi.provider { document = "api.json", resources = { host = { id = "name" } } }
)");
    CHECK(Hosts::attribute(*hosts.load(), "name") != nullptr);
    CHECK(entries(hosts.cache.path()).size() == 2);
  }
  SUBCASE("an option made when the types are, which needs no new model") {
    hosts.dir.write("provider.lua", R"(local tf = require("luaform")
return tf.openapi.provider { document = "api.json", resources = { host = {
  attributes = { size = false } } } }
)");
    CHECK(Hosts::attribute(*hosts.load(), "size") == nullptr);
    CHECK(entries(hosts.cache.path()).size() == 1);
  }
}

TEST_CASE("a kept entry that cannot be read is mapped again and written anew") {
  Hosts hosts;
  hosts.load();
  const fs::path entry = hosts.cache.path() / entries(hosts.cache.path()).at(0);
  const std::string whole = read_text(entry);
  for (const std::string& broken :
       {std::string("garbage {"), whole.substr(0, whole.size() / 2), std::string("return 42"),
        std::string("return {}"), std::string()}) {
    CAPTURE(broken.substr(0, 40));
    std::ofstream(entry, std::ios::binary | std::ios::trunc) << broken;
    CHECK(Hosts::described(*hosts.load(), "name") == "The host's name");
    // Written anew (its tables in another order, maybe: Lua's hashes are seeded per start).
    const std::string rewritten = read_text(entry);
    CHECK(rewritten.starts_with("local T = {}"));
    CHECK(rewritten.size() > whole.size() * 9 / 10);
  }
}

TEST_CASE("a cache that cannot be written, or is turned off, is no error") {
  ProviderDir dir;
  dir.write("provider.lua", kProvider);
  dir.write("api.json", description());
  dir.write("shapes.json", kShapes);
  const fs::path blocked = dir.write("not-a-directory", "a file where the cache would go");
  for (const std::string& setting : {(blocked / "openapi").string(), std::string("off")}) {
    CAPTURE(setting);
    CacheSetting cache(setting);
    for (int start = 0; start < 2; ++start) {
      auto logic = dir.load();
      REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
      CHECK(Hosts::described(*logic, "name") == "The host's name");
    }
  }
  CHECK(fs::is_regular_file(blocked));
}

TEST_CASE("a script's api:call reads the description when the model came from the cache") {
  Hosts hosts;
  hosts.dir.write("resource_probe.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = {},
  create = function(d, api)
    api:call("getHost", {})
  end,
  read = function() end, delete = function() end,
}
)");
  hosts.load();
  auto logic = hosts.load();  // the kept model: the description is not read while loading
  const engine::Type config = logic->schema().provider.block.implied_type();
  const engine::Diagnostics configured = logic->configure(engine::Value::object(
      config, {{"base_url", engine::Value::string("http://127.0.0.1:9/api")}}));
  REQUIRE_MESSAGE(!configured.has_errors(), all_text(configured));
  Instance i(*logic, "test_probe");
  engine::ResourceData d(i.schema, i.null(), i.null(), i.null());
  auto diags = logic->open_session()->call(engine::Operation::Create, "test_probe", d);
  REQUIRE(diags.has_errors());
  CHECK(as_raised(diags.items()[0]) == "resource_probe.lua:5: getHost needs its path parameter id");
}

TEST_CASE("entries not written for 30 days are removed when another is written") {
  Hosts hosts;
  const fs::path old = hosts.cache.write("0000000000000000-old.lua", "return {}");
  const fs::path recent = hosts.cache.write("0000000000000000-recent.lua", "return {}");
  fs::last_write_time(old, fs::file_time_type::clock::now() - std::chrono::hours(24 * 31));
  hosts.load();
  CHECK_FALSE(fs::exists(old));
  CHECK(fs::exists(recent));
  CHECK(entries(hosts.cache.path()).size() == 2);
}

TEST_CASE("an SDK module the provider directory carries in place of the host's makes its own") {
  Hosts hosts;
  hosts.load();
  // The host's own module, one comment longer: the mapping it runs may differ in any byte.
  const std::string types =
      read_text(fs::path(LUAFORM_SOURCE_DIR) / "lua-sdk" / "luaform_openapi_types.lua");
  REQUIRE(!types.empty());
  hosts.dir.write("lua-sdk/luaform_openapi_types.lua", types + "-- the provider's own copy\n");
  CHECK(Hosts::described(*hosts.load(), "name") == "The host's name");
  CHECK(entries(hosts.cache.path()).size() == 2);
  hosts.load();
  CHECK(entries(hosts.cache.path()).size() == 2);
}
