// A resource script's identity: how it is declared and checked at load, what d:identity and
// d:set_identity do, and the identity upgrade functions.
#include <doctest/doctest.h>

#include "provider_dir.h"

using namespace luaform;
using namespace luaform::lua::testing;

namespace {

const char* kNoteWithIdentity = R"(local tf = require("luaform")
return tf.resource {
  schema = { name = tf.string { required = true }, region = tf.string { optional = true } },
  identity = {
    version = 2,
    schema = {
      name = tf.string { required_for_import = true, description = "The note's name" },
      region = tf.string { optional_for_import = true },
      shard = tf.number { optional_for_import = true },
    },
    upgrade = {
      [0] = function(raw) return { name = raw.title } end,
      [1] = function(raw, client) raw.region = client == nil and "no client" or "?" return raw end,
    },
  },
  create = function(d)
    d:set_id("n1")
    local given = d:identity()
    d:set_identity { shard = given == nil and 7 or -1 }
  end,
  read = function() end, delete = function() end,
  import = function(d)
    local identity = d:identity()
    d:set_id(identity.region .. "/" .. identity.name)
  end,
}
)";

}  // namespace

TEST_CASE("an identity is read from the script: attributes sorted, typed and flagged") {
  ProviderDir dir;
  dir.write("resource_note.lua", kNoteWithIdentity);
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  const auto& identity = logic->schema().resources.at("test_note").identity;
  REQUIRE(identity.has_value());
  CHECK(identity->version == 2);
  CHECK_FALSE(identity->mutable_identity);
  REQUIRE(identity->attributes.size() == 3);
  CHECK(identity->attributes[0].name == "name");
  CHECK(identity->attributes[0].required_for_import);
  CHECK(identity->attributes[0].description == "The note's name");
  CHECK(identity->attributes[1].name == "region");
  CHECK(identity->attributes[1].optional_for_import);
  CHECK(identity->attributes[2].type == engine::Type::number());
}

TEST_CASE("d:identity shows the identity and d:set_identity adds to it") {
  ProviderDir dir;
  dir.write("resource_note.lua", kNoteWithIdentity);
  auto logic = dir.load();
  Instance note(*logic, "test_note");
  engine::ResourceData created(note.schema, note.null(), note.null(), note.null());
  REQUIRE_FALSE(
      logic->open_session()->call(engine::Operation::Create, "test_note", created).has_errors());
  CHECK(created.identity_set().at("shard") == engine::Value::number(7));

  engine::ResourceData imported(note.schema, note.null(), note.null(), note.null());
  const engine::Type identity_type = note.schema.identity->implied_type();
  imported.set_given_identity(engine::Value::object(
      identity_type,
      {{"name", engine::Value::string("a")}, {"region", engine::Value::string("eu")}}));
  REQUIRE_FALSE(
      logic->open_session()->call(engine::Operation::Import, "test_note", imported).has_errors());
  CHECK(imported.id() == "eu/a");
}

TEST_CASE("d:set_identity names what it cannot set") {
  CHECK(evaluate("d:set_identity { name = 'x' }").find("declares no identity") !=
        std::string::npos);
  ProviderDir dir;
  dir.write("resource_note.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = {},
  identity = { schema = { name = tf.string { required_for_import = true } } },
  create = function(d) d:set_identity { nmae = "x" } end,
  read = function() end, delete = function() end,
}
)");
  auto logic = dir.load();
  Instance note(*logic, "test_note");
  engine::ResourceData d(note.schema, note.null(), note.null(), note.null());
  const engine::Diagnostics diags =
      logic->open_session()->call(engine::Operation::Create, "test_note", d);
  CHECK(all_text(diags).find("the identity has no attribute \"nmae\"") != std::string::npos);
  CHECK(all_text(diags).find("resource_note.lua:5") != std::string::npos);
}

TEST_CASE("identity upgrade functions run from the stored version, with the client or nil") {
  ProviderDir dir;
  dir.write("resource_note.lua", kNoteWithIdentity);
  auto logic = dir.load();
  Instance note(*logic, "test_note");
  const engine::Type identity_type = note.schema.identity->implied_type();
  engine::Diagnostics diags;
  auto upgraded = logic->open_session()->upgrade_identity("test_note", 0, R"({"title":"a"})",
                                                          identity_type, diags);
  REQUIRE_MESSAGE(!diags.has_errors(), all_text(diags));
  REQUIRE(upgraded.has_value());
  CHECK(upgraded->get_attribute("name") == engine::Value::string("a"));
  CHECK(upgraded->get_attribute("region") == engine::Value::string("no client"));
}

TEST_CASE("identity declarations that cannot work are load errors") {
  const char* cases[][2] = {
      {"identity = 3,", "identity must be a table"},
      {"identity = { schema = {} },", "schema must be a table of at least one attribute"},
      {"identity = { scheme = {} },", "unknown option \"scheme\""},
      {"identity = { schema = { n = tf.string { optional = true } } },",
       "must be declared as tf.string { required_for_import = true }"},
      {"identity = { schema = { n = tf.map(tf.string) { required_for_import = true } } },",
       "identity attributes are strings, numbers, bools or lists of one of them"},
      {"identity = { schema = { n = tf.string { required_for_import = true, "
       "optional_for_import = true } } },",
       "cannot both be set"},
      {"identity = { schema = { n = tf.string { required_for_import = true, computed = true } } "
       "},",
       "unknown option \"computed\""},
      {"identity = { version = -1, schema = { n = tf.string { required_for_import = true } } },",
       "identity.version must be a whole number"},
      {"identity = { version = 2, upgrade = { [0] = function() end }, "
       "schema = { n = tf.string { required_for_import = true } } },",
       "identity.upgrade[1] is missing"},
      {"identity = { mutable = 1, schema = { n = tf.string { required_for_import = true } } },",
       "mutable must be true or false"},
  };
  for (const auto& entry : cases) {
    const char* fields = entry[0];
    const char* expected = entry[1];
    const std::string text = load_errors_with_fields(fields);
    CHECK_MESSAGE(text.find(expected) != std::string::npos, (std::string(fields) + " -> " + text));
  }
  ProviderDir ordinary;
  ordinary.write("resource_x.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = { n = tf.string { required_for_import = true } },
  create = function() end, read = function() end, delete = function() end,
}
)");
  CHECK(
      all_text(ordinary.load()->load_diagnostics()).find("are for the attributes of an identity") !=
      std::string::npos);
}
