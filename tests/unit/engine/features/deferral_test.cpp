// Deferred answers: where the CLI allows them, a provider whose configuration holds values not
// known yet is left unconfigured, and the calls that need it answer "not now" (the provider's
// configuration is unknown) instead of failing; without the CLI's leave nothing changes.
#include <doctest/doctest.h>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

struct DeferralFixture : ServiceFixture {
  Type type;
  Type data_type;
  Type provider_type;
  int calls = 0;

  DeferralFixture() {
    logic->declared.provider.block.attributes = {
        attribute("endpoint", Type::string(), false, true, false)};
    logic->declared.resources["test_file"] = file_schema();
    Schema data;
    data.block.attributes = {attribute("name", Type::string(), true, false, false),
                             attribute("size", Type::number(), false, false, true)};
    logic->declared.data_sources["test_info"] = data;
    for (Operation op : {Operation::Read, Operation::ReadData, Operation::Create}) {
      logic->callbacks[op] = [this](ResourceData&) {
        ++calls;
        return Diagnostics{};
      };
    }
    const auto* schema = &serve();
    type = schema->resources.at("test_file").block.implied_type();
    data_type = schema->data_sources.at("test_info").block.implied_type();
    provider_type = schema->provider.block.implied_type();
  }
  Diagnostics configure(Value endpoint, bool allowed) {
    return service->configure_provider(ConfigureRequest{
        "1.15.0", Value::object(provider_type, {{"endpoint", endpoint}}), allowed});
  }
  Value file(const std::string& path) const {
    return Value::object(type, {{"path", Value::string(path)}});
  }
};

}  // namespace

TEST_CASE("an unknown provider configuration is not configured when the CLI allows deferrals") {
  DeferralFixture f;
  CHECK(f.configure(Value::unknown(Type::string()), true).empty());
  CHECK(f.logic->configured_with.is_null());  // configure never ran on half a configuration

  // Without the CLI's leave, configure runs as always, with the unknown value.
  DeferralFixture g;
  CHECK(g.configure(Value::unknown(Type::string()), false).empty());
  CHECK(g.logic->configured_with.get_attribute("endpoint").is_unknown());
}

TEST_CASE("a plan is deferred for the provider's configuration, with computed values unknown") {
  DeferralFixture f;
  f.configure(Value::unknown(Type::string()), true);
  const Value config = f.file("/a");
  PlanRequest req{"test_file", Value::null(f.type), config, config, {}};
  req.deferral_allowed = true;
  const PlanResponse resp = f.service->plan_resource_change(req);
  REQUIRE(resp.deferred);
  CHECK(*resp.deferred == DeferralReason::ProviderConfigUnknown);
  CHECK_FALSE(resp.diagnostics.has_errors());
  const Value planned = resp.planned_state;
  CHECK(planned.get_attribute("path") == Value::string("/a"));
  CHECK(planned.get_attribute("content") == Value::string(""));  // the default
  CHECK(planned.get_attribute("sha").is_unknown());
  CHECK(planned.get_attribute("id").is_unknown());
}

TEST_CASE("a refresh is deferred with the stored state, and a data source read with unknowns") {
  DeferralFixture f;
  f.configure(Value::unknown(Type::string()), true);
  const Value stored = f.file("/a").with_attribute("id", Value::string("/a"));
  ReadRequest read{"test_file", stored, "{}", {}};
  read.deferral_allowed = true;
  const ReadResponse refreshed = f.service->read_resource(read);
  REQUIRE(refreshed.deferred);
  CHECK(refreshed.new_state == stored);

  ReadDataRequest data{"test_info", Value::object(f.data_type, {{"name", Value::string("x")}})};
  data.deferral_allowed = true;
  const ReadDataResponse read_data = f.service->read_data_source(data);
  REQUIRE(read_data.deferred);
  CHECK(read_data.state.is_unknown());
  CHECK(f.calls == 0);
}

TEST_CASE(
    "nothing is deferred once the configuration is known, or where the CLI does not allow it") {
  DeferralFixture f;
  f.configure(Value::unknown(Type::string()), true);
  const Value stored = f.file("/a").with_attribute("id", Value::string("/a"));
  ReadRequest not_allowed{"test_file", stored, "{}", {}};
  CHECK_FALSE(f.service->read_resource(not_allowed).deferred);
  CHECK(f.calls == 1);

  f.configure(Value::string("https://api"), true);
  ReadRequest allowed{"test_file", stored, "{}", {}};
  allowed.deferral_allowed = true;
  CHECK_FALSE(f.service->read_resource(allowed).deferred);
  CHECK(f.calls == 2);
  CHECK(f.logic->configured_with.get_attribute("endpoint") == Value::string("https://api"));
}

TEST_CASE("an import defers for the provider's configuration, and never runs without it") {
  DeferralFixture f;
  Schema importable = file_schema();
  importable.importable = true;
  f.logic->declared.resources["test_file"] = importable;
  f.service = std::make_unique<ProviderService>(f.logic);
  int imported = 0;
  f.logic->callbacks[Operation::Import] = [&](ResourceData&) {
    ++imported;
    return Diagnostics{};
  };
  f.configure(Value::unknown(Type::string()), true);
  ImportRequest allowed{"test_file", "/a"};
  allowed.deferral_allowed = true;
  const ImportResponse deferred = f.service->import_resource_state(allowed);
  CHECK(deferred.deferred == DeferralReason::ProviderConfigUnknown);
  CHECK(deferred.imported.empty());
  CHECK(deferred.diagnostics.empty());
  // A request that may not defer is refused rather than run with no client.
  const ImportResponse refused = f.service->import_resource_state(ImportRequest{"test_file", "/a"});
  CHECK_FALSE(refused.deferred.has_value());
  REQUIRE(refused.diagnostics.has_errors());
  CHECK(refused.diagnostics.items()[0].summary == "The provider's configuration is not known yet");
  CHECK(imported == 0);
  // Once configured, it imports.
  f.configure(Value::string("https://api"), true);
  CHECK(f.service->import_resource_state(allowed).imported.size() == 1);
  CHECK(imported == 1);
}

namespace {

// The logic itself defers: test_file's functions call d.defer(reason) when `defers` is set.
struct ScriptDeferralFixture : ServiceFixture {
  Type type;
  Type data_type;
  std::optional<DeferralReason> defers;
  Diagnostics asked;  // what d.defer answered, the last time it was called

  ScriptDeferralFixture() {
    Schema resource = file_schema();
    resource.customizes_diff = true;
    logic->declared.resources["test_file"] = resource;
    Schema data;
    data.block.attributes = {attribute("name", Type::string(), true, false, false)};
    logic->declared.data_sources["test_info"] = data;
    logic->declared.ephemeral_resources["test_token"] = data;
    for (Operation op : {Operation::CustomizeDiff, Operation::Read, Operation::Import,
                         Operation::ReadData, Operation::Open, Operation::Create}) {
      logic->callbacks[op] = [this](ResourceData& d) {
        if (defers) asked = d.defer(*defers);
        return Diagnostics{};
      };
    }
    const auto* schema = &serve();
    type = schema->resources.at("test_file").block.implied_type();
    data_type = schema->data_sources.at("test_info").block.implied_type();
  }
  Value file(const std::string& path) const {
    return Value::object(type, {{"path", Value::string(path)}});
  }
};

}  // namespace

TEST_CASE("a script defers a plan, a read, an import and a data source's read where allowed") {
  ScriptDeferralFixture f;
  f.defers = DeferralReason::AbsentPrereq;
  const Value config = f.file("/a");
  PlanRequest plan{"test_file", Value::null(f.type), config, config, ""};
  plan.deferral_allowed = true;
  const PlanResponse planned = f.service->plan_resource_change(plan);
  CHECK(f.asked.empty());
  CHECK(planned.deferred == DeferralReason::AbsentPrereq);
  // What the CLI shows meanwhile: the schema's plan, the computed values unknown.
  CHECK(planned.planned_state.get_attribute("sha").is_unknown());

  const Value stored = f.file("/a").with_attribute("id", Value::string("/a"));
  ReadRequest read{"test_file", stored, "{}", {}};
  read.deferral_allowed = true;
  f.defers = DeferralReason::ResourceConfigUnknown;
  const ReadResponse refreshed = f.service->read_resource(read);
  CHECK(refreshed.deferred == DeferralReason::ResourceConfigUnknown);
  CHECK(refreshed.new_state == stored);

  ImportRequest import{"test_file", "/a"};
  import.deferral_allowed = true;
  const ImportResponse imported = f.service->import_resource_state(import);
  CHECK(imported.deferred == DeferralReason::ResourceConfigUnknown);
  CHECK(imported.imported.empty());

  ReadDataRequest data{"test_info", Value::object(f.data_type, {{"name", Value::string("x")}})};
  data.deferral_allowed = true;
  const ReadDataResponse read_data = f.service->read_data_source(data);
  CHECK(read_data.deferred == DeferralReason::ResourceConfigUnknown);
  CHECK(read_data.state.is_unknown());

  OpenEphemeralRequest open{"test_token",
                            Value::object(f.data_type, {{"name", Value::string("x")}})};
  open.deferral_allowed = true;
  const OpenEphemeralResponse opened = f.service->open_ephemeral_resource(open);
  CHECK(opened.deferred == DeferralReason::ResourceConfigUnknown);
  CHECK(opened.result.is_unknown());
}

TEST_CASE("an ephemeral resource whose arguments are not known yet is deferred where allowed") {
  ScriptDeferralFixture f;
  const Value unknown_name = Value::object(f.data_type, {{"name", Value::unknown(Type::string())}});
  OpenEphemeralRequest open{"test_token", unknown_name};
  open.deferral_allowed = true;
  const OpenEphemeralResponse opened = f.service->open_ephemeral_resource(open);
  CHECK(opened.deferred == DeferralReason::ResourceConfigUnknown);
  CHECK(opened.diagnostics.empty());
  // Without the CLI's leave it is refused, as before.
  const OpenEphemeralResponse refused =
      f.service->open_ephemeral_resource(OpenEphemeralRequest{"test_token", unknown_name});
  CHECK_FALSE(refused.deferred);
  CHECK(refused.diagnostics.has_errors());
}

TEST_CASE("a script asking to defer where the CLI does not allow it, or in an apply, is told") {
  ScriptDeferralFixture f;
  f.defers = DeferralReason::AbsentPrereq;
  const Value stored = f.file("/a").with_attribute("id", Value::string("/a"));
  const ReadResponse refreshed =
      f.service->read_resource(ReadRequest{"test_file", stored, "{}", {}});
  CHECK_FALSE(refreshed.deferred);
  REQUIRE(f.asked.has_errors());
  CHECK(f.asked.items()[0].summary == "This run does not allow deferred changes");
  CHECK(f.asked.items()[0].detail.find("-allow-deferral") != std::string::npos);

  f.asked = {};
  const Value config = f.file("/a");
  const ApplyResponse applied = f.service->apply_resource_change(
      ApplyRequest{"test_file", Value::null(f.type), config, config, {}});
  REQUIRE(f.asked.has_errors());
  CHECK(f.asked.items()[0].summary == "This call cannot be deferred");
}
