// PlanAction and InvokeAction: an `action` block's operation (Terraform 1.14), which changes
// nothing in state. The plan asks the action's own check, once its configuration is known (a
// lifecycle trigger may plan it with values not known yet); the invoke asks it again before it
// runs, so that no configuration runs unchecked. The invoke streams progress messages as the
// action reports them, then exactly one completed event with its diagnostics: the CLI ends its
// reading there, and takes an event that is neither for a broken provider.
#include <map>
#include <optional>
#include <string>

#include "host/engine/rpc/provider_service.h"
#include "host/engine/rpc/service_support.h"
#include "host/engine/schema/schema_rules.h"

namespace luaform::engine {
namespace {

// The configuration of the action `req` names, with its defaults and its secrets in scope;
// nullopt when the action or its configuration is not usable (why goes to `diags`) or when the
// configuration is not wholly known yet (nothing goes to `diags`).
std::optional<Value> known_config(const std::map<std::string, Schema>& actions,
                                  const ActionRequest& req, SecretScope& secrets,
                                  Diagnostics& diags) {
  const Schema* schema = detail::find_schema(actions, "action", req.type_name, diags);
  if (!schema) return std::nullopt;
  if (!req.config.is_wholly_known()) return std::nullopt;
  Value with_them = with_defaults(schema->block, req.config, req.config);
  secrets.add(schema->block, with_them);
  return with_them;
}

}  // namespace

PlanActionResponse ProviderService::plan_action(const ActionRequest& req) const {
  return detail::in_session<PlanActionResponse>(*logic_, provider_secrets(), [&](Session& session) {
    SecretScope& secrets = session.secrets();
    PlanActionResponse resp;
    Diagnostics& diags = resp.diagnostics;
    const std::optional<Value> config = known_config(schema_.actions, req, secrets, diags);
    if (!config) return resp;
    // The check needs the client: without the provider's configuration it waits for a
    // later run where the CLI allows it, and is refused where it does not.
    if (defers(req.deferral_allowed)) {
      resp.deferred = DeferralReason::ProviderConfigUnknown;
      return resp;
    }
    if (refuses_unconfigured("plan action " + req.type_name, diags)) return resp;
    diags.append(session.plan_action(req.type_name, *config));
    return resp;
  });
}

void ProviderService::invoke_action(const ActionRequest& req, const ActionSink& sink) const {
  ActionEvent completed;
  completed.completed = true;
  completed.diagnostics =
      detail::in_session<Diagnostics>(*logic_, provider_secrets(), [&](Session& session) {
        SecretScope& secrets = session.secrets();
        Diagnostics diags;
        const std::optional<Value> config = known_config(schema_.actions, req, secrets, diags);
        if (!config) {
          if (!diags.has_errors()) {
            diags.error(req.type_name + ": invoke failed",
                        "The configuration is not wholly known: the CLI invokes an action only "
                        "once every value it uses is.");
          }
          return diags;
        }
        if (refuses_unconfigured("invoke " + req.type_name, diags)) return diags;
        // The plan-time check runs again first: a trigger planned with values not known yet
        // (`message = "created ${x.id}"`) had it skipped then, and an invalid configuration
        // must not run unchecked. Its errors keep the invoke from running.
        diags.append(session.plan_action(req.type_name, *config));
        if (diags.has_errors()) return diags;
        const ActionProgress progress = [&](const std::string& message) {
          ActionEvent event;
          event.progress = secrets.hide_text(message);
          sink(event);
        };
        diags.append(session.invoke_action(req.type_name, *config, progress));
        return diags;
      });
  sink(completed);
}

}  // namespace luaform::engine
