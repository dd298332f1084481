// tf.openapi.provider: the types a description gives and the schema of each, one mapping rule
// per case, read from descriptions an author would keep in the provider directory (JSON and
// YAML, Swagger 2.0 and OpenAPI 3.x, `$ref`s inside the file and to a file beside it). The
// e2e suite test_openapi_powerdns.py serves PowerDNS's own description against its server.
#include <doctest/doctest.h>

#include "loopback_peer.h"
#include "provider_dir.h"

using namespace luaform;
using namespace luaform::lua::testing;

namespace {

const char* kProvider = R"(local tf = require("luaform")
return tf.openapi.provider { document = "api.yaml", env_prefix = "PETS" }
)";

// A Swagger 2.0 description in YAML, with an anchor, a merge key and a `$ref` to a file beside
// it, the way PowerDNS writes its own.
const char* kSwagger = R"(swagger: '2.0'
info:
  title: Pet store
  version: '1'
host: pets.example
basePath: /api/v1
schemes: [https]
securityDefinitions:
  APIKeyHeader:
    type: apiKey
    in: header
    name: X-API-Key
x-common: &owner_param
  name: owner_id
  in: path
  required: true
  type: string
paths:
  /owners/{owner_id}/pets:
    parameters:
      - *owner_param
    post:
      operationId: createPet
      parameters:
        - name: pet
          in: body
          required: true
          schema:
            $ref: '#/definitions/Pet'
      responses:
        '201':
          description: created
          schema:
            $ref: '#/definitions/Pet'
  /owners/{owner_id}/pets/{pet_id}:
    parameters:
      - *owner_param
      - name: pet_id
        in: path
        required: true
        type: string
    get:
      operationId: getPet
      summary: A pet of an owner
      responses:
        '200':
          description: the pet
          schema:
            $ref: '#/definitions/Pet'
    put:
      operationId: putPet
      parameters:
        - name: pet
          in: body
          schema:
            $ref: '#/definitions/PetChange'
      responses:
        '204':
          description: changed
    delete:
      operationId: deletePet
      responses:
        '204':
          description: deleted
  /species/{species_id}:
    get:
      operationId: getSpecies
      responses:
        '200':
          description: one species
          schema:
            $ref: 'species.yaml#/Species'
definitions:
  PetChange:
    type: object
    properties: &change
      nickName:
        type: string
        description: What the pet answers to
        maxLength: 20
      tags:
        type: array
        items:
          type: string
  Pet:
    type: object
    required: [kind]
    properties:
      <<: *change
      id:
        type: string
        readOnly: true
      kind:
        type: string
        enum: [cat, dog]
      age:
        type: integer
        minimum: 0
      chip:
        type: string
        format: password
      created:
        type: string
        readOnly: true
      attributes:
        type: object
        additionalProperties:
          type: string
      collars:
        type: object
        additionalProperties:
          type: object
          properties:
            colour:
              type: string
            fitted:
              type: string
              readOnly: true
      litters:
        type: object
        additionalProperties:
          type: array
          items:
            type: object
            properties:
              size:
                type: integer
      owner:
        type: object
        properties:
          name:
            type: string
      vaccinations:
        type: array
        items:
          type: object
          required: [vaccine]
          properties:
            vaccine:
              type: string
              enum: [rabies, distemper]
            givenAt:
              type: string
              readOnly: true
)";

const char* kSpecies = R"(Species:
  type: object
  properties:
    id:
      type: string
    latinName:
      type: string
)";

struct PetStore {
  ProviderDir dir;
  std::shared_ptr<engine::ProviderLogic> logic;
  // `served_protocol` as the host serves it (0: a command such as --schema).
  explicit PetStore(const char* provider = kProvider, int served_protocol = 0) {
    dir.write("provider.lua", provider);
    dir.write("api.yaml", kSwagger);
    dir.write("species.yaml", kSpecies);
    lua::ScriptSet scripts = dir.scripts();
    scripts.served_protocol = served_protocol;
    logic = lua::load_provider(scripts);
    REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  }
  const engine::Attribute& pet(const std::string& name) const {
    const auto* found = logic->schema().resources.at("test_pet").block.find_attribute(name);
    REQUIRE_MESSAGE(found != nullptr, "test_pet has no attribute " << name);
    return *found;
  }
};

}  // namespace

TEST_CASE("the mapping is compiled only by providers that use it") {
  // A third of the SDK's text: every state of every other provider would parse it for nothing.
  CHECK(evaluate("tostring(require('luaform').openapi and package.loaded.luaform_openapi)") ==
        "nil");
  CHECK(evaluate("type(require('luaform').openapi.provider)") == "function");
}

TEST_CASE("a collection POST with an item GET is a resource named after its schema") {
  PetStore store;
  const auto& schema = store.logic->schema();
  REQUIRE(schema.resources.contains("test_pet"));
  CHECK(schema.resources.at("test_pet").has_update);
  CHECK(schema.resources.at("test_pet").importable);
  CHECK(schema.resources.size() == 1);
}

TEST_CASE("an item GET without a POST on its collection is a data source") {
  PetStore store;
  const auto& sources = store.logic->schema().data_sources;
  REQUIRE(sources.contains("test_species"));
  const auto& block = sources.at("test_species").block;
  // The path parameter is its argument; the schema (from the file beside it) computed.
  REQUIRE(block.find_attribute("species_id") != nullptr);
  CHECK(block.find_attribute("species_id")->required);
  REQUIRE(block.find_attribute("latin_name") != nullptr);
  CHECK(block.find_attribute("latin_name")->computed);
}

TEST_CASE("the collection's path parameters are required and replace the object") {
  PetStore store;
  CHECK(store.pet("owner_id").required);
  CHECK(store.pet("owner_id").force_new);
}

TEST_CASE("required properties of the create body are required; others optional and kept") {
  PetStore store;
  CHECK(store.pet("kind").required);
  CHECK_FALSE(store.pet("kind").computed);
  CHECK(store.pet("age").optional);
  CHECK(store.pet("age").computed);
}

TEST_CASE("readOnly properties are computed, and `id` is the resource's id") {
  PetStore store;
  CHECK(store.pet("created").computed);
  CHECK_FALSE(store.pet("created").optional);
  // The id property is the resource's own id, not a second attribute beside it.
  CHECK(store.pet("id").computed);
}

TEST_CASE("names are snake_case and descriptions come from the description") {
  PetStore store;
  CHECK(store.pet("nick_name").description == "What the pet answers to");
}

TEST_CASE("format password is sensitive") {
  PetStore store;
  CHECK(store.pet("chip").sensitive);
  CHECK_FALSE(store.pet("kind").sensitive);
}

TEST_CASE("what the update body does not take replaces the object, once it was known") {
  PetStore store;
  CHECK_FALSE(store.pet("nick_name").has_requires_replace_if);
  CHECK_FALSE(store.pet("tags").has_requires_replace_if);
  REQUIRE(store.pet("kind").has_requires_replace_if);
  CHECK(store.pet("age").has_requires_replace_if);
  const engine::Value none;
  const auto replaces = [&](const engine::Value& prior, const engine::Value& planned) {
    engine::Diagnostics diags;
    const bool replaced = store.logic->open_session()->requires_replace(
        "test_pet", engine::AttributePath{engine::AttributeName{"kind"}}, prior, planned,
        {none, none, none}, diags);
    REQUIRE_MESSAGE(diags.empty(), all_text(diags));
    return replaced;
  };
  CHECK(replaces(engine::Value::string("cat"), engine::Value::string("dog")));
  // Never known (imported, or never answered): setting it changes the object in place.
  CHECK_FALSE(replaces(engine::Value::null(engine::Type::string()), engine::Value::string("dog")));
}

TEST_CASE("body parameters of the operation alone (none on the path) are the create's body") {
  ProviderDir dir;
  dir.write("provider.lua", kProvider);
  dir.write("api.yaml", R"(swagger: '2.0'
info: {title: Keys, version: '1'}
paths:
  /keys:
    post:
      parameters:
        - {name: key, in: body, required: true, schema: {$ref: '#/definitions/Key'}}
      responses:
        '201': {description: made, schema: {$ref: '#/definitions/Key'}}
  /keys/{key_id}:
    get:
      parameters:
        - {name: key_id, in: path, required: true, type: string}
      responses:
        '200': {description: the key, schema: {$ref: '#/definitions/Key'}}
definitions:
  Key:
    type: object
    required: [name]
    properties:
      id: {type: string, readOnly: true}
      name: {type: string}
)");
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  const auto& block = logic->schema().resources.at("test_key").block;
  REQUIRE(block.find_attribute("name") != nullptr);
  CHECK(block.find_attribute("name")->required);
  // No update: every argument replaces the object.
  CHECK(block.find_attribute("name")->has_requires_replace_if);
  CHECK_FALSE(logic->schema().resources.at("test_key").has_update);
}

TEST_CASE("arrays are lists, additionalProperties maps, nested objects nested attributes") {
  PetStore store;
  using engine::Type;
  CHECK(store.pet("tags").type == Type::list(Type::string()));
  CHECK(store.pet("attributes").type == Type::map(Type::string()));
  CHECK(store.pet("age").type == Type::number());
  // An object: a single nested attribute, optional and kept from what the server says.
  const engine::Attribute& owner = store.pet("owner");
  REQUIRE(owner.nested);
  CHECK(owner.nested->nesting == engine::NestingMode::Single);
  CHECK((owner.optional && owner.computed));
  REQUIRE(owner.nested->block.find_attribute("name") != nullptr);
  // A list of objects: a list nested attribute. Inside, nothing is required (the CLI would take
  // an object the server filled in for one the configuration set), read-only is computed, and
  // facets validate.
  const engine::Attribute& vaccinations = store.pet("vaccinations");
  REQUIRE(vaccinations.nested);
  CHECK(vaccinations.nested->nesting == engine::NestingMode::List);
  const engine::Attribute* vaccine = vaccinations.nested->block.find_attribute("vaccine");
  REQUIRE(vaccine != nullptr);
  CHECK((vaccine->optional && vaccine->computed && vaccine->has_validate));
  const engine::Attribute* given_at = vaccinations.nested->block.find_attribute("given_at");
  REQUIRE(given_at != nullptr);
  CHECK((given_at->computed && !given_at->optional));
  // A map of objects: a map nested attribute; a map of lists of objects has no nested
  // attribute to be, and is JSON text.
  const engine::Attribute& collars = store.pet("collars");
  REQUIRE(collars.nested);
  CHECK(collars.nested->nesting == engine::NestingMode::Map);
  const engine::Attribute* fitted = collars.nested->block.find_attribute("fitted");
  REQUIRE(fitted != nullptr);
  CHECK((fitted->computed && !fitted->optional));
  CHECK_FALSE(store.pet("litters").nested);
  CHECK(store.pet("litters").type == Type::string());
}

TEST_CASE("served over protocol 5, which has no nested attributes, nested objects are JSON text") {
  PetStore store(kProvider, 5);
  CHECK(store.pet("owner").type == engine::Type::string());
  CHECK(store.pet("vaccinations").type == engine::Type::string());
  CHECK_FALSE(store.pet("owner").nested);
  CHECK(store.pet("collars").type == engine::Type::string());
  PetStore six(kProvider, 6);
  CHECK(six.pet("owner").nested);
}

TEST_CASE("values of nested objects both ways: wire names, read-only fields, what is left out") {
  const std::string shape =
      "{ kind = 'object', properties = { { wire = 'nickName', name = 'nick_name', shape = { "
      "kind = 'string' } }, { wire = 'id', name = 'id', shape = { kind = 'string', read_only = "
      "true } }, { wire = 'tags', name = 'tags', shape = { kind = 'list', element = { kind = "
      "'string' } } } } }";
  const std::string schema = "require('luaform_openapi_schema')";
  const std::string encode = "require('luaform_json').encode";
  // From the API: attribute names; a field the answer leaves out keeps what is known.
  CHECK(evaluate(encode + "(" + schema + ".from_api(" + shape +
                 ", { nickName = 'Rex', extra = 1 }, { id = 'k1', tags = { 'a' } }))") ==
        R"({"id":"k1","nick_name":"Rex","tags":["a"]})");
  // To the API: wire names; read-only fields are not sent.
  CHECK(evaluate(encode + "(" + schema + ".to_api(" + shape +
                 ", { nick_name = 'Rex', id = 'k1', tags = { 'a' } }))") ==
        R"({"nickName":"Rex","tags":["a"]})");
  // A map of them: each element settled against the element of the same key.
  CHECK(evaluate(encode + "(" + schema + ".from_api({ kind = 'map', element = " + shape +
                 " }, { a = { nickName = 'Rex' }, b = { id = 'k9' } }, { a = { id = 'k1' } }))") ==
        R"({"a":{"id":"k1","nick_name":"Rex"},"b":{"id":"k9"}})");
}

TEST_CASE("JSON text compares a null member as one left out, and a read keeps it left out") {
  const std::string same = "require('luaform_openapi_schema').same_json(nil, ";
  CHECK(evaluate(same + R"('{"a":1,"b":null}', '{"a":1}'))") == "true");
  CHECK(evaluate(same + R"('{"a":{"b":null,"c":2}}', '{"a":{"c":2.0}}'))") == "true");
  CHECK(evaluate(same + R"('{"a":1,"b":2}', '{"a":1}'))") == "false");
  CHECK(evaluate(same + R"('[1,null]', '[1]'))") == "false");  // list elements count
  CHECK(evaluate(same + R"('not json', 'not json'))") == "false");
  // An answer's added null is left out where the configuration has no member; kept where it
  // has one.
  CHECK(evaluate(R"(require('luaform_json').encode(require('luaform_openapi_schema').settled(
    { kind = 'json' }, require('luaform_json').decode('{"a":1,"b":null,"c":{"d":null}}'),
    '{"a":1,"c":{"d":null}}')))") == R"({"a":1,"c":{"d":null}})");
}

TEST_CASE("scripts learn the protocol the provider is served with from luaform_served") {
  CHECK(evaluate("tostring(require('luaform_served').protocol)") == "nil");  // a command
  ProviderDir dir;
  dir.write("resource_probe.lua", R"(local tf = require("luaform")
local protocol = require("luaform_served").protocol
return tf.resource {
  schema = { ["p" .. protocol] = tf.string { optional = true } },
  create = function(d) d:set_id("x") end, read = function() end, delete = function() end,
}
)");
  lua::ScriptSet scripts = dir.scripts();
  scripts.served_protocol = 5;
  auto logic = lua::load_provider(scripts);
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  CHECK(logic->schema().resources.at("test_probe").block.find_attribute("p5") != nullptr);
}

TEST_CASE("enum, minimum and maxLength validate") {
  PetStore store;
  CHECK(store.pet("kind").has_validate);
  CHECK(store.pet("age").has_validate);
  CHECK(store.pet("nick_name").has_validate);
  CHECK_FALSE(store.pet("tags").has_validate);
}

TEST_CASE("pattern: the ECMA-262 patterns descriptions use are checked, anywhere unless anchored") {
  // {pattern, value, matches}; patterns and values as Lua long strings, backslashes as written.
  const std::string many_a(20000, 'a');
  const char* cases[][3] = {
      {"^[a-z0-9-]+$", "web-01", "true"},
      {"^[a-z0-9-]+$", "Web-01", "false"},
      {"^AC[0-9a-fA-F]{32}$", "AC0123456789abcdef0123456789ABCDEF", "true"},
      {"^AC[0-9a-fA-F]{32}$", "AC0123456789abcdef0123456789ABCDE", "false"},
      {"[0-9]{12,}", "account 123456789012 here", "true"},  // unanchored: anywhere
      {"[0-9]{12,}", "12345678901", "false"},
      {"^[^/]+$", "a/b", "false"},
      {R"(^\d{4}-\d{2}$)", "2026-11", "true"},
      {R"(^\S{3,5}$)", "ab c", "false"},
      {R"(^[-._\w]+$)", "a.b_c-d", "true"},
      {R"(^[-._\w]+$)", "a b", "false"},
      {R"([^\u0000-\u001F\u007F]+)", "text", "true"},
      {R"(^[^\u0000-\u001F\u007F]+$)", "line\nbreak", "false"},
      {"^.+$", "", "false"},
      {".*", "", "true"},
      {R"(^caf\u00e9$)", "café", "true"},
      {"^a{2,3}?$", "aaaa", "false"},
      {R"(^x\.y$)", "x.y", "true"},
      {R"(^x\.y$)", "xzy", "false"},
      {"^[a-z]{1,63}$", "", "false"},
      {"^ab*c?$", "abbb", "true"},
      {"{x}", "a{x}", "true"},  // a brace that is no count stands for itself
      // Every place is followed at once: no backtracking to blow up.
      {"^a*a*a*a*a*a*a*a*b$", many_a.c_str(), "false"},
  };
  for (const auto& c : cases) {
    CAPTURE(c[0]);
    CAPTURE(c[1]);
    const std::string expression =
        "require('luaform_openapi_pattern').matches(require('luaform_openapi_pattern').compile("
        "[==[" +
        std::string(c[0]) + "]==]), [==[" + std::string(c[1]) + "]==])";
    CHECK(evaluate("tostring(" + expression + ")") == c[2]);
  }
  // What it cannot read, it says.
  const char* unread[][2] = {
      {"^(a|b)$", "it uses groups"},
      {"^a|b$", "it uses alternation"},
      {R"(\bword)", "it uses \\b"},
      {"^[a-z", "a [ is not closed"},
      {"^a{3,1}$", "a count {n,m} has m below n"},
      {"^.{0,5000}$", "its counts spell out more than 4096 places"},
  };
  for (const auto& c : unread) {
    CAPTURE(c[0]);
    CHECK(evaluate("select(2, require('luaform_openapi_pattern').compile([==[" + std::string(c[0]) +
                   "]==]))") == c[1]);
  }
}

TEST_CASE("a property's pattern validates its attribute; one not read is a note of --check") {
  ProviderDir dir;
  dir.write("provider.lua", R"(local tf = require("luaform")
return tf.openapi.provider { document = "api.json" }
)");
  dir.write("api.json", R"({"openapi": "3.0.3", "info": {"title": "Hosts", "version": "1"},
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
    "name": {"type": "string", "pattern": "^[a-z][a-z0-9-]{0,62}$"},
    "arn": {"type": "string", "pattern": "^arn:(aws|aws-cn):.*$"}}}}}})");
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  const auto& block = logic->schema().resources.at("test_host").block;
  CHECK(block.find_attribute("name")->has_validate);
  CHECK_FALSE(block.find_attribute("arn")->has_validate);
  std::string notes;
  for (const std::string& note : logic->load_notes()) notes += note + "\n";
  CHECK_MESSAGE(notes.find("api.json: paths./hosts.post: attribute arn: its pattern "
                           "^arn:(aws|aws-cn):.*$ is not checked (it uses groups); the server "
                           "checks it") != std::string::npos,
                notes);
}

TEST_CASE("--check names the script that calls an operation no type claims") {
  ProviderDir dir;
  dir.write("provider.lua", R"(local tf = require("luaform")
return tf.openapi.provider { document = "api.json" }
)");
  dir.write("api.json", R"({"openapi": "3.0.3", "info": {"title": "Hosts", "version": "1"},
  "paths": {
    "/hosts/{id}/restart": {"parameters": [{"name": "id", "in": "path", "required": true,
        "schema": {"type": "string"}}],
      "post": {"operationId": "restartHost", "responses": {"204": {"description": "done"}}}},
    "/hosts/{id}/drain": {"parameters": [{"name": "id", "in": "path", "required": true,
        "schema": {"type": "string"}}],
      "post": {"operationId": "drainHost", "responses": {"204": {"description": "done"}}}}}})");
  // Not loaded as a script (lib/ holds modules): only read for the names it calls.
  dir.write("lib/restart.lua", R"(return function(api, id) api:call("restartHost", { id = id }) end
)");
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  std::string notes;
  for (const std::string& note : logic->load_notes()) notes += note + "\n";
  CHECK_MESSAGE(notes.find("api.json: paths./hosts/{id}/restart.post (restartHost): called by "
                           "name in lib/restart.lua") != std::string::npos,
                notes);
  CHECK_MESSAGE(notes.find("api.json: paths./hosts/{id}/drain.post (drainHost): no type: ") !=
                    std::string::npos,
                notes);
}

TEST_CASE("the provider block: the base URL and each credential, from the environment") {
  PetStore store;
  const auto& block = store.logic->schema().provider.block;
  REQUIRE(block.find_attribute("base_url") != nullptr);
  REQUIRE(block.find_attribute("api_key_header") != nullptr);
  CHECK(block.find_attribute("api_key_header")->sensitive);
  CHECK(block.find_attribute("api_key_header")->default_source.has_value());
}

TEST_CASE("the mapping's options: an attribute's options, and a type left out") {
  PetStore store(R"(local tf = require("luaform")
return tf.openapi.provider {
  document = "api.yaml",
  resources = { pet = { attributes = { age = { force_new = false }, chip = false } } },
  data_sources = { species = false },
}
)");
  CHECK_FALSE(store.pet("age").has_requires_replace_if);
  CHECK(store.logic->schema().resources.at("test_pet").block.find_attribute("chip") == nullptr);
  CHECK_FALSE(store.logic->schema().data_sources.contains("test_species"));
}

TEST_CASE("set = true makes an array a set, of values or of objects; on no array, an error") {
  PetStore store(R"(local tf = require("luaform")
return tf.openapi.provider {
  document = "api.yaml",
  resources = { pet = { attributes = { tags = { set = true }, vaccinations = { set = true } } } },
}
)",
                 6);
  CHECK(store.pet("tags").type == engine::Type::set(engine::Type::string()));
  REQUIRE(store.pet("vaccinations").nested);
  CHECK(store.pet("vaccinations").nested->nesting == engine::NestingMode::Set);

  ProviderDir dir;
  dir.write("provider.lua", R"(local tf = require("luaform")
return tf.openapi.provider {
  document = "api.yaml",
  resources = { pet = { attributes = { age = { set = true } } } },
}
)");
  dir.write("api.yaml", kSwagger);
  dir.write("species.yaml", kSpecies);
  auto logic = dir.load();
  const std::string errors = all_text(logic->load_diagnostics());
  CHECK_MESSAGE(errors.find("attribute age: set = true needs an array; the description states a "
                            "number") != std::string::npos,
                errors);
}

TEST_CASE("a script file of the same type replaces the mapped one") {
  ProviderDir dir;
  dir.write("provider.lua", kProvider);
  dir.write("api.yaml", kSwagger);
  dir.write("species.yaml", kSpecies);
  dir.write("resource_pet.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = { mine = tf.string { optional = true } },
  create = function(d) d:set_id("x") end,
  read = function() end,
  delete = function() end,
}
)");
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  const auto& block = logic->schema().resources.at("test_pet").block;
  CHECK(block.find_attribute("mine") != nullptr);
  CHECK(block.find_attribute("kind") == nullptr);
}

TEST_CASE("an OpenAPI 3.1 description in JSON: anyOf with null is nullable, servers give the URL") {
  ProviderDir dir;
  dir.write("provider.lua", R"(local tf = require("luaform")
return tf.openapi.provider { document = "api.json" }
)");
  dir.write("api.json", R"({
  "openapi": "3.1.0",
  "info": {"title": "Vars", "version": "1"},
  "servers": [{"url": "http://{host}:4200/api", "variables": {"host": {"default": "localhost"}}}],
  "paths": {
    "/variables/": {"post": {"operationId": "create_variable",
      "requestBody": {"required": true, "content": {"application/json": {"schema":
        {"$ref": "#/components/schemas/VariableCreate"}}}},
      "responses": {"201": {"description": "ok", "content": {"application/json": {"schema":
        {"$ref": "#/components/schemas/Variable"}}}}}}},
    "/variables/{id}": {
      "get": {"operationId": "read_variable",
        "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
        "responses": {"200": {"description": "ok", "content": {"application/json": {"schema":
          {"$ref": "#/components/schemas/Variable"}}}}}},
      "patch": {"operationId": "update_variable",
        "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
        "requestBody": {"content": {"application/json": {"schema":
          {"$ref": "#/components/schemas/VariableUpdate"}}}},
        "responses": {"204": {"description": "done"}}},
      "delete": {"operationId": "delete_variable",
        "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
        "responses": {"204": {"description": "done"}}}}
  },
  "components": {"schemas": {
    "VariableCreate": {"type": "object", "required": ["name", "value"], "properties": {
      "name": {"type": "string", "maxLength": 255},
      "value": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]},
      "tags": {"type": "array", "items": {"type": "string"}}}},
    "VariableUpdate": {"type": "object", "properties": {
      "name": {"anyOf": [{"type": "string"}, {"type": "null"}]},
      "value": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]},
      "tags": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]}}},
    "Variable": {"type": "object", "properties": {
      "id": {"type": "string", "format": "uuid"},
      "created": {"anyOf": [{"type": "string", "format": "date-time"}, {"type": "null"}]},
      "name": {"type": "string"},
      "value": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]},
      "tags": {"type": "array", "items": {"type": "string"}}}}
  }}
})");
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  const auto& block = logic->schema().resources.at("test_variable").block;
  using engine::Type;
  CHECK(block.find_attribute("name")->required);
  CHECK_FALSE(block.find_attribute("name")->force_new);
  // Two alternatives besides null: kept as JSON text.
  CHECK(block.find_attribute("value")->type == Type::string());
  CHECK(block.find_attribute("tags")->type == Type::list(Type::string()));
  CHECK(block.find_attribute("created")->computed);
  const auto* base_url = logic->schema().provider.block.find_attribute("base_url");
  REQUIRE(base_url != nullptr);
  CHECK(base_url->description.find("http://localhost:4200/api") != std::string::npos);
}

TEST_CASE("a description that cannot be read is a load error naming the file and the line") {
  ProviderDir dir;
  dir.write("provider.lua", kProvider);
  dir.write("api.yaml", "swagger: '2.0'\npaths:\n  /a: [unclosed\n");
  auto logic = dir.load();
  const std::string text = all_text(logic->load_diagnostics());
  CHECK(text.find("api.yaml") != std::string::npos);
  CHECK(text.find("line") != std::string::npos);
}

TEST_CASE("a `$ref` to nothing is a load error naming the reference") {
  ProviderDir dir;
  dir.write("provider.lua", kProvider);
  std::string broken = kSwagger;
  broken.replace(broken.find("species.yaml#/Species"), 21, "species.yaml#/Nothing");
  dir.write("api.yaml", broken);
  dir.write("species.yaml", kSpecies);
  auto logic = dir.load();
  const std::string text = all_text(logic->load_diagnostics());
  CHECK(text.find("species.yaml#/Nothing") != std::string::npos);
}

TEST_CASE("a document outside the provider directory is refused") {
  ProviderDir dir;
  dir.write("provider.lua", R"(local tf = require("luaform")
return tf.openapi.provider { document = "../elsewhere.yaml" }
)");
  auto logic = dir.load();
  CHECK(all_text(logic->load_diagnostics()).find("not a path inside the provider directory") !=
        std::string::npos);
}

TEST_CASE("a parent parameter named id is named after its collection; trailing slashes match") {
  // GitLab's shape (/groups/{id}/members), with an item path written with a trailing slash as
  // NetBox writes them: the same types on every load (the corpus once found them vary).
  ProviderDir dir;
  dir.write("provider.lua", kProvider);
  dir.write("api.yaml", R"(swagger: '2.0'
info: {title: Groups, version: '1'}
paths:
  /groups/{id}/members/:
    parameters: [{name: id, in: path, required: true, type: string}]
    post:
      parameters:
        - {name: m, in: body, required: true, schema: {$ref: '#/definitions/Member'}}
      responses:
        '201': {description: made, schema: {$ref: '#/definitions/Member'}}
  /groups/{id}/members/{user_id}/:
    parameters:
      - {name: id, in: path, required: true, type: string}
      - {name: user_id, in: path, required: true, type: string}
    get:
      responses:
        '200': {description: one, schema: {$ref: '#/definitions/Member'}}
    delete:
      responses:
        '204': {description: gone}
definitions:
  Member:
    type: object
    properties:
      user_id: {type: string}
      access_level: {type: integer}
)");
  for (int load = 0; load < 5; ++load) {
    auto logic = dir.load();
    REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
    REQUIRE(logic->schema().resources.contains("test_member"));
    const auto& block = logic->schema().resources.at("test_member").block;
    REQUIRE(block.find_attribute("group_id") != nullptr);
    CHECK(block.find_attribute("group_id")->required);
    REQUIRE(logic->schema().resources.at("test_member").identity.has_value());
    CHECK(logic->schema().list_resources.empty());  // no GET of the collection
  }
}

namespace {

// What `call` (a Lua statement using `api`) raises in the create of a hand-written type beside
// the pet store's mapped ones, as raised ("resource_probe.lua:4: ..."); the provider is
// configured with a base URL where nothing listens (by default), so a call that fails a check
// raises before it sends anything.
std::string raised_by(const std::string& call,
                      const std::string& base_url = "http://127.0.0.1:9/api") {
  ProviderDir dir;
  dir.write("provider.lua", kProvider);
  dir.write("api.yaml", kSwagger);
  dir.write("species.yaml", kSpecies);
  dir.write("resource_probe.lua",
            "local tf = require(\"luaform\")\nreturn tf.resource {\n"
            "  schema = {}, create = function(d, api)\n    " +
                call +
                "\n  end,\n  read = function() end, delete = function() "
                "end,\n}\n");
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  const engine::Type config = logic->schema().provider.block.implied_type();
  // Port 9 on loopback (discard) has no listener here: the connection is refused at once.
  const engine::Diagnostics configured = logic->configure(
      engine::Value::object(config, {{"base_url", engine::Value::string(base_url)}}));
  REQUIRE_MESSAGE(!configured.has_errors(), all_text(configured));
  Instance i(*logic, "test_probe");
  engine::ResourceData d(i.schema, i.null(), i.null(), i.null());
  auto diags = logic->open_session()->call(engine::Operation::Create, "test_probe", d);
  REQUIRE(diags.has_errors());
  return as_raised(diags.items()[0]);
}

// The request line a call that passes every check sends: a peer on loopback answers it 404.
std::string request_line_of(const std::string& call) {
  std::string line;
  Peer peer([&line](int fd) {
    line = read_line(fd);
    while (read_line(fd) != "\r") {
    }
    write_all(fd, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
  });
  const std::string raised =
      raised_by(call, "http://127.0.0.1:" + std::to_string(peer.port()) + "/api");
  CHECK_MESSAGE(raised.find("answered 404") != std::string::npos, raised);
  return line;
}

}  // namespace

TEST_CASE("api:call checks the operation, its parameters and its body before it sends them") {
  const char* cases[][2] = {
      {R"(api:call("getPets"))", "resource_probe.lua:4: api.yaml has no operation \"getPets\""},
      {R"(api:call("getPet", { owner_id = "o" }))",
       "resource_probe.lua:4: getPet needs its path parameter pet_id"},
      {R"(api:call("getPet", { owner_id = "o", pet_id = "p", colour = "red" }))",
       "resource_probe.lua:4: getPet has no parameter \"colour\" (its parameters: owner_id, "
       "pet_id)"},
      {R"(api:call("getPet", { owner_id = {}, pet_id = "p" }))",
       "resource_probe.lua:4: getPet parameter owner_id must be a string, number or boolean, "
       "not a table"},
      {R"(api:call("getPet", { owner_id = "o", pet_id = "p" }, { x = 1 }))",
       "resource_probe.lua:4: getPet takes no body (paths./owners/{owner_id}/pets/{pet_id}.get)"},
      // A typo in a field's name, named with the schema and the fields it has.
      {R"(api:call("putPet", { owner_id = "o", pet_id = "p" }, { nick_name = "Rex" }))",
       "resource_probe.lua:4: putPet: body.nick_name: PetChange states no field \"nick_name\" "
       "(its fields: nickName, tags)"},
      {R"(api:call("putPet", { owner_id = "o", pet_id = "p" }, { nickName = 7 }))",
       "resource_probe.lua:4: putPet: body.nickName is a number; the description states a "
       "string"},
      {R"(api:call("putPet", { owner_id = "o", pet_id = "p" }, { tags = { "a", true } }))",
       "resource_probe.lua:4: putPet: body.tags[2] is a boolean; the description states a "
       "string"},
      {R"(api:call("putPet", { owner_id = "o", pet_id = "p" }, { tags = "a" }))",
       "resource_probe.lua:4: putPet: body.tags is a string; the description states a list"},
      {R"(api:call("createPet", { owner_id = "o" }, { kind = "cat", owner = { nam = "x" } }))",
       "resource_probe.lua:4: createPet: body.owner.nam: the object states no field \"nam\" "
       "(its fields: name)"},
      {R"(api:call("createPet", { owner_id = "o" }))",
       "resource_probe.lua:4: createPet needs a body "
       "(paths./owners/{owner_id}/pets.post)"},
      {R"(api:call("getPet", { owner_id = "o", pet_id = "p" }, nil, { poll = { origins = { "jobs" } } }))",
       "resource_probe.lua:4: getPet: poll.origins: \"jobs\" is not an origin (a scheme and a "
       "host, such as \"https://jobs.example.com\")"},
  };
  for (const auto& c : cases) {
    const char* call = c[0];
    const char* expected = c[1];
    CAPTURE(call);
    CHECK(raised_by(call) == expected);
  }
}

TEST_CASE("api:call sends what passed its checks to the operation's path, escaped") {
  CHECK(request_line_of(R"(api:call("getPet", { owner_id = "o w", pet_id = 5 }))") ==
        "GET /api/owners/o%20w/pets/5 HTTP/1.1\r");
  // Fields of a map (additionalProperties) and of a merged schema pass; { check = false }
  // sends a body the description does not describe.
  CHECK(
      request_line_of(
          R"(api:call("createPet", { owner_id = "o" }, { kind = "cat", attributes = { any = "x" } }))") ==
      "POST /api/owners/o/pets HTTP/1.1\r");
  CHECK(
      request_line_of(
          R"(api:call("putPet", { owner_id = "o", pet_id = "p" }, { extra = 1 }, { check = false }))") ==
      "PUT /api/owners/o/pets/p HTTP/1.1\r");
}

TEST_CASE("a secret the API answers masked keeps the value the plan or the state has") {
  // Prefect answers a block document's secret fields as "********": a read that took that
  // would plan to send the secret again on every plan.
  const std::string unmasked = R"(require('luaform_json').encode(
    require('luaform_openapi_schema').settled({ kind = 'json' },
      { value = '********', user = 'new', nested = { key = '***', plain = 'x' }, list = { '****' } },
      '{"value":"s1","user":"old","nested":{"key":"k1"},"list":["l1"]}')))";
  CHECK(evaluate(unmasked) ==
        R"({"list":["l1"],"nested":{"key":"k1","plain":"x"},"user":"new","value":"s1"})");
  // Nothing known, or a mask known: the mask stays; two asterisks are no mask.
  CHECK(
      evaluate("require('luaform_openapi_schema').settled({ kind = 'string' }, '********', nil)") ==
      "********");
  CHECK(evaluate("require('luaform_openapi_schema').settled({ kind = 'string' }, '***', '***')") ==
        "***");
  // "" is what d:get gives for a computed value not known yet: no value to keep.
  CHECK(
      evaluate("require('luaform_openapi_schema').settled({ kind = 'string' }, '********', '')") ==
      "********");
  CHECK(evaluate("require('luaform_openapi_schema').holds_mask({ a = { b = '**' } })") == "false");
  CHECK(evaluate("require('luaform_openapi_schema').holds_mask({ a = { '***' } })") == "true");
}

TEST_CASE("nesting sets how many levels of objects are nested attributes") {
  PetStore flat(R"(local tf = require("luaform")
return tf.openapi.provider { document = "api.yaml", nesting = 0 }
)");
  CHECK(flat.pet("owner").type == engine::Type::string());
  CHECK_FALSE(flat.pet("owner").nested);
  ProviderDir dir;
  dir.write("provider.lua", R"(local tf = require("luaform")
return tf.openapi.provider { document = "api.yaml", nesting = "deep" }
)");
  dir.write("api.yaml", kSwagger);
  dir.write("species.yaml", kSpecies);
  CHECK(all_text(dir.load()->load_diagnostics()).find("nesting must be a whole number of levels") !=
        std::string::npos);
  // Called as a statement of its own, the option's error names the script's line, not the
  // SDK's (it once named luaform_openapi.lua's).
  ProviderDir named;
  named.write("provider.lua", R"(local tf = require("luaform")
local provider = tf.openapi.provider { document = "api.yaml", nesting = "deep" }
return provider
)");
  named.write("api.yaml", kSwagger);
  named.write("species.yaml", kSpecies);
  const std::string text = all_text(named.load()->load_diagnostics());
  CHECK_MESSAGE(text.find("provider.lua:2: tf.openapi.provider: nesting must be a whole number") !=
                    std::string::npos,
                text);
}

TEST_CASE("depth and a type's id are checked where the provider is declared") {
  const char* cases[][2] = {
      {"depth = 1.5", "tf.openapi.provider: depth must be a whole number of $ref levels"},
      {"depth = -1", "tf.openapi.provider: depth must be a whole number of $ref levels"},
      {"resources = { pet = { depth = \"all\" } }",
       "tf.openapi.provider: resources.pet.depth must be a whole number of $ref levels"},
      {"resources = { pet = { id = function() return 'x' end } }",
       "tf.openapi.provider: resources.pet.id must be the name of the field that holds the id"},
  };
  for (const auto& c : cases) {
    CAPTURE(c[0]);
    ProviderDir dir;
    // Not a tail call, which would leave no line to name.
    dir.write("provider.lua",
              std::string("local tf = require(\"luaform\")\n"
                          "local p = tf.openapi.provider { document = \"api.yaml\", ") +
                  c[0] + " }\nreturn p\n");
    dir.write("api.yaml", kSwagger);
    dir.write("species.yaml", kSpecies);
    const std::string text = all_text(dir.load()->load_diagnostics());
    CHECK_MESSAGE(text.find(std::string("provider.lua:2: ") + c[1]) != std::string::npos, text);
  }
}

TEST_CASE("Speakeasy's and terraform-provider-openapi's annotations are honoured") {
  ProviderDir dir;
  dir.write("provider.lua", kProvider);
  dir.write("api.yaml", R"(openapi: 3.0.0
info: {title: Shop, version: '1'}
paths:
  /orders:
    post:
      x-speakeasy-entity-operation: Purchase#create
      requestBody:
        content: {application/json: {schema: {$ref: '#/components/schemas/Order'}}}
      responses:
        '201':
          description: made
          content: {application/json: {schema: {$ref: '#/components/schemas/Order'}}}
  /orders/{order_id}:
    parameters: [{name: order_id, in: path, required: true, schema: {type: string}}]
    get:
      responses:
        '200':
          description: one
          content: {application/json: {schema: {$ref: '#/components/schemas/Order'}}}
    put:
      requestBody:
        content: {application/json: {schema: {$ref: '#/components/schemas/Order'}}}
      responses: {'204': {description: changed}}
    delete:
      x-speakeasy-ignore: true
      responses: {'204': {description: gone}}
  /carts:
    post:
      x-terraform-exclude-resource: true
      responses: {'201': {description: made}}
  /carts/{cart_id}:
    parameters: [{name: cart_id, in: path, required: true, schema: {type: string}}]
    get:
      responses: {'200': {description: one}}
components:
  schemas:
    Order:
      type: object
      required: [item, code]
      properties:
        ref: {type: string, readOnly: true, x-terraform-id: true}
        item: {type: string, x-speakeasy-param-force-new: true}
        code: {type: string, x-speakeasy-param-optional: true}
        note: {type: string, x-speakeasy-name-override: remark}
        secret: {type: string, x-terraform-sensitive: true}
        total: {type: number, x-speakeasy-param-readonly: true}
        internal: {type: string, x-speakeasy-ignore: true}
)");
  // The id field an annotation marks, as the mapping finds it (named in a schema attribute).
  dir.write("resource_probe.lua", R"(local tf = require("luaform")
local document = require("luaform_openapi_document")
local types = require("luaform_openapi_types")
local doc = document.open("api.yaml")
local plan = types.plan(doc).resources.purchase
return tf.resource {
  schema = {
    ["id_in_" .. types.id_field(doc, plan)] = tf.string { optional = true },
    ["deletes_" .. tostring(plan.operations.delete ~= nil)] = tf.string { optional = true },
  },
  create = function(d) d:set_id("x") end, read = function() end, delete = function() end,
}
)");
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  const auto& schema = logic->schema();
  CHECK(schema.resources.at("test_probe").block.find_attribute("id_in_ref") != nullptr);
  CHECK(schema.resources.at("test_probe").block.find_attribute("deletes_false") != nullptr);
  // Named by its entity; the excluded type is neither a resource nor a data source.
  REQUIRE(schema.resources.contains("test_purchase"));
  CHECK_FALSE(schema.resources.contains("test_order"));
  CHECK(schema.resources.at("test_purchase").has_update);
  CHECK_FALSE(schema.resources.contains("test_cart"));
  CHECK_FALSE(schema.data_sources.contains("test_cart"));
  const engine::Block& block = schema.resources.at("test_purchase").block;
  auto attribute = [&](const char* name) -> const engine::Attribute& {
    const engine::Attribute* found = block.find_attribute(name);
    REQUIRE_MESSAGE(found != nullptr, "test_purchase has no attribute " << name);
    return *found;
  };
  CHECK(attribute("item").required);
  CHECK(attribute("item").has_requires_replace_if);  // the PUT takes it; the annotation says no
  CHECK_FALSE(attribute("remark").has_requires_replace_if);
  CHECK((attribute("code").optional && !attribute("code").required));
  CHECK(block.find_attribute("note") == nullptr);
  CHECK(attribute("remark").optional);
  CHECK(attribute("secret").sensitive);
  CHECK((attribute("total").computed && !attribute("total").optional));
  CHECK(block.find_attribute("internal") == nullptr);
}
