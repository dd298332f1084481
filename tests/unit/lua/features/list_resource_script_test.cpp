// A list resource script, list_X.lua: how it is loaded, what list(request, emit, client) is
// given, what emit answers, and how its problems come back (warnings for an element that does
// not fit, an error naming the script line for a failure).
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "host/engine/rpc/provider_service.h"
#include "provider_dir.h"

using namespace luaform;
using namespace luaform::lua::testing;
using engine::Value;

namespace {

// Notes kept in the provider's client; resource test_note has an identity of its name.
const char* kProvider = R"(local tf = require("luaform")
return tf.provider {
  configure = function()
    return { notes = { alpha = "first", beta = "second", gamma = "third" } }
  end,
}
)";

const char* kNote = R"(local tf = require("luaform")
return tf.resource {
  schema = {
    name = tf.string { required = true, force_new = true },
    text = tf.string { optional = true },
  },
  identity = { schema = { name = tf.string { required_for_import = true } } },
  create = function(d) d:set_id(d:get("name")) end,
  read = function(d, client)
    local text = client.notes[d:id()]
    if text == nil then
      d:set_id("")
      return
    end
    d:set("name", d:id())
    d:set("text", text)
  end,
  delete = function() end,
  import = function(d)
    d:set_id(d:identity().name)
  end,
}
)";

// Lists the notes whose names start with the `prefix` filter, in name order.
const char* kListNotes = R"(local tf = require("luaform")
return tf.list_resource {
  description = "The notes kept",
  schema = {
    prefix = tf.string { optional = true, default = "", description = "Start of the names" },
  },
  list = function(request, emit, client)
    local names = {}
    for name in pairs(client.notes) do
      if name:sub(1, #request.config.prefix) == request.config.prefix then
        names[#names + 1] = name
      end
    end
    table.sort(names)
    for _, name in ipairs(names) do
      if not emit { identity = { name = name }, display_name = "Note " .. name } then
        return
      end
    end
  end,
}
)";

struct Notes {
  ProviderDir dir;
  std::shared_ptr<engine::ProviderLogic> logic;
  std::unique_ptr<engine::ProviderService> service;
  std::vector<engine::ListEvent> events;

  explicit Notes(const std::string& list_script = kListNotes,
                 const std::string& note_script = kNote) {
    dir.write("provider.lua", kProvider);
    dir.write("resource_note.lua", note_script);
    dir.write("list_note.lua", list_script);
    logic = dir.load();
    service = std::make_unique<engine::ProviderService>(logic);
    const engine::Type provider = logic->schema().provider.block.implied_type();
    const engine::Diagnostics configured =
        service->configure_provider({"1.15.5", Value::object(provider, {})});
    REQUIRE_MESSAGE(!configured.has_errors(), all_text(configured));
  }
  const engine::Schema& resource() const {
    return service->get_provider_schema().schema->resources.at("test_note");
  }
  engine::Type filters_type() const {
    return service->get_provider_schema()
        .schema->list_resources.at("test_note")
        .block.implied_type();
  }
  Value filters(Value prefix = Value::null(engine::Type::string())) const {
    const engine::Type type = filters_type();
    return Value::object(type, {{"prefix", std::move(prefix)}});
  }
  void list(int64_t limit, bool include_object = false,
            Value prefix = Value::null(engine::Type::string())) {
    events.clear();
    service->list_resource(
        engine::ListRequest{"test_note", filters(std::move(prefix)), include_object, limit},
        [&](const engine::ListEvent& e) {
          events.push_back(e);
          return true;
        });
  }
  // "name|display name" per event, or "-" and the diagnostics' text for one without identity.
  std::vector<std::string> listed() const {
    std::vector<std::string> out;
    for (const auto& e : events) {
      if (e.identity.is_null()) {
        out.push_back("- " + all_text(e.diagnostics));
        continue;
      }
      const Value id = e.identity;
      out.push_back(id.get_attribute("name").as_string() + "|" + e.display_name);
    }
    return out;
  }
};

std::string text_of(const std::vector<engine::ListEvent>& events) {
  std::string out;
  for (const auto& e : events) out += all_text(e.diagnostics);
  return out;
}

}  // namespace

TEST_CASE("a list_X.lua script is the list resource of resource NAME_X, with its filters") {
  Notes n;
  REQUIRE_MESSAGE(n.logic->load_diagnostics().empty(), all_text(n.logic->load_diagnostics()));
  const auto& lists = n.logic->schema().list_resources;
  REQUIRE(lists.count("test_note") == 1);
  const engine::Schema& filters = lists.at("test_note");
  CHECK(filters.block.description == "The notes kept");
  REQUIRE(filters.block.attributes.size() == 1);
  CHECK(filters.block.attributes[0].name == "prefix");
  CHECK(filters.block.attributes[0].description == "Start of the names");
  // Filters are not an object of their own: no id is added.
  CHECK(n.filters_type().attributes().count("id") == 0);
  CHECK_FALSE(n.service->get_provider_schema().diagnostics.has_errors());
}

TEST_CASE("list gets the configured filters and emits each object with identity and name") {
  Notes n;
  n.list(100);
  CHECK(n.listed() ==
        std::vector<std::string>{"alpha|Note alpha", "beta|Note beta", "gamma|Note gamma"});
  n.list(100, false, Value::string("g"));
  CHECK(n.listed() == std::vector<std::string>{"gamma|Note gamma"});
}

TEST_CASE("request holds config, limit and include_resource; emit answers false at the limit") {
  Notes n(R"(local tf = require("luaform")
return tf.list_resource {
  schema = { prefix = tf.string { optional = true, default = "p" } },
  list = function(request, emit)
    local answers = {}
    for i = 1, 4 do
      answers[#answers + 1] = tostring(emit { identity = { name = "n" .. i } })
    end
    tf.warn { summary = "request", detail = ("prefix=%s limit=%d include=%s answers=%s"):format(
      request.config.prefix, request.limit, tostring(request.include_resource),
      table.concat(answers, ",")) }
  end,
}
)");
  n.list(2);
  REQUIRE(n.events.size() == 3);
  // The default applies, and emit said no more at the second object, and went on saying so.
  CHECK(text_of(n.events) ==
        "request | prefix=p limit=2 include=false answers=true,false,false,false\n");
}

TEST_CASE("with include_resource the listed objects are imported and read on the listing's state") {
  Notes n;
  n.list(100, true, Value::string("b"));
  REQUIRE(n.events.size() == 1);
  const engine::Type type = n.resource().block.implied_type();
  const Value object = n.events[0].resource_object;
  CHECK(object.get_attribute("id") == Value::string("beta"));
  CHECK(object.get_attribute("name") == Value::string("beta"));
  CHECK(object.get_attribute("text") == Value::string("second"));
}

TEST_CASE("an object given to emit is sent as the whole object, without a read") {
  Notes n(R"(local tf = require("luaform")
return tf.list_resource {
  list = function(_, emit)
    emit { identity = { name = "zeta" }, object = { id = "zeta", name = "zeta", text = "given" } }
  end,
}
)");
  n.list(10, true);
  REQUIRE(n.events.size() == 1);
  const engine::Type type = n.resource().block.implied_type();
  const Value object = n.events[0].resource_object;
  CHECK(object.get_attribute("text") == Value::string("given"));  // zeta is no note to read
}

TEST_CASE("an element that does not fit is a warning naming the script line; the rest is listed") {
  Notes n(R"(local tf = require("luaform")
return tf.list_resource {
  list = function(_, emit)
    emit { identity = { name = "alpha" } }
    emit { identity = { name = { "not", "a", "string" } }, display_name = "odd" }
    emit { identity = { nmae = "beta" } }
    emit { identity = { name = "gamma" }, object = { txet = "x" } }
    emit { identity = { name = "beta" }, display_name = "Beta" }
  end,
}
)");
  n.list(100);
  const std::vector<std::string> got = n.listed();
  REQUIRE(got.size() == 5);
  CHECK(got[0] == "alpha|");
  CHECK(got[4] == "beta|Beta");
  for (size_t i = 1; i < 4; ++i) {
    CHECK_MESSAGE(got[i].starts_with("- A listed object is left out | list_note.lua:"), got[i]);
    CHECK(n.events[i].diagnostics.items().at(0).severity == engine::Severity::Warning);
  }
  CHECK(got[1].find("list_note.lua:5: \"odd\" does not fit the resource") != std::string::npos);
  CHECK(got[2].find("nmae") != std::string::npos);
  CHECK(got[3].find("txet") != std::string::npos);
}

TEST_CASE("an object listed without an identity is left out at the emit's line") {
  Notes n(R"(local tf = require("luaform")
return tf.list_resource {
  list = function(_, emit)
    emit { display_name = "no-identity" }
    emit { identity = { name = "alpha" } }
  end,
}
)");
  n.list(100);
  const std::vector<std::string> got = n.listed();
  REQUIRE(got.size() == 2);
  CHECK(got[0] ==
        "- test_note: a listed object is left out | list_note.lua:4: \"no-identity\": "
        "it has no identity\n");
  CHECK(got[1] == "alpha|");
}

TEST_CASE("an error raised in list ends the listing with an error naming the script line") {
  Notes n(R"(local tf = require("luaform")
return tf.list_resource {
  list = function(_, emit)
    emit { identity = { name = "alpha" } }
    error("the API is down")
  end,
}
)");
  n.list(100);
  REQUIRE(n.events.size() == 2);
  CHECK(n.listed()[0] == "alpha|");
  const engine::Diagnostics& ended = n.events[1].diagnostics;
  REQUIRE(ended.has_errors());
  CHECK(as_raised(ended.items().at(0)) == "list_note.lua:5: the API is down");
  CHECK(ended.items()[0].detail.find("test_note: list failed") != std::string::npos);
}

TEST_CASE("tf.warn in list is a warning after the objects; in a listed object's read, with it") {
  std::string note = kNote;
  const std::string read = "read = function(d, client)\n";
  note.replace(note.find(read), read.size(), read + "    tf.warn(\"Read \" .. d:id())\n");
  Notes n(R"(local tf = require("luaform")
return tf.list_resource {
  list = function(_, emit)
    tf.warn { summary = "Slow listing", detail = "the API paged 40 times" }
    emit { identity = { name = "alpha" } }
  end,
}
)",
          note);
  n.list(100);
  REQUIRE(n.events.size() == 2);
  CHECK(n.listed()[0] == "alpha|");
  CHECK(n.events[0].diagnostics.empty());
  CHECK_FALSE(n.events[1].diagnostics.has_errors());
  CHECK(all_text(n.events[1].diagnostics) == "Slow listing | the API paged 40 times\n");

  // Reading the whole object warns: the warning goes with that object, which is still listed.
  n.list(100, true);
  REQUIRE(n.events.size() == 2);
  CHECK(n.listed()[0] == "alpha|");
  CHECK(all_text(n.events[0].diagnostics) == "Read alpha | \n");
  CHECK(all_text(n.events[1].diagnostics) == "Slow listing | the API paged 40 times\n");
}

TEST_CASE("tf.list_resource refuses definitions that cannot list") {
  const char* cases[][2] = {
      {"return tf.list_resource { schema = {} }", "tf.list_resource: a list function is required"},
      {"return tf.list_resource { list = 3 }", "list must be a function, got number"},
      {"return tf.list_resource { list = function() end, read = function() end }",
       "unknown option \"read\""},
      {"return tf.resource { schema = {}, create = function() end, read = function() end, "
       "delete = function() end }",
       "the script must return tf.list_resource"},
  };
  for (const auto& pair : cases) {
    const std::string body = pair[0];
    const std::string expected = pair[1];
    ProviderDir dir;
    dir.write("resource_note.lua", kNote);
    dir.write("list_note.lua", std::string("local tf = require(\"luaform\")\n") + body + "\n");
    const std::string text = all_text(dir.load()->load_diagnostics());
    CHECK_MESSAGE(text.find(expected) != std::string::npos, body << " -> " << text);
  }
}

TEST_CASE("a list script that does not load leaves its resource working") {
  ProviderDir dir;
  dir.write("resource_note.lua", kNote);
  dir.write("list_note.lua", "local tf = require(\"luaform\")\nreturn tf.list_resource {}\n");
  auto logic = dir.load();
  CHECK(all_text(logic->load_diagnostics()).find("Cannot load list_note.lua") != std::string::npos);
  engine::ProviderService service(logic);
  const engine::Schema& note = service.get_provider_schema().schema->resources.at("test_note");
  const engine::Type type = note.block.implied_type();
  const Value config =
      Value::object(type, {{"name", Value::string("a")}, {"text", Value::string("x")}});
  const engine::Diagnostics resource = service.validate_resource_config({"test_note", config});
  CHECK_MESSAGE(!resource.has_errors(), all_text(resource));
  // The list resource stands with no filters, and using it says why it is missing.
  const engine::Type filters =
      service.get_provider_schema().schema->list_resources.at("test_note").block.implied_type();
  const engine::Diagnostics list =
      service.validate_list_resource_config({"test_note", Value::object(filters, {})});
  CHECK(all_text(list).find("its script does not load") != std::string::npos);
}
