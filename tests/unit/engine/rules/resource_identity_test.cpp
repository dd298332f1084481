// Resource identity: what the engine sends for it in each RPC, and the contract it holds
// scripts to (complete after every operation, unchanged for the object's life).
#include <doctest/doctest.h>

#include "host/engine/codec/json_codec.h"
#include "identity_fixture.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

void sets(ResourceData& d, const std::string& key, const std::string& value) {
  REQUIRE_FALSE(d.set(key, Value::string(value)).has_errors());
}

}  // namespace

TEST_CASE("a create's identity copies the attributes of the same name, and what the script set") {
  IdentityFixture f;
  f.logic->callbacks[Operation::Create] = [](ResourceData& d) {
    d.set_id("/a");
    sets(d, "mode", "0644");
    sets(d, "sha", "1");
    return d.set_identity("owner", Value::string("ops"));
  };
  const ApplyResponse resp =
      f.apply(Value::null(f.type), f.planned_create(), Value::null(f.identity_type));
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  const Value identity = resp.new_identity;
  CHECK(identity.get_attribute("path") == Value::string("/a"));
  CHECK(identity.get_attribute("mode") == Value::string("0644"));
  CHECK(identity.get_attribute("owner") == Value::string("ops"));
}

TEST_CASE("a resource without an identity sends none") {
  IdentityFixture f;
  f.logic->callbacks[Operation::Create] = [](ResourceData& d) {
    d.set_id("/a");
    return Diagnostics{};
  };
  const Type plain =
      f.service->get_provider_schema().schema->resources.at("test_plain").block.implied_type();
  const Value planned = Value::object(plain, {{"id", Value::unknown(Type::string())},
                                              {"path", Value::string("/a")},
                                              {"content", Value::string("x")},
                                              {"sha", Value::unknown(Type::string())},
                                              {"mode", Value::unknown(Type::string())}});
  const ApplyResponse resp = f.service->apply_resource_change(
      ApplyRequest{"test_plain", Value::null(plain), planned, planned, {}});
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  CHECK(resp.new_identity.is_null());
}

TEST_CASE("a plan keeps the stored identity, and a create plans none") {
  IdentityFixture f;
  const Value prior = f.object("/a", "0644");
  PlanRequest update{"test_file", prior, prior, prior, {}};
  update.prior_identity = f.identity("/a", "0644");
  const PlanResponse planned = f.service->plan_resource_change(update);
  REQUIRE_FALSE(planned.diagnostics.has_errors());
  CHECK(planned.planned_identity == f.identity("/a", "0644"));

  const PlanResponse created = f.service->plan_resource_change(
      PlanRequest{"test_file", Value::null(f.type), prior, prior, {}});
  CHECK(created.planned_identity.is_null());
}

TEST_CASE("an update that changes the identity is an error naming the attribute") {
  IdentityFixture f;
  const ApplyResponse resp = f.update_mode_to_0600();
  REQUIRE(resp.diagnostics.items().size() == 1);
  const Diagnostic& error = resp.diagnostics.items()[0];
  CHECK(error.summary == "test_file: update changed identity attribute \"mode\"");
  CHECK(error.detail.find("\"0644\"") != std::string::npos);
  CHECK(error.path == AttributePath{AttributeName{"mode"}});
  // The state is saved all the same: the object did change.
  CHECK(resp.new_state.get_attribute("mode") == Value::string("0600"));
}

TEST_CASE("a mutable identity may change in an update") {
  IdentityFixture f(/*mutable_identity=*/true);
  const ApplyResponse resp = f.update_mode_to_0600();
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  CHECK(resp.new_identity.get_attribute("mode") == Value::string("0600"));
}

TEST_CASE("an identity missing a required attribute is an error that says how to give it") {
  IdentityFixture f;
  f.logic->callbacks[Operation::Read] = [](ResourceData& d) {
    return d.set("path", Value::null(Type::string()));
  };
  ReadRequest req{"test_file", f.object("/a", "0644"), "", {}};
  const ReadResponse resp = f.service->read_resource(req);
  REQUIRE(resp.diagnostics.has_errors());
  CHECK(resp.diagnostics.items().back().summary ==
        "test_file: read left identity attribute \"path\" unset");
  CHECK(resp.diagnostics.items().back().detail.find("or set it in the identity.") !=
        std::string::npos);
}

TEST_CASE("a read gives an object stored without an identity its identity") {
  IdentityFixture f;
  const ReadResponse resp =
      f.service->read_resource(ReadRequest{"test_file", f.object("/a", "0644"), "", {}});
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  CHECK(resp.new_identity == f.identity("/a", "0644"));
}

TEST_CASE("a read keeps what the script set in the identity before, unless it sets it again") {
  IdentityFixture f;
  Value stored = f.identity("/a", "0644").with_attribute("owner", Value::string("ops"));
  std::string seen;
  f.logic->callbacks[Operation::Read] = [&seen](ResourceData& d) {
    seen = d.identity().get_attribute("owner").as_string();
    return Diagnostics{};
  };
  ReadRequest req{"test_file", f.object("/a", "0644"), "", stored};
  const ReadResponse resp = f.service->read_resource(req);
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  CHECK(seen == "ops");
  CHECK(resp.new_identity == stored);
}

TEST_CASE("an import by identity starts from the identity's attributes and keeps the identity") {
  IdentityFixture f;
  f.logic->callbacks[Operation::Import] = [](ResourceData& d) {
    d.set_id(d.identity().get_attribute("path").as_string());
    return Diagnostics{};
  };
  ImportRequest req{"test_file", "", {}};
  req.identity = f.identity("/b", "0600");
  const ImportResponse resp = f.service->import_resource_state(req);
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  REQUIRE(resp.imported.size() == 1);
  const Value state = resp.imported[0].state;
  CHECK(state.get_attribute("id") == Value::string("/b"));
  CHECK(state.get_attribute("path") == Value::string("/b"));
  CHECK(state.get_attribute("mode") == Value::string("0600"));
  CHECK(resp.imported[0].identity == f.identity("/b", "0600"));
}

TEST_CASE("an import by identity needs the required attributes and an id") {
  IdentityFixture f;
  ImportRequest missing{"test_file", "", {}};
  missing.identity = Value::object(f.identity_type, {{"mode", Value::string("0600")}});
  const ImportResponse refused = f.service->import_resource_state(missing);
  REQUIRE(refused.diagnostics.has_errors());
  CHECK(refused.diagnostics.items()[0].detail.find("\"path\"") != std::string::npos);

  // The identity has no id attribute and the import function sets none.
  ImportRequest no_id{"test_file", "", {}};
  no_id.identity = f.identity("/b", "0600");
  const ImportResponse unnamed = f.service->import_resource_state(no_id);
  REQUIRE(unnamed.diagnostics.has_errors());
  CHECK(unnamed.diagnostics.items()[0].summary == "Cannot import test_file by identity");
  CHECK(unnamed.imported.empty());
}

TEST_CASE("an import by id returns no identity: the read after it gives one") {
  IdentityFixture f;
  const ImportResponse resp =
      f.service->import_resource_state(ImportRequest{"test_file", "/a", {}});
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  REQUIRE(resp.imported.size() == 1);
  CHECK(resp.imported[0].identity.is_null());
}

TEST_CASE("a resource without an identity cannot be imported by one") {
  IdentityFixture f;
  ImportRequest req{"test_plain", "", {}};
  req.identity = f.identity("/a", "0644");
  const ImportResponse resp = f.service->import_resource_state(req);
  REQUIRE(resp.diagnostics.has_errors());
  CHECK(resp.diagnostics.items()[0].summary == "Resource test_plain has no identity");
}

TEST_CASE("a moved state gets the target's identity when it holds all of it") {
  IdentityFixture f;
  f.logic->mover = [&f](const MoveSource& source, const Type& target,
                        Diagnostics&) -> std::optional<Value> {
    CHECK(source.identity_json == R"({"name":"/a"})");
    CHECK(source.identity_version == 3);
    return f.object("/a", "0644").type() == target ? f.object("/a", "0644") : Value();
  };
  MoveRequest req;
  req.source = MoveSource{
      "registry.opentofu.org/luaform/old", "old_file", 0, R"({"id":"/a"})", R"({"name":"/a"})", 3};
  req.target_type_name = "test_file";
  const MoveResponse resp = f.service->move_resource_state(req);
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  CHECK(resp.target_identity == f.identity("/a", "0644"));
}

TEST_CASE("identity declarations are checked like schemas") {
  auto logic = std::make_shared<ScriptedLogic>();
  Schema schema = file_schema();
  ResourceIdentity identity;
  IdentityAttribute both = identity_attribute("path", true);
  both.optional_for_import = true;
  IdentityAttribute tags = identity_attribute("tags", false);
  tags.type = Type::map(Type::string());
  identity.attributes = {both, tags};
  schema.identity = identity;
  logic->declared.resources["test_file"] = schema;
  ProviderService service(logic);
  // The resource is left out, with both problems; the provider's other types would serve.
  const Diagnostics diags = service.load_problems();
  REQUIRE(diags.items().size() == 1);
  CHECK(diags.items()[0].severity == Severity::Warning);
  CHECK(diags.items()[0].summary == "Cannot use resource test_file: it is left out");
  CHECK(diags.items()[0].detail.find("resource test_file: identity attribute \"path\" needs "
                                     "exactly one of required_for_import and "
                                     "optional_for_import") == 0);
  CHECK(diags.items()[0].detail.find(
            "resource test_file: identity attribute \"tags\" has type map of string") !=
        std::string::npos);
}
