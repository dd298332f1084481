// PlanAction and InvokeAction: an `action` block's operation (Terraform 1.14), which changes
// nothing in state. The plan asks the action's own check, once its configuration is known (a
// lifecycle trigger may plan it with values not known yet: the check then waits for the
// invoke). The invoke streams progress messages as the action reports them, then exactly one
// completed event with its diagnostics: the CLI ends its reading there, and takes an event
// that is neither for a broken provider.
#include <exception>

#include "host/engine/provider_service.h"
#include "host/engine/schema_rules.h"
#include "host/engine/service_support.h"

namespace luaform::engine {

Diagnostics ProviderService::plan_action(const ActionRequest& req) const {
  return detail::in_secret_scope<Diagnostics>(provider_secrets(), [&](SecretScope& secrets) {
    Diagnostics diags;
    const Schema* schema = detail::find_schema(schema_.actions, "action", req.type_name, diags);
    if (!schema) return diags;
    Value config = detail::decode_dynamic(req.config, schema->block.implied_type(), diags);
    if (diags.has_errors() || !config.is_wholly_known()) return diags;
    config = with_defaults(schema->block, config, config);
    secrets.add(schema->block, config);
    try {
      diags.append(logic_->plan_action(req.type_name, config));
    } catch (const std::exception& e) {
      diags.error(req.type_name + ": plan failed", e.what());
    }
    return diags;
  });
}

void ProviderService::invoke_action(const ActionRequest& req, const ActionSink& sink) const {
  ActionEvent completed;
  completed.completed = true;
  completed.diagnostics =
      detail::in_secret_scope<Diagnostics>(provider_secrets(), [&](SecretScope& secrets) {
        Diagnostics diags;
        const Schema* schema = detail::find_schema(schema_.actions, "action", req.type_name, diags);
        if (!schema) return diags;
        Value config = detail::decode_dynamic(req.config, schema->block.implied_type(), diags);
        if (diags.has_errors()) return diags;
        if (!config.is_wholly_known()) {
          diags.error(req.type_name + ": invoke failed",
                      "The configuration is not wholly known: the CLI invokes an action only "
                      "once every value it uses is.");
          return diags;
        }
        config = with_defaults(schema->block, config, config);
        secrets.add(schema->block, config);
        const ActionProgress progress = [&](const std::string& message) {
          ActionEvent event;
          event.progress = secrets.hide_text(message);
          sink(event);
        };
        try {
          diags.append(logic_->invoke_action(req.type_name, config, progress));
        } catch (const std::exception& e) {
          diags.error(req.type_name + ": invoke failed", e.what());
        }
        return diags;
      });
  sink(completed);
}

}  // namespace luaform::engine
