// PlanResourceChange: the diff rules. The CLI proposes "config, plus prior values for
// computed attributes the config leaves null"; the plan fills in defaults, keeps stored values
// the resource counts as the same as the configured ones, marks values the provider will
// compute as unknown, and says which changes force a replacement.

#include "host/engine/rpc/customize_diff.h"
#include "host/engine/rpc/plan_functions.h"
#include "host/engine/rpc/provider_service.h"
#include "host/engine/rpc/service_support.h"
#include "host/engine/rules/plan_rules.h"
#include "host/engine/schema/schema_rules.h"

namespace luaform::engine {

PlanResponse ProviderService::plan_resource_change(const PlanRequest& req) const {
  return detail::in_session<PlanResponse>(*logic_, provider_secrets(), [&](Session& session) {
    SecretScope& secrets = session.secrets();
    PlanResponse resp;
    Diagnostics& diags = resp.diagnostics;
    const Schema* schema = detail::find_schema(schema_.resources, "resource", req.type_name, diags);
    if (!schema) return resp;
    const Value& prior = req.prior_state;
    const Value& proposed = req.proposed_new_state;
    const Value& config = req.config;
    for (const Value* v : {&prior, &proposed, &config}) secrets.add(schema->block, *v);
    // The plan made again at apply starts from the private data of the first plan, which a
    // client of protocol 6.11 sends back: what that plan chose (a random name, say) can be
    // chosen again. Other clients send none; the stored private data is the start then.
    resp.planned_private = req.planned_private.empty() ? req.prior_private : req.planned_private;
    // An identity never changes in a plan: the object keeps the one stored, and a new object
    // gets its own when it is created.
    if (schema->identity && !prior.is_null()) resp.planned_identity = req.prior_identity;

    // The provider's configuration is not known yet: the CLI plans this object in a later
    // run. What it shows meanwhile is the configuration, with the computed values unknown.
    if (defers(req.deferral_allowed)) {
      resp.deferred = DeferralReason::ProviderConfigUnknown;
      const Value planned =
          proposed.is_null()
              ? proposed
              : mark_computed_unknown(
                    schema->block,
                    plan_computed_blocks(schema->block,
                                         with_defaults(schema->block, proposed, config), prior,
                                         config),
                    prior, config);
      resp.planned_state = without_write_only(schema->block, planned);
      return resp;
    }

    // Destroy (asked only when the plan_destroy capability is advertised): the plan is null;
    // a resource that checks destroys may warn, or refuse with an error.
    if (proposed.is_null()) {
      if (schema->checks_destroy && !prior.is_null()) {
        ResourceData d(*schema, prior, config, proposed);
        diags.append(session.call(Operation::PlanDestroy, req.type_name, d));
      }
      resp.planned_state = proposed;
      return resp;
    }

    if (!req.computed_blocks_allowed) {
      if (auto block = unconfigured_computed_block(schema->block, config)) {
        diags.error(req.type_name + ": block \"" + path_to_string(*block) +
                        "\" is computed, which this CLI cannot plan",
                    "The provider fills the block in when the configuration has none, and only "
                    "a CLI of protocol 6.11 (Terraform 1.16 or later, with the provider served "
                    "over protocol 6) plans such a block. Write the block in the configuration, "
                    "or use such a CLI.",
                    *block);
        return resp;
      }
    }
    Value planned = plan_computed_blocks(
        schema->block, with_defaults(schema->block, proposed, config), prior, config);
    if (!prior.is_null()) {
      // A configured value the resource counts as the same as the stored one is no change.
      planned = detail::keep_same_values(session, req.type_name, *schema, prior, planned, diags,
                                         Keeping::WholeAttributes);
      // requires_replace_if: the logic's verdict on each changed attribute that has one.
      const ReplaceCheck ask = [&](const AttributePath& path, const Value& before,
                                   const Value& after) {
        return session.requires_replace(req.type_name, path, before, after,
                                        {planned, config, prior}, diags);
      };
      find_replacements(schema->block, prior, planned, schema->has_update, {},
                        resp.requires_replace, ask);
    }
    planned = mark_computed_unknown(schema->block, planned, prior, config);
    planned =
        plan_with_functions(session, req.type_name, schema->block, prior, config, planned, diags);
    if (schema->customizes_diff) {
      planned = customize_diff(session, req, *schema, planned, resp);
    }
    // The configuration's write-only values reach create and update from the config, never the
    // plan: the CLI refuses a plan that holds them.
    resp.planned_state = without_write_only(schema->block, planned);
    return resp;
  });
}

}  // namespace luaform::engine
