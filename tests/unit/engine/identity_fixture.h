// test_file with a resource identity, served by a ScriptedLogic: the start of the tests of what
// the engine does with identities (rules/resource_identity_test.cpp) and of the RPCs that read
// them (rpc/upgrade_resource_identity_test.cpp).
#pragma once

#include <string>
#include <utility>

#include "scripted_logic.h"

namespace luaform::engine::testing {

inline IdentityAttribute identity_attribute(std::string name, bool required) {
  IdentityAttribute a;
  a.name = std::move(name);
  a.type = Type::string();
  a.required_for_import = required;
  a.optional_for_import = !required;
  return a;
}

// test_file with an identity: path (required for import, copied from the attribute), mode
// (optional, copied) and owner (optional, only what the script sets).
struct IdentityFixture : ServiceFixture {
  Type type;
  Type identity_type;

  explicit IdentityFixture(bool mutable_identity = false, int64_t version = 0) {
    Schema schema = file_schema();
    ResourceIdentity identity;
    identity.version = version;
    identity.mutable_identity = mutable_identity;
    identity.attributes = {identity_attribute("mode", false), identity_attribute("owner", false),
                           identity_attribute("path", true)};
    schema.identity = identity;
    schema.moves_state = true;  // the tests of moves give the logic a mover
    logic->declared.resources["test_file"] = schema;
    logic->declared.resources["test_plain"] = file_schema();
    type = serve().resources.at("test_file").block.implied_type();
    identity_type = identity.implied_type();
  }
  Value object(const std::string& path, const std::string& mode) const {
    return Value::object(type, {{"id", Value::string(path)},
                                {"path", Value::string(path)},
                                {"content", Value::string("x")},
                                {"sha", Value::string("abc")},
                                {"mode", Value::string(mode)}});
  }
  Value identity(const std::string& path, const std::string& mode) const {
    return Value::object(identity_type, {{"path", Value::string(path)},
                                         {"mode", Value::string(mode)},
                                         {"owner", Value::null(Type::string())}});
  }
  Value planned_create() const {
    return Value::object(type, {{"id", Value::unknown(Type::string())},
                                {"path", Value::string("/a")},
                                {"content", Value::string("x")},
                                {"sha", Value::unknown(Type::string())},
                                {"mode", Value::unknown(Type::string())}});
  }
  ApplyResponse apply(const Value& prior, const Value& planned, const Value& planned_identity) {
    ApplyRequest req{"test_file", prior, planned, planned, {}};
    if (!planned_identity.is_null()) req.planned_identity = planned_identity;
    return service->apply_resource_change(req);
  }
  // An update whose function changes mode (part of the identity) from 0644 to 0600.
  ApplyResponse update_mode_to_0600() {
    logic->callbacks[Operation::Update] = [](ResourceData& d) {
      REQUIRE_FALSE(d.set("mode", Value::string("0600")).has_errors());
      return Diagnostics{};
    };
    const Value prior = object("/a", "0644");
    const Value planned = prior.with_attribute("mode", Value::unknown(Type::string()));
    return apply(prior, planned, identity("/a", "0644"));
  }
};

}  // namespace luaform::engine::testing
