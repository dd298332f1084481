// The provider's RPCs on native values: every rule of Terraform's contract lives behind them.
// host/engine/wire decodes the CLI's bytes into their requests and encodes their responses;
// host/protocol maps tfplugin5 and tfplugin6 messages onto the wire's forms one-to-one.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "host/engine/rpc/messages.h"
#include "host/engine/rpc/provider_logic.h"
#include "host/engine/schema/schema.h"
#include "host/engine/value/diagnostics.h"
#include "host/engine/value/value.h"

namespace luaform::engine {

class ProviderService {
 public:
  explicit ProviderService(std::shared_ptr<ProviderLogic> logic);

  GetMetadataResponse get_metadata() const;
  GetProviderSchemaResponse get_provider_schema() const;
  Diagnostics validate_provider_config(const ValidateRequest& req) const;
  Diagnostics validate_resource_config(const ValidateRequest& req) const;
  Diagnostics validate_data_source_config(const ValidateRequest& req) const;
  Diagnostics configure_provider(const ConfigureRequest& req);
  PlanResponse plan_resource_change(const PlanRequest& req) const;
  ApplyResponse apply_resource_change(const ApplyRequest& req) const;
  ReadResponse read_resource(const ReadRequest& req) const;
  ReadDataResponse read_data_source(const ReadDataRequest& req) const;
  UpgradeResponse upgrade_resource_state(const UpgradeRequest& req) const;
  ImportResponse import_resource_state(const ImportRequest& req) const;
  MoveResponse move_resource_state(const MoveRequest& req) const;
  GenerateConfigResponse generate_resource_config(const GenerateConfigRequest& req) const;
  Diagnostics validate_list_resource_config(const ValidateRequest& req) const;
  void list_resource(const ListRequest& req, const ListSink& sink) const;
  Diagnostics validate_action_config(const ValidateRequest& req) const;
  PlanActionResponse plan_action(const ActionRequest& req) const;
  void invoke_action(const ActionRequest& req, const ActionSink& sink) const;
  Diagnostics validate_state_store_config(const ValidateRequest& req) const;
  ConfigureStoreResponse configure_state_store(const ConfigureStoreRequest& req);
  GetStatesResponse get_states(const std::string& store_type) const;
  ReadStateResponse read_state_bytes(const StateRequest& req) const;
  Diagnostics write_state_bytes(WriteStateRequest req) const;
  LockStateResponse lock_state(const LockStateRequest& req) const;
  Diagnostics unlock_state(const UnlockStateRequest& req) const;
  Diagnostics delete_state(const StateRequest& req) const;
  GetIdentitySchemasResponse get_resource_identity_schemas() const;
  UpgradeIdentityResponse upgrade_resource_identity(const UpgradeIdentityRequest& req) const;
  Diagnostics validate_ephemeral_resource_config(const ValidateRequest& req) const;
  OpenEphemeralResponse open_ephemeral_resource(const OpenEphemeralRequest& req) const;
  RenewEphemeralResponse renew_ephemeral_resource(const RenewEphemeralRequest& req) const;
  Diagnostics close_ephemeral_resource(const RenewEphemeralRequest& req) const;
  GetFunctionsResponse get_functions() const;
  CallFunctionResponse call_function(const CallFunctionRequest& req) const;
  void stop_provider();
  // The problems found loading the logic and checking its schema, warnings included: what
  // --check prints.
  const Diagnostics& load_problems() const { return schema_diagnostics_; }
  // Warnings among them (a script left out) are told to the CLI once per CLI command, which
  // starts a provider process per graph walk and shows each one's (OpenTofu also shows a
  // GetProviderSchema's again each time it reads its cached schema): they go with
  // ValidateProviderConfig alone, in the process whose `claim` (asked once, at the first) says
  // it is the first of the command to tell them; every other RPC gives errors only. Without a
  // claim every RPC tells them.
  void tell_load_warnings_once(std::function<bool()> claim) { warnings_claim_ = std::move(claim); }

 private:
  Diagnostics validate(SchemaOwner owner, const std::string& type_name, const Schema& schema,
                       const Value& config) const;
  // validate() for the type named in `req`, found in `schemas` (an error names `kind` when it
  // is not there).
  Diagnostics validate_typed(SchemaOwner owner, const std::map<std::string, Schema>& schemas,
                             const std::string& kind, const ValidateRequest& req) const;

  std::shared_ptr<ProviderLogic> logic_;
  std::function<bool()> warnings_claim_;
  mutable std::once_flag warnings_claimed_;
  mutable bool claim_won_ = false;  // set once, under warnings_claimed_
  // The load problems an RPC reports: the errors, and the warnings where they are told.
  Diagnostics reported_load_problems(bool validate) const;
  // The logic's schema as the CLI sees it (see schema_rules.h).
  ProviderSchema schema_;
  // Problems loading the logic or in its declared schema; every RPC that needs the schema
  // reports them.
  Diagnostics schema_diagnostics_;
  // The provider configuration's secrets as of the latest configure_provider; every RPC
  // starts its SecretScope with them.
  std::shared_ptr<const std::vector<std::string>> provider_secrets() const;

  // The texts of the provider configuration's sensitive values, hidden from every diagnostic
  // and log line a script may put them in. configure_provider replaces them while other RPCs
  // run: each takes its own reference under the lock, so the list it reads is never freed
  // under it.
  mutable std::mutex provider_secrets_mutex_;
  std::shared_ptr<const std::vector<std::string>> provider_secrets_;
  // What the server can do, as GetMetadata and GetProviderSchema announce it.
  ServerCapabilities capabilities_;
  // The latest ConfigureProvider held values not known yet, and the CLI allowed deferrals: the
  // provider was not configured, and the calls that need it are deferred.
  std::atomic<bool> provider_config_unknown_{false};
  // Whether a call that allows deferrals is deferred for the provider's configuration.
  bool defers(bool allowed) const { return allowed && provider_config_unknown_.load(); }
  // When the provider's configuration is not known (and the request may not defer), an error
  // naming `what` in `diags`: the call would otherwise run without the client. True then.
  bool refuses_unconfigured(const std::string& what, Diagnostics& diags) const;

  // Each state store the CLI configured (ConfigureStateStore): its configuration with defaults
  // and the chunk size agreed, for the state RPCs that follow, which name only the store.
  struct ConfiguredStore {
    Value config;
    int64_t chunk_size = 0;
  };
  mutable std::mutex stores_mutex_;
  std::map<std::string, ConfiguredStore> stores_;
  // The configured store `store_type`, or nullopt with why not in `diags`.
  std::optional<ConfiguredStore> configured_store(const std::string& store_type,
                                                  Diagnostics& diags) const;
  // Runs `call` on the store `store_type` configured as `store` in one session, the store
  // configuration's secrets hidden from what it reports; without `store`, on the configured
  // one, or why there is none.
  Diagnostics run_store(const std::string& store_type, const ConfiguredStore& store,
                        StoreCall& call) const;
  Diagnostics run_store(const std::string& store_type, StoreCall& call) const;
};

}  // namespace luaform::engine
