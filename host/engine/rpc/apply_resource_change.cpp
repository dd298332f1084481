// ApplyResourceChange: runs create, update or delete and decides what state survives,
// following the state-saving rules of Terraform's provider guides:
// - create that fails before setting an id saves nothing; after setting one, the state is
//   saved with the error (the CLI then taints the resource);
// - update saves the whole new state even when it fails, or, in partial mode, only the parts
//   the function marked as done;
// - delete that succeeds removes the state; delete that fails keeps the prior state.
#include "host/engine/rpc/provider_service.h"
#include "host/engine/rpc/service_support.h"
#include "host/engine/rules/plan_rules.h"
#include "host/engine/rules/resource_identity.h"
#include "host/engine/rules/zero_values.h"
#include "host/engine/schema/schema_rules.h"
#include "host/engine/schema/spelling.h"
#include "host/engine/value/value_walk.h"

namespace luaform::engine {
namespace {

// The plan is a contract: a value the plan promised must come back unchanged. Reporting it
// here names the attribute and the script's operation, where the CLI would only say that the
// provider produced an inconsistent result.
// True when `result` keeps every value `planned` promised: an unknown promises nothing, known
// values must be equal, and collections must keep their shape. Set elements that hold unknowns
// cannot be paired, so only the number of elements is checked then (as the CLI does).
bool keeps_plan(const Value& planned, const Value& result) {
  if (planned.is_unknown()) return true;
  if (planned.is_wholly_known()) return planned == result;
  if (!result.is_known() || result.type() != planned.type()) return false;
  switch (planned.type().kind()) {
    case TypeKind::List:
    case TypeKind::Tuple:
    case TypeKind::Set: {
      const auto& a = planned.elements();
      const auto& b = result.elements();
      // Set elements with unknowns cannot be paired, and equal results may merge: the CLI
      // judges those.
      if (planned.type().kind() == TypeKind::Set) return true;
      if (a.size() != b.size()) return false;
      for (size_t i = 0; i < a.size(); ++i) {
        if (!keeps_plan(a[i], b[i])) return false;
      }
      return true;
    }
    case TypeKind::Map:
    case TypeKind::Object: {
      const auto& a = planned.attributes();
      const auto& b = result.attributes();
      if (a.size() != b.size()) return false;
      for (const auto& [key, value] : a) {
        auto it = b.find(key);
        if (it == b.end() || !keeps_plan(value, it->second)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

void check_value_against_plan(const std::string& name, const Value& planned, const Value& result,
                              const std::string& what, Diagnostics& diags,
                              const Attribute* kept_computed = nullptr) {
  if (keeps_plan(planned, result)) return;
  std::string detail = "The plan promised " + planned.to_display_string() +
                       " but the new state has " + result.to_display_string() + ". ";
  if (kept_computed != nullptr) {
    detail +=
        "The plan of an update keeps a computed attribute's stored value. If the "
        "provider gives \"" +
        name + "\" a new value whenever the object is updated, declare that it changes on update" +
        written_as(Hint::ChangesOnUpdate) +
        "; if only some changes do, make it unknown for those in customize_diff" +
        written_as(Hint::SetNewComputed, name) + ".";
  } else {
    detail += "Set only attributes that are computed, or that the configuration leaves unset.";
  }
  diags.error(what + " set \"" + name + "\" to a value other than the planned one", detail,
              {AttributeName{name}});
}

void check_against_plan(const Block& block, const Value& prior, const Value& planned,
                        const Value& result, const std::string& what, Diagnostics& diags) {
  if (!planned.is_known() || !result.is_known()) return;
  for (const auto& attr : block.attributes) {
    const Value promised = planned.get_attribute(attr.name);
    const Value got = result.get_attribute(attr.name);
    const bool kept = attr.computed && !prior.is_null() && promised.is_wholly_known() &&
                      promised == prior.get_attribute(attr.name);
    check_value_against_plan(attr.name, promised, got, what, diags, kept ? &attr : nullptr);
    // The CLI decoded the plan's refinement and would reject the result with a bare message.
    if (promised.is_unknown() && !attr.refine.empty()) {
      if (const std::string why = attr.refine.broken_by(got); !why.empty()) {
        diags.error(what + " set \"" + attr.name + "\" to a value its refine option rules out",
                    "The plan promised it, but " + why + ": " + got.to_display_string() + ".",
                    {AttributeName{attr.name}});
      }
    }
  }
  for (const auto& nested : block.blocks) {
    check_value_against_plan(nested.type_name, planned.get_attribute(nested.type_name),
                             result.get_attribute(nested.type_name), what, diags);
  }
}

// The object without its operational blocks (timeouts), to tell whether anything else changed.
Value without_operational(const Block& block, Value object) {
  if (!object.is_known() || object.is_null()) return object;
  for (const auto& nested : block.blocks) {
    if (nested.operational) {
      object = object.with_attribute(nested.type_name, Value::null(nested.implied_type()));
    }
  }
  return object;
}

}  // namespace

ApplyResponse ProviderService::apply_resource_change(const ApplyRequest& req) const {
  return detail::in_session<ApplyResponse>(*logic_, provider_secrets(), [&](Session& session) {
    SecretScope& secrets = session.secrets();
    ApplyResponse resp;
    Diagnostics& diags = resp.diagnostics;
    const Schema* schema = detail::find_schema(schema_.resources, "resource", req.type_name, diags);
    if (!schema) return resp;
    const Type type = schema->block.implied_type();
    const Value& prior = req.prior_state;
    const Value& planned = req.planned_state;
    const Value& config = req.config;
    for (const Value* v : {&prior, &planned, &config}) secrets.add(schema->block, *v);
    const Value& planned_identity = req.planned_identity;
    resp.private_data = req.planned_private;

    if (planned.is_null()) {
      ResourceData d(*schema, prior, Value::null(type), Value::null(type));
      d.set_private_data(req.planned_private);
      diags.append(session.call(Operation::Delete, req.type_name, d));
      resp.new_state = diags.has_errors() ? prior : Value::null(type);
      return resp;
    }

    const bool create = prior.is_null();
    const Operation op = create ? Operation::Create : Operation::Update;
    if (!create && !schema->has_update &&
        !changes_object(schema->block, without_operational(schema->block, prior),
                        without_operational(schema->block, planned))) {
      // Only the timeouts, a write-only value or the spelling of a zero value changed: nothing
      // to do but remember the plan.
      resp.new_state = unknowns_from(planned, prior);
      resp.new_identity = req.planned_identity;
      return resp;
    }
    if (!create && !schema->has_update) {
      diags.error(req.type_name + ": no update function",
                  "The plan asked for an in-place update, but the resource has no update "
                  "function.");
      resp.new_state = prior;
      resp.new_identity = req.planned_identity;
      return resp;
    }
    ResourceData d(*schema, prior, config, planned);
    d.set_private_data(req.planned_private);
    d.set_given_identity(planned_identity);
    Diagnostics call_diags = session.call(op, req.type_name, d);
    diags.append(call_diags);
    // Saved even when the call failed: what it recorded describes the object it left behind.
    resp.private_data = d.private_data();
    Value result = call_diags.has_errors() ? d.result_after_failure() : d.result();
    const std::string what = req.type_name + ": " + operation_name(op);

    if (result.is_null()) {
      if (create && !call_diags.has_errors()) {
        diags.error(what + " did not set an id",
                    "A create function must set the object's id" + written_as(Hint::SetId) +
                        " once the object exists; without an id nothing is saved.");
      } else if (!create && !call_diags.has_errors()) {
        diags.error(what + " cleared the id", "Only read and delete may remove an object.");
        result = prior;
      } else if (!create) {
        result = prior;
      }
    } else {
      // A value the script set that the resource counts as the same as the planned one keeps
      // the planned spelling: the plan's promise holds.
      result = detail::keep_same_values(session, req.type_name, *schema, planned, result, diags);
      result = keep_zero_spelling(schema->block, planned, result);
      if (!call_diags.has_errors()) {
        check_against_plan(schema->block, prior, planned, result, what, diags);
      }
    }
    resp.new_state = without_write_only(schema->block, result);
    if (schema->identity) {
      const Value identity = identity_of(*schema->identity, result, d);
      Diagnostics refused;
      if (!call_diags.has_errors() && !result.is_null()) {
        check_identity(*schema->identity, planned_identity, identity, what, refused);
      }
      // A refused identity is not stored: the object keeps the one it had (the state records
      // the rest of what the update did).
      resp.new_identity =
          refused.has_errors() && !planned_identity.is_null() ? planned_identity : identity;
      diags.append(refused);
    }
    return resp;
  });
}

}  // namespace luaform::engine
