// The one edge where the engine's values meet the CLI's bytes. Each RPC's request arrives here
// with its values encoded (cty's msgpack, or JSON); WireService finds the schema they were
// encoded with, decodes them once, hands ProviderService native values, and encodes the values
// of its response the same way. host/protocol maps tfplugin messages onto these forms.
//
// What cannot be decoded is refused here, before the engine runs: the reply names the value
// and the problem, and an apply or a read gives the stored state back unchanged. A request
// whose type the provider does not have reaches the engine with null values, and the engine
// says that the type is unknown, as it says every rule once.
#pragma once

#include <memory>
#include <string>

#include "host/engine/rpc/messages.h"
#include "host/engine/rpc/provider_service.h"

namespace luaform::engine::wire {

// A value on the wire: exactly one of the two encodings is set (msgpack preferred); neither
// for no value (an identity the resource does not have).
struct DynamicValue {
  std::string msgpack;
  std::string json;
  bool empty() const { return msgpack.empty() && json.empty(); }
};

using ValidateRequest = BasicValidateRequest<DynamicValue>;
using ConfigureRequest = BasicConfigureRequest<DynamicValue>;
using PlanRequest = BasicPlanRequest<DynamicValue>;
using PlanResponse = BasicPlanResponse<DynamicValue>;
using ApplyRequest = BasicApplyRequest<DynamicValue>;
using ApplyResponse = BasicApplyResponse<DynamicValue>;
using ReadRequest = BasicReadRequest<DynamicValue>;
using ReadResponse = BasicReadResponse<DynamicValue>;
using ReadDataRequest = BasicReadDataRequest<DynamicValue>;
using ReadDataResponse = BasicReadDataResponse<DynamicValue>;
using UpgradeResponse = BasicUpgradeResponse<DynamicValue>;
using ImportRequest = BasicImportRequest<DynamicValue>;
using ImportedResource = BasicImportedResource<DynamicValue>;
using ImportResponse = BasicImportResponse<DynamicValue>;
using OpenEphemeralRequest = BasicOpenEphemeralRequest<DynamicValue>;
using OpenEphemeralResponse = BasicOpenEphemeralResponse<DynamicValue>;
using MoveResponse = BasicMoveResponse<DynamicValue>;
using UpgradeIdentityResponse = BasicUpgradeIdentityResponse<DynamicValue>;
using GenerateConfigRequest = BasicGenerateConfigRequest<DynamicValue>;
using GenerateConfigResponse = BasicGenerateConfigResponse<DynamicValue>;
using ListRequest = BasicListRequest<DynamicValue>;
using ListEvent = BasicListEvent<DynamicValue>;
using ListSink = BasicListSink<DynamicValue>;
using ActionRequest = BasicActionRequest<DynamicValue>;
using ConfigureStoreRequest = BasicConfigureStoreRequest<DynamicValue>;
using CallFunctionRequest = BasicCallFunctionRequest<DynamicValue>;
using CallFunctionResponse = BasicCallFunctionResponse<DynamicValue>;

class WireService {
 public:
  explicit WireService(std::shared_ptr<ProviderService> service);

  // The engine behind this edge, for the RPCs that carry no values.
  ProviderService& engine() const { return *service_; }

  Diagnostics validate_provider_config(const ValidateRequest& req) const;
  Diagnostics validate_resource_config(const ValidateRequest& req) const;
  Diagnostics validate_data_source_config(const ValidateRequest& req) const;
  Diagnostics validate_ephemeral_resource_config(const ValidateRequest& req) const;
  Diagnostics validate_list_resource_config(const ValidateRequest& req) const;
  Diagnostics validate_action_config(const ValidateRequest& req) const;
  Diagnostics validate_state_store_config(const ValidateRequest& req) const;
  // The state RPCs carry no values but the states' bytes: they go to engine() directly.
  ConfigureStoreResponse configure_state_store(const ConfigureStoreRequest& req) const;
  Diagnostics configure_provider(const ConfigureRequest& req) const;
  PlanResponse plan_resource_change(const PlanRequest& req) const;
  ApplyResponse apply_resource_change(const ApplyRequest& req) const;
  ReadResponse read_resource(const ReadRequest& req) const;
  ReadDataResponse read_data_source(const ReadDataRequest& req) const;
  UpgradeResponse upgrade_resource_state(const UpgradeRequest& req) const;
  ImportResponse import_resource_state(const ImportRequest& req) const;
  MoveResponse move_resource_state(const MoveRequest& req) const;
  UpgradeIdentityResponse upgrade_resource_identity(const UpgradeIdentityRequest& req) const;
  GenerateConfigResponse generate_resource_config(const GenerateConfigRequest& req) const;
  void list_resource(const ListRequest& req, const ListSink& sink) const;
  PlanActionResponse plan_action(const ActionRequest& req) const;
  void invoke_action(const ActionRequest& req, const ActionSink& sink) const;
  OpenEphemeralResponse open_ephemeral_resource(const OpenEphemeralRequest& req) const;
  CallFunctionResponse call_function(const CallFunctionRequest& req) const;

 private:
  std::shared_ptr<ProviderService> service_;
  // The schema as served: the one the CLI encoded the request's values with.
  const ProviderSchema& schema_;
};

}  // namespace luaform::engine::wire
