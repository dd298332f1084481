// ListResource (`terraform query`): the objects a list block selects, streamed one event each
// up to the CLI's limit, with the whole object when asked; an element that cannot be used is a
// warning and the listing goes on, an error ends it. And the schema rules of list resources.
#include <doctest/doctest.h>

#include <optional>
#include <stdexcept>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

// Resource "test_file" (file_schema, with a sensitive `secret` and an identity of its path)
// and its list resource, whose filters are `prefix` (default "item") and a sensitive `token`.
struct ListFixture : ServiceFixture {
  Type type;
  Type identity_type;
  Type filters_type;
  std::vector<ListEvent> events;
  // What the CLI's side of the stream answers to each event: false once it stops reading.
  std::function<bool(const ListEvent&)> reading = [](const ListEvent&) { return true; };

  ListFixture() {
    Schema resource = file_schema();
    Attribute secret = attribute("secret", Type::string(), false, true, false);
    secret.sensitive = true;
    resource.block.attributes.push_back(secret);
    IdentityAttribute path;
    path.name = "path";
    path.type = Type::string();
    path.required_for_import = true;
    resource.identity = ResourceIdentity{0, {path}, false};
    logic->declared.resources["test_file"] = resource;
    logic->declared.list_resources["test_file"] = filters();
    serve();
    const ProviderSchema& served = *service->get_provider_schema().schema;
    type = served.resources.at("test_file").block.implied_type();
    identity_type = served.resources.at("test_file").identity->implied_type();
    filters_type = served.list_resources.at("test_file").block.implied_type();
  }
  static Schema filters() {
    Schema s;
    Attribute prefix = attribute("prefix", Type::string(), false, true, false);
    prefix.default_value = Value::string("item");
    Attribute token = attribute("token", Type::string(), false, true, false);
    token.sensitive = true;
    s.block.attributes = {prefix, token};
    return s;
  }
  Value config(Value prefix = Value::null(Type::string()),
               Value token = Value::null(Type::string())) const {
    return Value::object(filters_type,
                         {{"prefix", std::move(prefix)}, {"token", std::move(token)}});
  }
  Value identity(const std::string& path) const {
    return Value::object(identity_type, {{"path", Value::string(path)}});
  }
  ListedObject listed(const std::string& path) const {
    return ListedObject{identity(path), "File " + path, std::nullopt, {}};
  }
  // Runs ListResource, keeping every event the CLI reads.
  void list(int64_t limit, bool include_object = false,
            const std::optional<Value>& filters = std::nullopt) {
    const Value given = filters ? *filters : config();
    service->list_resource(ListRequest{"test_file", given, include_object, limit},
                           [&](const ListEvent& e) {
                             events.push_back(e);
                             return reading(e);
                           });
  }
  // The paths of the listed objects, in the order of their events ("-" for an event without).
  std::vector<std::string> paths() const {
    std::vector<std::string> out;
    for (const auto& e : events) {
      out.push_back(e.identity.is_null() ? "-" : e.identity.get_attribute("path").as_string());
    }
    return out;
  }
  // A listing of `paths`, one emit each, that records what each emit answered.
  void list_paths(const std::vector<std::string>& paths, std::vector<bool>* answers = nullptr) {
    logic->lister = [this, paths, answers](const Value&, const ListOptions&, const ListEmit& emit) {
      for (const auto& p : paths) {
        const bool more = emit(listed(p), {});
        if (answers) answers->push_back(more);
      }
      return Diagnostics{};
    };
  }
};

std::string text_of(const Diagnostics& diags) {
  std::string out;
  for (const auto& d : diags.items()) out += d.summary + " | " + d.detail + "\n";
  return out;
}

}  // namespace

TEST_CASE("each listed object is one event, in the order listed, with identity and name") {
  ListFixture f;
  f.list_paths({"/b", "/a", "/c"});
  f.list(100);
  CHECK(f.paths() == std::vector<std::string>{"/b", "/a", "/c"});
  REQUIRE(f.events.size() == 3);
  CHECK(f.events[0].display_name == "File /b");
  for (const auto& e : f.events) {
    CHECK(e.diagnostics.empty());
    CHECK(e.resource_object.is_null());  // not asked for
  }
}

TEST_CASE("the listing gets the list block's configuration with defaults, and the options") {
  ListFixture f;
  Value seen;
  ListOptions options;
  f.logic->lister = [&](const Value& config, const ListOptions& given, const ListEmit&) {
    seen = config;
    options = given;
    return Diagnostics{};
  };
  f.list(7, true);
  CHECK(seen.get_attribute("prefix") == Value::string("item"));
  CHECK(seen.get_attribute("token").is_null());
  CHECK(options.limit == 7);
  CHECK(options.include_resource);

  f.list(7, false, f.config(Value::string("log")));
  CHECK(seen.get_attribute("prefix") == Value::string("log"));
  CHECK_FALSE(options.include_resource);
  CHECK(f.events.empty());  // a listing that finds nothing sends nothing
}

TEST_CASE("the limit ends the listing: emit says no more at it, and nothing past it is sent") {
  ListFixture f;
  std::vector<bool> answers;
  // This listing goes on emitting after being told to stop; the engine still sends no more.
  f.list_paths({"/1", "/2", "/3", "/4"}, &answers);
  f.list(2);
  CHECK(f.paths() == std::vector<std::string>{"/1", "/2"});
  CHECK(answers == std::vector<bool>{true, false, false, false});
}

TEST_CASE("a limit of 0 lists nothing, without running the listing") {
  ListFixture f;
  bool ran = false;
  f.logic->lister = [&](const Value&, const ListOptions&, const ListEmit&) {
    ran = true;
    return Diagnostics{};
  };
  f.list(0);
  CHECK_FALSE(ran);
  CHECK(f.events.empty());
}

TEST_CASE("when the CLI stops reading, emit says no more and nothing else is sent") {
  ListFixture f;
  std::vector<bool> answers;
  f.list_paths({"/1", "/2", "/3"}, &answers);
  f.reading = [](const ListEvent&) { return false; };
  f.list(100);
  CHECK(f.paths() == std::vector<std::string>{"/1"});
  CHECK(answers == std::vector<bool>{false, false, false});
}

TEST_CASE("with include_resource_object, an object the listing gives is sent as given") {
  ListFixture f;
  bool imported = false;
  f.logic->callbacks[Operation::Import] = [&](ResourceData&) {
    imported = true;
    return Diagnostics{};
  };
  f.logic->lister = [&](const Value&, const ListOptions&, const ListEmit& emit) {
    ListedObject listed = f.listed("/a");
    listed.object = Value::object(f.type, {{"id", Value::string("/a")},
                                           {"path", Value::string("/a")},
                                           {"content", Value::string("hello")},
                                           {"sha", Value::unknown(Type::string())}});
    emit(std::move(listed), {});
    return Diagnostics{};
  };
  f.list(100, true);
  REQUIRE(f.events.size() == 1);
  const Value object = f.events[0].resource_object;
  CHECK(object.get_attribute("content") == Value::string("hello"));
  CHECK(object.get_attribute("sha").is_null());  // the CLI takes no unknowns here
  CHECK_FALSE(imported);

  // Not asked for, an object given is not sent.
  f.events.clear();
  f.list(100, false);
  REQUIRE(f.events.size() == 1);
  CHECK(f.events[0].resource_object.is_null());
}

TEST_CASE("with include_resource_object and no object, it is imported by identity and read") {
  ListFixture f;
  std::vector<std::string> calls;
  f.logic->callbacks[Operation::Import] = [&](ResourceData& d) {
    // The import starts from the identity, as an import block's does.
    calls.push_back("import " + d.get("path").as_string());
    d.set_id(d.get("path").as_string());
    return Diagnostics{};
  };
  f.logic->callbacks[Operation::Read] = [&](ResourceData& d) {
    calls.push_back("read " + d.id());
    return d.set("content", Value::string("text of " + d.id()));
  };
  f.logic->lister = [&](const Value&, const ListOptions&, const ListEmit& emit) {
    for (const char* p : {"/a", "/b"}) {
      emit(f.listed(p), [&](Operation op, ResourceData& d) { return f.logic->call(op, "", d); });
    }
    return Diagnostics{};
  };
  f.list(100, true);
  CHECK(calls == std::vector<std::string>{"import /a", "read /a", "import /b", "read /b"});
  REQUIRE(f.events.size() == 2);
  const Value b = f.events[1].resource_object;
  CHECK(b.get_attribute("id") == Value::string("/b"));
  CHECK(b.get_attribute("content") == Value::string("text of /b"));
  CHECK(f.paths() == std::vector<std::string>{"/a", "/b"});

  // Without include_resource_object nothing is imported or read.
  calls.clear();
  f.events.clear();
  f.list(100, false);
  CHECK(calls.empty());
  CHECK(f.events.size() == 2);
}

TEST_CASE("an object the read finds gone, or that cannot be imported, is left out with a warning") {
  ListFixture f;
  f.logic->callbacks[Operation::Import] = [](ResourceData& d) {
    Diagnostics diags;
    if (d.get("path") == Value::string("/locked")) diags.error("permission denied");
    d.set_id(d.get("path").as_string());
    return diags;
  };
  f.logic->callbacks[Operation::Read] = [](ResourceData& d) {
    if (d.id() == "/gone") d.set_id("");
    return Diagnostics{};
  };
  std::vector<bool> answers;
  f.logic->lister = [&](const Value&, const ListOptions&, const ListEmit& emit) {
    for (const char* p : {"/gone", "/locked", "/here", "/also"}) {
      answers.push_back(emit(
          f.listed(p), [&](Operation op, ResourceData& d) { return f.logic->call(op, "", d); }));
    }
    return Diagnostics{};
  };
  // Left-out objects do not count towards the limit.
  f.list(2, true);
  CHECK(f.paths() == std::vector<std::string>{"-", "-", "/here", "/also"});
  CHECK(answers == std::vector<bool>{true, true, true, false});
  for (size_t i = 0; i < 2; ++i) {
    REQUIRE(f.events[i].diagnostics.items().size() == 1);
    CHECK(f.events[i].diagnostics.items()[0].severity == Severity::Warning);
    CHECK(f.events[i].diagnostics.items()[0].summary == "test_file: a listed object is left out");
  }
  CHECK(f.events[0].diagnostics.items()[0].detail == "\"File /gone\": reading it found nothing");
  CHECK(f.events[1].diagnostics.items()[0].detail.find("permission denied") != std::string::npos);
}

TEST_CASE("an element with problems or no usable identity is a warning, and the rest is listed") {
  ListFixture f;
  std::vector<bool> answers;
  f.logic->lister = [&](const Value&, const ListOptions&, const ListEmit& emit) {
    ListedObject unfit = f.listed("/x");
    unfit.identity = Value();
    unfit.diagnostics.error("A listed object is left out", "\"x\" does not fit the resource");
    answers.push_back(emit(std::move(unfit), {}));
    ListedObject nameless;
    nameless.display_name = "nameless";
    nameless.identity = Value::null(f.identity_type);
    answers.push_back(emit(std::move(nameless), {}));
    ListedObject half;
    half.identity = Value::object(f.identity_type, {{"path", Value::unknown(Type::string())}});
    answers.push_back(emit(std::move(half), {}));
    ListedObject pathless;
    pathless.display_name = "pathless";
    pathless.identity = Value::object(f.identity_type, {{"path", Value::null(Type::string())}});
    answers.push_back(emit(std::move(pathless), {}));
    answers.push_back(emit(f.listed("/ok"), {}));
    return Diagnostics{};
  };
  f.list(1);
  CHECK(f.paths() == std::vector<std::string>{"-", "-", "-", "-", "/ok"});
  // Only the object sent counts towards the limit of 1.
  CHECK(answers == std::vector<bool>{true, true, true, true, false});
  // The element's own error is sent as a warning: an error would make the CLI drop every result.
  const Diagnostic& unfit = f.events[0].diagnostics.items().at(0);
  CHECK(unfit.severity == Severity::Warning);
  CHECK(unfit.summary == "A listed object is left out");
  CHECK(unfit.detail == "\"x\" does not fit the resource");
  const Diagnostic& nameless = f.events[1].diagnostics.items().at(0);
  CHECK(nameless.severity == Severity::Warning);
  CHECK(nameless.detail == "\"nameless\": it has no identity");
  CHECK(f.events[2].diagnostics.items().at(0).detail.find("it has no identity") !=
        std::string::npos);
  // An identity that an import could not use is no better.
  CHECK(f.events[3].diagnostics.items().at(0).detail ==
        "\"pathless\": its identity has no \"path\", which import needs");
}

TEST_CASE("an error from the listing ends the stream with an event carrying it") {
  ListFixture f;
  f.logic->lister = [&](const Value&, const ListOptions&, const ListEmit& emit) {
    emit(f.listed("/a"), {});
    Diagnostics diags;
    diags.error("GET /files: status 500", "the server failed");
    return diags;
  };
  f.list(100);
  CHECK(f.paths() == std::vector<std::string>{"/a", "-"});
  REQUIRE(f.events.back().diagnostics.items().size() == 1);
  CHECK(f.events.back().diagnostics.items()[0].severity == Severity::Error);
  CHECK(f.events.back().diagnostics.items()[0].summary == "GET /files: status 500");

  // A listing that throws ends the same way, naming the list resource.
  f.events.clear();
  f.logic->lister = [](const Value&, const ListOptions&, const ListEmit&) -> Diagnostics {
    throw std::runtime_error("out of memory");
  };
  f.list(100);
  REQUIRE(f.events.size() == 1);
  CHECK(text_of(f.events[0].diagnostics) == "test_file: list failed | out of memory\n");
  CHECK(f.events[0].diagnostics.has_errors());
}

TEST_CASE("warnings the listing returns reach the CLI after the objects") {
  ListFixture f;
  f.logic->lister = [&](const Value&, const ListOptions&, const ListEmit& emit) {
    emit(f.listed("/a"), {});
    Diagnostics diags;
    diags.warning("Some directories were not readable");
    return diags;
  };
  f.list(100);
  CHECK(f.paths() == std::vector<std::string>{"/a", "-"});
  CHECK_FALSE(f.events.back().diagnostics.has_errors());
  CHECK(f.events.back().diagnostics.items().at(0).summary == "Some directories were not readable");
}

TEST_CASE("secrets of the filters and of the objects sent are hidden in every diagnostic") {
  ListFixture f;
  f.logic->lister = [&](const Value&, const ListOptions&, const ListEmit& emit) {
    ListedObject first = f.listed("/a");
    first.object = Value::object(f.type, {{"id", Value::string("/a")},
                                          {"path", Value::string("/a")},
                                          {"secret", Value::string("object-secret-42")}});
    emit(std::move(first), {});
    ListedObject unfit;
    unfit.diagnostics.warning("Skipped", "token filter-token-7 and object-secret-42 seen");
    emit(std::move(unfit), {});
    Diagnostics diags;
    diags.error("Failed with filter-token-7");
    return diags;
  };
  f.list(100, true, f.config(Value::string("item"), Value::string("filter-token-7")));
  REQUIRE(f.events.size() == 3);
  CHECK(f.events[1].diagnostics.items().at(0).detail == "token *** and *** seen");
  CHECK(f.events[2].diagnostics.items().at(0).summary == "Failed with ***");
}

TEST_CASE("a display name hides secrets; an identity holding one is not sent") {
  // `terraform query` prints display names and identities: a secret once reached the terminal
  // through both while diagnostics hid it.
  ListFixture f;
  f.logic->lister = [&](const Value&, const ListOptions&, const ListEmit& emit) {
    ListedObject named = f.listed("/a");
    named.display_name = "File /a (token filter-token-7)";
    emit(std::move(named), {});
    emit(f.listed("/by/filter-token-7"), {});
    emit(f.listed("/b"), {});
    return Diagnostics{};
  };
  f.list(100, false, f.config(Value::string("item"), Value::string("filter-token-7")));
  REQUIRE(f.events.size() == 3);
  CHECK(f.events[0].display_name == "File /a (token ***)");
  CHECK(f.paths() == std::vector<std::string>{"/a", "-", "/b"});
  CHECK(text_of(f.events[1].diagnostics) ==
        "test_file: a listed object is left out | \"File /by/***\": its identity holds a "
        "sensitive value\n");
}

TEST_CASE("an object a listing gives whole loses its write-only values") {
  ListFixture f;
  Schema resource = f.logic->declared.resources.at("test_file");
  Attribute password = attribute("password", Type::string(), false, true, false);
  password.write_only = true;
  resource.block.attributes.push_back(password);
  f.logic->declared.resources["test_file"] = resource;
  f.service = std::make_unique<ProviderService>(f.logic);
  f.type = f.service->get_provider_schema().schema->resources.at("test_file").block.implied_type();
  f.logic->lister = [&](const Value&, const ListOptions&, const ListEmit& emit) {
    ListedObject listed = f.listed("/a");
    listed.object = Value::object(f.type, {{"id", Value::string("/a")},
                                           {"path", Value::string("/a")},
                                           {"password", Value::string("wo-pass-99")}});
    emit(std::move(listed), {});
    return Diagnostics{};
  };
  f.list(100, true);
  REQUIRE(f.events.size() == 1);
  CHECK(f.events[0].resource_object.get_attribute("path") == Value::string("/a"));
  CHECK(f.events[0].resource_object.get_attribute("password").is_null());
}

TEST_CASE("listing a type that has no list resource is an error event") {
  ListFixture f;
  std::vector<ListEvent> events;
  f.service->list_resource(ListRequest{"test_other", f.config(), false, 10},
                           [&](const ListEvent& e) {
                             events.push_back(e);
                             return true;
                           });
  REQUIRE(events.size() == 1);
  CHECK(events[0].diagnostics.has_errors());
  CHECK(events[0].identity.is_null());
}

TEST_CASE("list resources are announced in the schema and the metadata") {
  ListFixture f;
  const GetProviderSchemaResponse schema = f.service->get_provider_schema();
  CHECK_FALSE(schema.diagnostics.has_errors());
  REQUIRE(schema.schema->list_resources.count("test_file") == 1);
  // A list block's configuration is filters: it has no id of its own.
  CHECK(f.filters_type.attributes().count("id") == 0);
  CHECK(f.service->get_metadata().list_resources == std::vector<std::string>{"test_file"});
}

TEST_CASE("a list resource of a resource without identity, or of no resource, is left out") {
  auto logic = std::make_shared<ScriptedLogic>();
  logic->declared.resources["test_plain"] = file_schema();
  logic->declared.list_resources["test_plain"] = ListFixture::filters();
  logic->declared.list_resources["test_missing"] = ListFixture::filters();
  ProviderService service(logic);
  const Diagnostics diags = service.load_problems();
  const std::string text = text_of(diags);
  CHECK_FALSE(diags.has_errors());
  CHECK(text.find("Cannot use list resource test_plain: it is left out") != std::string::npos);
  CHECK(text.find("List resource test_plain lists no resource with an identity") !=
        std::string::npos);
  CHECK(text.find("declare resource test_plain with an identity") != std::string::npos);
  CHECK(text.find("List resource test_missing lists no resource with an identity") !=
        std::string::npos);
}

TEST_CASE("ValidateListResourceConfig checks the list block's configuration against its schema") {
  ListFixture f;
  f.logic->validators["prefix"] = [](const Value& v) {
    Diagnostics diags;
    if (v == Value::string("")) diags.error("prefix must not be empty");
    return diags;
  };
  Schema filters = ListFixture::filters();
  filters.block.attributes[0].has_validate = true;
  filters.block.attributes[1].conflicts_with = {"prefix"};
  f.logic->declared.list_resources["test_file"] = filters;
  f.service = std::make_unique<ProviderService>(f.logic);
  const auto validate = [&](Value prefix, Value token, const std::string& type = "test_file") {
    return f.service->validate_list_resource_config(
        {type, f.config(std::move(prefix), std::move(token))});
  };
  CHECK(validate(Value::string("a"), Value::null(Type::string())).empty());
  const Diagnostics refused = validate(Value::string(""), Value::null(Type::string()));
  CHECK(text_of(refused).find("prefix must not be empty") != std::string::npos);
  const Diagnostics conflict = validate(Value::string("a"), Value::string("t0ken"));
  CHECK(text_of(conflict).find("Conflicting configuration arguments") != std::string::npos);
  // Unknown values (the CLI's validate walk) are left for the query run.
  CHECK_FALSE(validate(Value::unknown(Type::string()), Value::string("t0ken")).has_errors());
  CHECK(validate(Value::string("a"), Value::null(Type::string()), "test_other").has_errors());
}
