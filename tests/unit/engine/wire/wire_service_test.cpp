// The wire edge: requests' bytes decoded with the schema once, responses' values encoded, and
// what cannot be decoded refused before the engine runs without losing the stored state.
#include "host/engine/wire/wire_service.h"

#include <doctest/doctest.h>

#include "host/engine/codec/json_codec.h"
#include "host/engine/codec/msgpack_codec.h"
#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

IdentityAttribute path_identity() {
  IdentityAttribute a;
  a.name = "path";
  a.type = Type::string();
  a.required_for_import = true;
  return a;
}

Function join_function() {
  FunctionParameter parts;
  parts.name = "parts";
  parts.type = Type::string();
  Function join;
  join.variadic = parts;
  join.returns = Type::string();
  return join;
}

// test_file with an identity of its path, test_plain without one, a data source, a list
// resource of test_file's objects and the function join(parts...).
struct WireFixture {
  std::shared_ptr<ScriptedLogic> logic = std::make_shared<ScriptedLogic>();
  std::shared_ptr<ProviderService> service;
  std::unique_ptr<wire::WireService> edge;
  Type type;
  Type identity_type;
  Type filters_type;

  WireFixture() {
    Schema file = file_schema();
    ResourceIdentity identity;
    identity.attributes = {path_identity()};
    file.identity = identity;
    logic->declared.resources["test_file"] = file;
    logic->declared.resources["test_plain"] = file_schema();
    logic->declared.data_sources["test_file"] = file_schema();
    Schema filters;
    filters.block.attributes = {attribute("prefix", Type::string(), false, true, false)};
    logic->declared.list_resources["test_file"] = filters;
    logic->declared.functions["join"] = join_function();
    logic->functions["join"] = [](const std::vector<Value>& args) {
      std::string out;
      for (const Value& a : args) out += a.as_string();
      return FunctionOutcome{Value::string(out), std::nullopt};
    };
    service = std::make_shared<ProviderService>(logic);
    edge = std::make_unique<wire::WireService>(service);
    const ProviderSchema& served = *service->get_provider_schema().schema;
    type = served.resources.at("test_file").block.implied_type();
    identity_type = served.resources.at("test_file").identity->implied_type();
    filters_type = served.list_resources.at("test_file").block.implied_type();
  }
  Value file(const std::string& path, const std::string& content) const {
    return Value::object(type, {{"id", Value::string(path)},
                                {"path", Value::string(path)},
                                {"content", Value::string(content)},
                                {"sha", Value::string("abc")},
                                {"mode", Value::string("0644")}});
  }
  Value config(const std::string& path, const std::string& content) const {
    return Value::object(type, {{"id", Value::null(Type::string())},
                                {"path", Value::string(path)},
                                {"content", Value::string(content)},
                                {"sha", Value::null(Type::string())},
                                {"mode", Value::null(Type::string())}});
  }
  Value identity(const std::string& path) const {
    return Value::object(identity_type, {{"path", Value::string(path)}});
  }
  static wire::DynamicValue bytes(const Value& v, const Type& t) {
    return {encode_msgpack(v, t), {}};
  }
  wire::DynamicValue bytes(const Value& v) const { return bytes(v, type); }
  Value decoded(const wire::DynamicValue& dv, const Type& t) const {
    Diagnostics diags;
    Value v = decode_msgpack(dv.msgpack, t, diags);
    REQUIRE_FALSE(diags.has_errors());
    return v;
  }
  Value decoded(const wire::DynamicValue& dv) const { return decoded(dv, type); }
};

// Bytes that are no msgpack value at all (a map header promising more than there is).
const wire::DynamicValue kGarbage{"\x85\xa1", {}};

std::string summaries(const Diagnostics& diags) {
  std::string out;
  for (const auto& d : diags.items()) out += d.summary + "\n";
  return out;
}

}  // namespace

TEST_CASE("the engine gets the request's values decoded, and its answer goes back encoded") {
  WireFixture f;
  Value seen;
  f.logic->callbacks[Operation::Update] = [&](ResourceData& d) {
    seen = d.get("content");
    return Diagnostics{};
  };
  const Value prior = f.file("/a", "old");
  const Value planned = prior.with_attribute("content", Value::string("new"));
  const wire::ApplyResponse resp = f.edge->apply_resource_change(
      {"test_file", f.bytes(prior), f.bytes(planned), f.bytes(f.config("/a", "new")), "{}",
       f.bytes(f.identity("/a"), f.identity_type)});
  REQUIRE_MESSAGE(!resp.diagnostics.has_errors(), summaries(resp.diagnostics));
  CHECK(seen == Value::string("new"));
  CHECK(f.decoded(resp.new_state) == planned);
  CHECK(f.decoded(resp.new_identity, f.identity_type) == f.identity("/a"));
}

TEST_CASE("a value sent as JSON is read as one sent as msgpack") {
  WireFixture f;
  const wire::PlanResponse resp = f.edge->plan_resource_change(
      {"test_file",
       {},
       {{}, R"({"id":null,"path":"/a","content":"x","sha":null,"mode":null})"},
       {{}, R"({"id":null,"path":"/a","content":"x","sha":null,"mode":null})"},
       {}});
  REQUIRE_MESSAGE(!resp.diagnostics.has_errors(), summaries(resp.diagnostics));
  const Value planned = f.decoded(resp.planned_state);
  CHECK(planned.get_attribute("content") == Value::string("x"));
  CHECK_FALSE(planned.get_attribute("sha").is_known());  // computed: the engine's rules ran
  CHECK(resp.planned_identity.empty());                  // a create plans no identity
}

TEST_CASE("bytes that do not decode are refused before the logic runs, and the state stays") {
  WireFixture f;
  bool called = false;
  for (const Operation op : {Operation::Create, Operation::Update, Operation::Read}) {
    f.logic->callbacks[op] = [&](ResourceData&) {
      called = true;
      return Diagnostics{};
    };
  }
  const wire::DynamicValue stored = f.bytes(f.file("/a", "x"));

  const wire::DynamicValue identity = f.bytes(f.identity("/a"), f.identity_type);
  const wire::ApplyResponse applied = f.edge->apply_resource_change(
      {"test_file", stored, kGarbage, stored, R"({"etag":"1"})", identity});
  CHECK(applied.diagnostics.has_errors());
  CHECK(summaries(applied.diagnostics).find("Invalid msgpack value") != std::string::npos);
  // The object stays as stored, with its private data and identity.
  CHECK(applied.new_state.msgpack == stored.msgpack);
  CHECK(applied.private_data == R"({"etag":"1"})");
  CHECK(applied.new_identity.msgpack == identity.msgpack);

  const wire::ReadResponse read = f.edge->read_resource(
      {"test_file", kGarbage, R"({"etag":"1"})", f.bytes(f.identity("/a"), f.identity_type)});
  CHECK(read.diagnostics.has_errors());
  CHECK(read.new_state.msgpack == kGarbage.msgpack);  // given back as it came
  CHECK(read.private_data == R"({"etag":"1"})");
  CHECK_FALSE(read.new_identity.empty());

  const wire::PlanResponse planned =
      f.edge->plan_resource_change({"test_file", stored, kGarbage, stored, {}});
  CHECK(planned.diagnostics.has_errors());
  CHECK(planned.planned_state.empty());

  const Diagnostics validated = f.edge->validate_resource_config({"test_file", kGarbage, true});
  CHECK(validated.has_errors());
  CHECK_FALSE(called);
}

TEST_CASE("a type the provider lacks reaches the engine, which names it") {
  WireFixture f;
  const wire::ApplyResponse resp = f.edge->apply_resource_change(
      {"test_nothing", f.bytes(f.file("/a", "x")), f.bytes(f.file("/a", "y")), {}, {}});
  REQUIRE(resp.diagnostics.has_errors());
  CHECK(resp.diagnostics.items()[0].summary == "Unknown resource type \"test_nothing\"");
  CHECK(resp.new_state.empty());

  const Diagnostics validated = f.edge->validate_data_source_config({"test_nothing", {}, true});
  REQUIRE(validated.has_errors());
  CHECK(validated.items()[0].summary == "Unknown data source type \"test_nothing\"");
}

TEST_CASE("identities travel only for resources that declare one") {
  WireFixture f;
  f.logic->callbacks[Operation::Read] = [](ResourceData&) { return Diagnostics{}; };
  const Type plain =
      f.service->get_provider_schema().schema->resources.at("test_plain").block.implied_type();
  const Value stored = Value::object(plain, {{"id", Value::string("/a")},
                                             {"path", Value::string("/a")},
                                             {"content", Value::string("x")},
                                             {"sha", Value::string("abc")},
                                             {"mode", Value::string("0644")}});
  const wire::ReadResponse read =
      f.edge->read_resource({"test_plain", f.bytes(stored, plain), "{}", {}});
  REQUIRE_FALSE(read.diagnostics.has_errors());
  CHECK(read.new_identity.empty());

  // An identity sent for a resource without one has no type to be read with; the engine
  // refuses the import.
  const wire::ImportResponse imported =
      f.edge->import_resource_state({"test_plain", "", f.bytes(f.identity("/a"), f.identity_type)});
  REQUIRE(imported.diagnostics.has_errors());
  CHECK(imported.diagnostics.items()[0].summary == "Resource test_plain has no identity");
}

TEST_CASE("an imported object goes back encoded with its identity") {
  WireFixture f;
  f.logic->callbacks[Operation::Import] = [](ResourceData& d) {
    d.set_id(d.get("path").as_string());
    REQUIRE_FALSE(d.set("content", Value::string("x")).has_errors());
    return Diagnostics{};
  };
  const wire::ImportResponse resp =
      f.edge->import_resource_state({"test_file", "", f.bytes(f.identity("/a"), f.identity_type)});
  REQUIRE_MESSAGE(!resp.diagnostics.has_errors(), summaries(resp.diagnostics));
  REQUIRE(resp.imported.size() == 1);
  CHECK(f.decoded(resp.imported[0].state).get_attribute("path") == Value::string("/a"));
  CHECK(f.decoded(resp.imported[0].identity, f.identity_type) == f.identity("/a"));
}

TEST_CASE("a function's argument that does not decode is a failure naming its position") {
  WireFixture f;
  const wire::CallFunctionResponse bad = f.edge->call_function(
      {"join", {WireFixture::bytes(Value::string("a"), Type::string()), kGarbage}});
  REQUIRE(bad.error);
  CHECK(bad.error->argument == 1);
  CHECK(bad.error->text.starts_with("argument \"parts\": Invalid msgpack value"));
  CHECK(f.logic->function_calls.empty());

  const wire::CallFunctionResponse ok =
      f.edge->call_function({"join",
                             {WireFixture::bytes(Value::string("a"), Type::string()),
                              WireFixture::bytes(Value::string("b"), Type::string())}});
  REQUIRE_FALSE(ok.error);
  CHECK(f.decoded(ok.result, Type::string()) == Value::string("ab"));

  // No such function: its arguments have no types, and the engine says what is wrong.
  const wire::CallFunctionResponse missing = f.edge->call_function({"split", {kGarbage}});
  REQUIRE(missing.error);
  CHECK(missing.error->text == "this provider has no function named \"split\"");
}

TEST_CASE("listed objects go out with their identity encoded; bad filters end the list") {
  WireFixture f;
  f.logic->lister = [&](const Value& config, const ListOptions&, const ListEmit& emit) {
    CHECK(config.get_attribute("prefix") == Value::string("/"));
    ListedObject listed;
    listed.identity = f.identity("/a");
    listed.display_name = "a";
    emit(std::move(listed), {});
    return Diagnostics{};
  };
  std::vector<wire::ListEvent> events;
  const wire::ListSink keep = [&](const wire::ListEvent& e) {
    events.push_back(e);
    return true;
  };
  const Value filters = Value::object(f.filters_type, {{"prefix", Value::string("/")}});
  f.edge->list_resource({"test_file", WireFixture::bytes(filters, f.filters_type), false, 10},
                        keep);
  REQUIRE(events.size() == 1);
  CHECK(f.decoded(events[0].identity, f.identity_type) == f.identity("/a"));
  CHECK(events[0].display_name == "a");
  CHECK(events[0].resource_object.empty());

  events.clear();
  f.edge->list_resource({"test_file", kGarbage, false, 10}, keep);
  REQUIRE(events.size() == 1);
  CHECK(events[0].diagnostics.has_errors());
  CHECK(events[0].identity.empty());
}
