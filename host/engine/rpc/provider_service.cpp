// The RPCs about the provider as a whole: metadata, schema, validation, configure, stop.
#include "host/engine/rpc/provider_service.h"

#include <exception>

#include "host/engine/rpc/declared_schema.h"
#include "host/engine/rpc/service_support.h"
#include "host/engine/rules/config_validation.h"
#include "host/engine/rules/resource_identity.h"
#include "host/engine/rules/secrets.h"
#include "host/engine/schema/schema_rules.h"

namespace luaform::engine {

const char* operation_name(Operation op) {
  switch (op) {
    case Operation::Create:
      return "create";
    case Operation::Read:
      return "read";
    case Operation::Update:
      return "update";
    case Operation::Delete:
      return "delete";
    case Operation::ReadData:
      return "read";
    case Operation::CustomizeDiff:
      return "customize_diff";
    case Operation::Import:
      return "import";
    case Operation::Open:
      return "open";
    case Operation::Renew:
      return "renew";
    case Operation::Close:
      return "close";
    case Operation::PlanDestroy:
      return "plan_destroy";
  }
  return "call";
}

ProviderService::ProviderService(std::shared_ptr<ProviderLogic> logic) : logic_(std::move(logic)) {
  schema_diagnostics_.append(logic_->load_diagnostics());
  const ProviderSchema& declared = logic_->schema();
  schema_ = schema_as_served(with_problems_left_out(declared, schema_diagnostics_));
  for (const auto& [name, schema] : declared.resources) {
    capabilities_.move_resource_state = capabilities_.move_resource_state || schema.moves_state;
    // Without a resource that checks destroys, the CLI plans them alone, as it always did.
    capabilities_.plan_destroy = capabilities_.plan_destroy || schema.checks_destroy;
  }
}

GetMetadataResponse ProviderService::get_metadata() const {
  GetMetadataResponse resp;
  resp.capabilities = capabilities_;
  for (const auto& [name, _] : schema_.resources) resp.resources.push_back(name);
  for (const auto& [name, _] : schema_.data_sources) resp.data_sources.push_back(name);
  for (const auto& [name, _] : schema_.ephemeral_resources) {
    resp.ephemeral_resources.push_back(name);
  }
  for (const auto& [name, _] : schema_.functions) resp.functions.push_back(name);
  for (const auto& [name, _] : schema_.list_resources) resp.list_resources.push_back(name);
  for (const auto& [name, _] : schema_.actions) resp.actions.push_back(name);
  for (const auto& [name, _] : schema_.state_stores) resp.state_stores.push_back(name);
  resp.diagnostics.append(reported_load_problems(false));
  return resp;
}

GetProviderSchemaResponse ProviderService::get_provider_schema() const {
  GetProviderSchemaResponse resp;
  resp.capabilities = capabilities_;
  resp.schema = &schema_;
  resp.diagnostics.append(reported_load_problems(false));
  return resp;
}

Diagnostics ProviderService::validate(SchemaOwner owner, const std::string& type_name,
                                      const Schema& schema, const Value& config) const {
  return detail::in_session<Diagnostics>(*logic_, provider_secrets(), [&](Session& session) {
    SecretScope& secrets = session.secrets();
    Diagnostics diags;
    if (auto left_out = schema_.left_out.find(left_out_key(owner, type_name));
        owner != SchemaOwner::Provider && left_out != schema_.left_out.end()) {
      diags.error("Cannot use " + type_name + ": its script does not load", left_out->second);
      return diags;
    }
    // A validator's message or log line may quote the value it refused.
    secrets.add(schema.block, config);
    // A deprecated type still works; each configuration of it says so (helper/schema's
    // DeprecationMessage). The CLI itself warns only where a value of it is referenced.
    if (owner != SchemaOwner::Provider && !schema.block.deprecated.empty()) {
      diags.warning(type_name + " is deprecated", schema.block.deprecated);
    }
    diags.append(
        validate_config(schema.block, config, [&](const AttributePath& path, const Value& value) {
          return session.validate_value(owner, type_name, path, value, {config, config, Value()});
        }));
    return diags;
  });
}

Diagnostics ProviderService::reported_load_problems(bool validate) const {
  bool tell_warnings = !warnings_claim_;
  if (warnings_claim_ && validate) {
    std::call_once(warnings_claimed_, [this] { claim_won_ = warnings_claim_(); });
    tell_warnings = claim_won_;
  }
  Diagnostics diags;
  for (const Diagnostic& d : schema_diagnostics_.items()) {
    if (d.severity == Severity::Error || tell_warnings) diags.add(d);
  }
  return diags;
}

Diagnostics ProviderService::validate_provider_config(const ValidateRequest& req) const {
  Diagnostics diags = reported_load_problems(true);
  diags.append(validate(SchemaOwner::Provider, "", schema_.provider, req.config));
  return diags;
}

Diagnostics ProviderService::validate_resource_config(const ValidateRequest& req) const {
  Diagnostics diags;
  const Schema* schema = detail::find_schema(schema_.resources, "resource", req.type_name, diags);
  if (!schema) return diags;
  diags.append(validate(SchemaOwner::Resource, req.type_name, *schema, req.config));
  if (req.write_only_allowed || diags.has_errors()) return diags;
  const Value& config = req.config;
  for (const auto& attr : schema->block.attributes) {
    if (attr.write_only && config.is_known() && !config.is_null() &&
        !config.get_attribute(attr.name).is_null()) {
      diags.error("Write-only attribute \"" + attr.name + "\" needs a newer CLI",
                  "This CLI does not support write-only attributes, so it would save the "
                  "value in state. Use OpenTofu 1.11 or Terraform 1.11 or later, or leave " +
                      attr.name + " unset.",
                  {AttributeName{attr.name}});
    }
  }
  return diags;
}

Diagnostics ProviderService::validate_typed(SchemaOwner owner,
                                            const std::map<std::string, Schema>& schemas,
                                            const std::string& kind,
                                            const ValidateRequest& req) const {
  Diagnostics diags;
  const Schema* schema = detail::find_schema(schemas, kind, req.type_name, diags);
  if (schema) diags.append(validate(owner, req.type_name, *schema, req.config));
  return diags;
}

Diagnostics ProviderService::validate_data_source_config(const ValidateRequest& req) const {
  return validate_typed(SchemaOwner::DataSource, schema_.data_sources, "data source", req);
}

Diagnostics ProviderService::validate_ephemeral_resource_config(const ValidateRequest& req) const {
  return validate_typed(SchemaOwner::EphemeralResource, schema_.ephemeral_resources,
                        "ephemeral resource", req);
}

Diagnostics ProviderService::validate_list_resource_config(const ValidateRequest& req) const {
  return validate_typed(SchemaOwner::ListResource, schema_.list_resources, "list resource", req);
}

Diagnostics ProviderService::validate_action_config(const ValidateRequest& req) const {
  return validate_typed(SchemaOwner::Action, schema_.actions, "action", req);
}

Diagnostics ProviderService::configure_provider(const ConfigureRequest& req) {
  Diagnostics diags;
  const Value config = with_defaults(schema_.provider.block, req.config, req.config);
  // Values not known yet (they come from resources not created): where the CLI allows
  // deferrals, the provider stays unconfigured and defers what needs it, rather than running
  // configure on half a configuration.
  provider_config_unknown_ = req.deferral_allowed && !config.is_wholly_known();
  if (provider_config_unknown_) return diags;
  {
    auto secrets = std::make_shared<const std::vector<std::string>>(
        sensitive_texts(schema_.provider.block, config));
    const std::lock_guard<std::mutex> lock(provider_secrets_mutex_);
    provider_secrets_ = std::move(secrets);
  }
  // Configure runs with the configuration's own secrets in scope, as every hook does.
  return detail::in_session<Diagnostics>(*logic_, provider_secrets(), [&](Session&) {
    try {
      return logic_->configure(config);
    } catch (const std::exception& e) {
      Diagnostics failed;
      failed.error("Provider configuration failed", e.what());
      return failed;
    }
  });
}

bool ProviderService::refuses_unconfigured(const std::string& what, Diagnostics& diags) const {
  if (!provider_config_unknown_.load()) return false;
  diags.error("The provider's configuration is not known yet",
              "Cannot " + what +
                  " before the values the provider block uses are known: apply "
                  "what they come from first, or run the CLI with deferrals allowed.");
  return true;
}

std::shared_ptr<const std::vector<std::string>> ProviderService::provider_secrets() const {
  const std::lock_guard<std::mutex> lock(provider_secrets_mutex_);
  return provider_secrets_;
}

void ProviderService::stop_provider() {
  logic_->stop();
}

}  // namespace luaform::engine
