// The provider's RPCs in protocol-agnostic form. host/protocol maps tfplugin5 and tfplugin6
// messages onto these structs one-to-one; every rule of Terraform's contract lives behind them.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "host/engine/rpc/provider_logic.h"
#include "host/engine/schema/schema.h"
#include "host/engine/value/diagnostics.h"
#include "host/engine/value/value.h"

namespace luaform::engine {

// A value on the wire: exactly one of the two encodings is set (msgpack preferred).
struct DynamicValue {
  std::string msgpack;
  std::string json;
  bool empty() const { return msgpack.empty() && json.empty(); }
};

// Why the provider answers "not now" (a deferral) instead of a result: the CLI plans the rest
// and comes back to the object in a later run. Only when the request says the CLI allows it.
enum class DeferralReason {
  ResourceConfigUnknown = 1,
  ProviderConfigUnknown = 2,
  AbsentPrereq = 3
};

struct ServerCapabilities {
  bool plan_destroy = false;
  bool get_provider_schema_optional = true;
  bool move_resource_state = false;
  // Terraform 1.14's -generate-config-out asks the provider (GenerateResourceConfig).
  bool generate_resource_config = true;
};

struct GetProviderSchemaResponse {
  ServerCapabilities capabilities;
  const ProviderSchema* schema = nullptr;  // null when loading failed entirely
  Diagnostics diagnostics;
};

struct GetMetadataResponse {
  ServerCapabilities capabilities;
  std::vector<std::string> resources;
  std::vector<std::string> data_sources;
  std::vector<std::string> ephemeral_resources;
  std::vector<std::string> functions;
  std::vector<std::string> list_resources;
  std::vector<std::string> actions;
  Diagnostics diagnostics;
};

struct ValidateRequest {  // provider, resource, data source and ephemeral config validation
  std::string type_name;  // empty for the provider itself
  DynamicValue config;
  // The CLI knows write-only attributes (and so will not save their values). A CLI that does
  // not say so must not be given one.
  bool write_only_allowed = false;
};

struct ConfigureRequest {
  std::string terraform_version;
  DynamicValue config;
  bool deferral_allowed = false;
};

struct PlanRequest {
  std::string type_name;
  DynamicValue prior_state;
  DynamicValue proposed_new_state;
  DynamicValue config;
  std::string prior_private;
  DynamicValue prior_identity{};  // none unless the resource has an identity
  bool deferral_allowed = false;
};
struct PlanResponse {
  DynamicValue planned_state;
  std::vector<AttributePath> requires_replace;
  std::string planned_private;
  DynamicValue planned_identity{};  // none unless the resource has an identity
  Diagnostics diagnostics;
  std::optional<DeferralReason> deferred{};
};

struct ApplyRequest {
  std::string type_name;
  DynamicValue prior_state;
  DynamicValue planned_state;
  DynamicValue config;
  std::string planned_private;
  DynamicValue planned_identity{};  // none unless the resource has an identity
};
struct ApplyResponse {
  DynamicValue new_state;
  std::string private_data;
  DynamicValue new_identity{};  // none unless the resource has an identity
  Diagnostics diagnostics;
};

struct ReadRequest {
  std::string type_name;
  DynamicValue current_state;
  std::string private_data;
  DynamicValue current_identity{};  // none unless the resource has an identity
  bool deferral_allowed = false;
};
struct ReadResponse {
  DynamicValue new_state;
  std::string private_data;
  DynamicValue new_identity{};  // none unless the resource has an identity
  Diagnostics diagnostics;
  std::optional<DeferralReason> deferred{};
};

struct ReadDataRequest {
  std::string type_name;
  DynamicValue config;
  bool deferral_allowed = false;
};
struct ReadDataResponse {
  DynamicValue state;
  Diagnostics diagnostics;
  std::optional<DeferralReason> deferred{};
};

struct UpgradeRequest {
  std::string type_name;
  int64_t version = 0;
  std::string raw_state_json;                            // JSON state, when given
  std::map<std::string, std::string> raw_state_flatmap;  // legacy flatmap state
};
struct UpgradeResponse {
  DynamicValue upgraded_state;
  Diagnostics diagnostics;
};

// An import gives either the id or, for an import block with `identity = { ... }`, the identity.
struct ImportRequest {
  std::string type_name;
  std::string id;
  DynamicValue identity{};  // none unless the resource has an identity
};
struct ImportedResource {
  std::string type_name;
  DynamicValue state;
  std::string private_data;
  DynamicValue identity{};  // none unless the resource has an identity
};
struct ImportResponse {
  std::vector<ImportedResource> imported;
  Diagnostics diagnostics;
};

// An ephemeral resource's lifecycle: Open gives the value, private data and when to renew; the
// CLI hands the private data to Renew (which may replace it) and at last to Close.
using RenewTime = std::optional<std::chrono::system_clock::time_point>;
struct OpenEphemeralRequest {
  std::string type_name;
  DynamicValue config;
};
struct OpenEphemeralResponse {
  DynamicValue result;
  std::string private_data;
  RenewTime renew_at;
  Diagnostics diagnostics;
};
struct RenewEphemeralRequest {  // also CloseEphemeralResource's
  std::string type_name;
  std::string private_data;
};
struct RenewEphemeralResponse {
  std::string private_data;
  RenewTime renew_at;
  Diagnostics diagnostics;
};

struct MoveRequest {
  MoveSource source;
  std::map<std::string, std::string> source_state_flatmap;  // legacy state, refused
  std::string source_private;
  std::string target_type_name;
};
struct MoveResponse {
  DynamicValue target_state;
  std::string target_private;
  DynamicValue target_identity{};  // none unless the resource has an identity
  Diagnostics diagnostics;
};

// Identities stored under an older identity version (the JSON the CLI saved).
struct UpgradeIdentityRequest {
  std::string type_name;
  int64_t version = 0;
  std::string raw_identity_json;
};
struct UpgradeIdentityResponse {
  DynamicValue upgraded_identity;
  Diagnostics diagnostics;
};

// The configuration a user would write for a stored object (GenerateResourceConfig).
struct GenerateConfigRequest {
  std::string type_name;
  DynamicValue state;
};
struct GenerateConfigResponse {
  DynamicValue config;
  Diagnostics diagnostics;
};

// ListResource: the objects a `list` block selects, streamed one event at a time.
struct ListRequest {
  std::string type_name;
  DynamicValue config;
  bool include_resource_object = false;
  int64_t limit = 0;
};
// One listed object (identity, display name, and the object when it was asked for), or only
// diagnostics: warnings about an element that was left out, or the error that ended the list.
struct ListEvent {
  DynamicValue identity;
  std::string display_name;
  DynamicValue resource_object;
  Diagnostics diagnostics;
};
// Sends an event to the CLI; false when the CLI stopped reading.
using ListSink = std::function<bool(const ListEvent&)>;

// PlanAction and InvokeAction: an action block's configuration.
struct ActionRequest {
  std::string type_name;
  DynamicValue config;
};
// What an invoked action reports while it runs: a progress message, or (last, exactly once)
// that it completed, with its diagnostics.
struct ActionEvent {
  std::string progress;
  bool completed = false;
  Diagnostics diagnostics;
};
using ActionSink = std::function<void(const ActionEvent&)>;

struct GetIdentitySchemasResponse {
  std::map<std::string, const ResourceIdentity*> identities;  // resources declaring one
  Diagnostics diagnostics;
};

struct GetFunctionsResponse {
  const std::map<std::string, Function>* functions = nullptr;
  Diagnostics diagnostics;
};

struct CallFunctionRequest {
  std::string name;
  std::vector<DynamicValue> arguments;
};
struct CallFunctionResponse {
  DynamicValue result;
  std::optional<FunctionFailure> error;  // CallFunction reports failures here, not as diagnostics
};

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
  Diagnostics plan_action(const ActionRequest& req) const;
  void invoke_action(const ActionRequest& req, const ActionSink& sink) const;
  GetIdentitySchemasResponse get_resource_identity_schemas() const;
  UpgradeIdentityResponse upgrade_resource_identity(const UpgradeIdentityRequest& req) const;
  Diagnostics validate_ephemeral_resource_config(const ValidateRequest& req) const;
  OpenEphemeralResponse open_ephemeral_resource(const OpenEphemeralRequest& req) const;
  RenewEphemeralResponse renew_ephemeral_resource(const RenewEphemeralRequest& req) const;
  Diagnostics close_ephemeral_resource(const RenewEphemeralRequest& req) const;
  GetFunctionsResponse get_functions() const;
  CallFunctionResponse call_function(const CallFunctionRequest& req) const;
  void stop_provider();

 private:
  Diagnostics validate(SchemaOwner owner, const std::string& type_name, const Schema& schema,
                       const DynamicValue& config) const;
  // validate() for the type named in `req`, found in `schemas` (an error names `kind` when it
  // is not there).
  Diagnostics validate_typed(SchemaOwner owner, const std::map<std::string, Schema>& schemas,
                             const std::string& kind, const ValidateRequest& req) const;

  std::shared_ptr<ProviderLogic> logic_;
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
};

}  // namespace luaform::engine
