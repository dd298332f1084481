// The provider's RPCs in protocol-agnostic form: one request and one response per RPC.
//
// A message that carries values is a template over the form of its value slots, `V`: the
// engine (ProviderService) takes and gives `Value`s, and the wire layer (host/engine/wire)
// the same messages with `DynamicValue` bytes, which it decodes with the schema once per RPC
// and encodes on the way back. A slot of V for an identity holds none (a null Value, empty
// bytes) unless the resource declares an identity.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "host/engine/rpc/provider_logic.h"
#include "host/engine/rules/deferral.h"
#include "host/engine/rules/state_chunks.h"
#include "host/engine/schema/schema.h"
#include "host/engine/value/diagnostics.h"
#include "host/engine/value/value.h"

namespace luaform::engine {

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
  std::vector<std::string> state_stores;
  Diagnostics diagnostics;
};

// Provider, resource, data source, ephemeral resource, list resource and action config
// validation.
template <class V>
struct BasicValidateRequest {
  std::string type_name;  // empty for the provider itself
  V config;
  // The CLI knows write-only attributes (and so will not save their values). A CLI that does
  // not say so must not be given one.
  bool write_only_allowed = false;
};

template <class V>
struct BasicConfigureRequest {
  std::string terraform_version;
  V config;
  bool deferral_allowed = false;
};

template <class V>
struct BasicPlanRequest {
  std::string type_name;
  V prior_state;
  V proposed_new_state;
  V config;
  std::string prior_private;
  V prior_identity{};
  bool deferral_allowed = false;
  // Protocol 6.11 (Terraform 1.16): the private data the first plan of this change returned,
  // sent again with the plan made at apply; and whether the client plans computed blocks.
  std::string planned_private{};
  bool computed_blocks_allowed = false;
  bool store_planned_private = false;  // the client sends planned_private back (6.11)
};
template <class V>
struct BasicPlanResponse {
  V planned_state;
  std::vector<AttributePath> requires_replace;
  std::string planned_private;
  V planned_identity{};
  Diagnostics diagnostics;
  std::optional<DeferralReason> deferred{};
};

template <class V>
struct BasicApplyRequest {
  std::string type_name;
  V prior_state;
  V planned_state;
  V config;
  std::string planned_private;
  V planned_identity{};
};
template <class V>
struct BasicApplyResponse {
  V new_state;
  std::string private_data;
  V new_identity{};
  Diagnostics diagnostics;
};

template <class V>
struct BasicReadRequest {
  std::string type_name;
  V current_state;
  std::string private_data;
  V current_identity{};
  bool deferral_allowed = false;
};
template <class V>
struct BasicReadResponse {
  V new_state;
  std::string private_data;
  V new_identity{};
  Diagnostics diagnostics;
  std::optional<DeferralReason> deferred{};
};

template <class V>
struct BasicReadDataRequest {
  std::string type_name;
  V config;
  bool deferral_allowed = false;
};
template <class V>
struct BasicReadDataResponse {
  V state;
  Diagnostics diagnostics;
  std::optional<DeferralReason> deferred{};
};

// The stored state stays JSON here: only the upgrade knows the schema version it was written
// with.
struct UpgradeRequest {
  std::string type_name;
  int64_t version = 0;
  std::string raw_state_json;                            // JSON state, when given
  std::map<std::string, std::string> raw_state_flatmap;  // legacy flatmap state
};
template <class V>
struct BasicUpgradeResponse {
  V upgraded_state;
  Diagnostics diagnostics;
};

// An import gives either the id or, for an import block with `identity = { ... }`, the identity.
template <class V>
struct BasicImportRequest {
  std::string type_name;
  std::string id;
  V identity{};
  bool deferral_allowed = false;
};
template <class V>
struct BasicImportedResource {
  std::string type_name;
  V state;
  std::string private_data;
  V identity{};
};
template <class V>
struct BasicImportResponse {
  std::vector<BasicImportedResource<V>> imported;
  Diagnostics diagnostics;
  std::optional<DeferralReason> deferred{};
};

// An ephemeral resource's lifecycle: Open gives the value, private data and when to renew; the
// CLI hands the private data to Renew (which may replace it) and at last to Close.
using RenewTime = std::optional<std::chrono::system_clock::time_point>;
template <class V>
struct BasicOpenEphemeralRequest {
  std::string type_name;
  V config;
  bool deferral_allowed = false;
};
template <class V>
struct BasicOpenEphemeralResponse {
  V result;
  std::string private_data;
  RenewTime renew_at;
  Diagnostics diagnostics;
  std::optional<DeferralReason> deferred{};
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
template <class V>
struct BasicMoveResponse {
  V target_state;
  std::string target_private;
  V target_identity{};
  Diagnostics diagnostics;
};

// Identities stored under an older identity version (the JSON the CLI saved).
struct UpgradeIdentityRequest {
  std::string type_name;
  int64_t version = 0;
  std::string raw_identity_json;
};
template <class V>
struct BasicUpgradeIdentityResponse {
  V upgraded_identity;
  Diagnostics diagnostics;
};

// The configuration a user would write for a stored object (GenerateResourceConfig).
template <class V>
struct BasicGenerateConfigRequest {
  std::string type_name;
  V state;
};
template <class V>
struct BasicGenerateConfigResponse {
  V config;
  Diagnostics diagnostics;
};

// ListResource: the objects a `list` block selects, streamed one event at a time.
template <class V>
struct BasicListRequest {
  std::string type_name;
  V config;
  bool include_resource_object = false;
  int64_t limit = 0;
};
// One listed object (identity, display name, and the object when it was asked for), or only
// diagnostics: warnings about an element that was left out, or the error that ended the list.
template <class V>
struct BasicListEvent {
  V identity;
  std::string display_name;
  V resource_object;
  Diagnostics diagnostics;
};
// Sends an event to the CLI; false when the CLI stopped reading.
template <class V>
using BasicListSink = std::function<bool(const BasicListEvent<V>&)>;

// PlanAction and InvokeAction: an action block's configuration.
template <class V>
struct BasicActionRequest {
  std::string type_name;
  V config;
  bool deferral_allowed = false;  // PlanAction's
};
// PlanAction's answer: the check's diagnostics, or a deferral.
struct PlanActionResponse {
  Diagnostics diagnostics;
  std::optional<DeferralReason> deferred{};
};
// What an invoked action reports while it runs: a progress message, or (last, exactly once)
// that it completed, with its diagnostics.
struct ActionEvent {
  std::string progress;
  bool completed = false;
  Diagnostics diagnostics;
};
using ActionSink = std::function<void(const ActionEvent&)>;

// A state store's RPCs (a `state_store` block, protocol 6): its configuration, checked and then
// kept per store type; the states it holds, each a document of bytes the CLI reads and writes
// whole, streamed in chunks of the size the two sides agreed when the store was configured.
template <class V>
struct BasicConfigureStoreRequest {
  std::string type_name;
  V config;
  int64_t chunk_size = 0;  // what the CLI proposes; 0 when it says nothing
};
struct ConfigureStoreResponse {
  Diagnostics diagnostics;
  int64_t chunk_size = 0;  // what the store streams in
};
// One state of a store, by the name the CLI knows it as (a workspace: "default", "dev").
struct StateRequest {
  std::string type_name;
  std::string state_id;
};
// ReadStateBytes' answer: the state (empty when there is none), the chunks to stream it in
// (none for an empty state) and the diagnostics, which go with the first message.
struct ReadStateResponse {
  std::string state;
  std::vector<StateChunkRange> chunks;
  Diagnostics diagnostics;
};
// WriteStateBytes: the chunks of the stream in their order; the first one named the store and
// state (no chunk at all for an empty write, which the CLI never sends for a real state).
struct WriteStateRequest {
  StateRequest state;
  std::vector<StateChunk> chunks;
};
struct LockStateRequest {
  StateRequest state;
  std::string operation;  // what the CLI is about to do, for people reading who holds a lock
};
struct LockStateResponse {
  std::string lock_id;
  Diagnostics diagnostics;
};
struct UnlockStateRequest {
  StateRequest state;
  std::string lock_id;
};
struct GetStatesResponse {
  std::vector<std::string> state_ids;
  Diagnostics diagnostics;
};

struct GetIdentitySchemasResponse {
  std::map<std::string, const ResourceIdentity*> identities;  // resources declaring one
  Diagnostics diagnostics;
};

struct GetFunctionsResponse {
  const std::map<std::string, Function>* functions = nullptr;
  Diagnostics diagnostics;
};

template <class V>
struct BasicCallFunctionRequest {
  std::string name;
  std::vector<V> arguments;
};
template <class V>
struct BasicCallFunctionResponse {
  V result;
  std::optional<FunctionFailure> error;  // CallFunction reports failures here, not as diagnostics
};

// The engine's forms: native values.
using ValidateRequest = BasicValidateRequest<Value>;
using ConfigureRequest = BasicConfigureRequest<Value>;
using PlanRequest = BasicPlanRequest<Value>;
using PlanResponse = BasicPlanResponse<Value>;
using ApplyRequest = BasicApplyRequest<Value>;
using ApplyResponse = BasicApplyResponse<Value>;
using ReadRequest = BasicReadRequest<Value>;
using ReadResponse = BasicReadResponse<Value>;
using ReadDataRequest = BasicReadDataRequest<Value>;
using ReadDataResponse = BasicReadDataResponse<Value>;
using UpgradeResponse = BasicUpgradeResponse<Value>;
using ImportRequest = BasicImportRequest<Value>;
using ImportedResource = BasicImportedResource<Value>;
using ImportResponse = BasicImportResponse<Value>;
using OpenEphemeralRequest = BasicOpenEphemeralRequest<Value>;
using OpenEphemeralResponse = BasicOpenEphemeralResponse<Value>;
using MoveResponse = BasicMoveResponse<Value>;
using UpgradeIdentityResponse = BasicUpgradeIdentityResponse<Value>;
using GenerateConfigRequest = BasicGenerateConfigRequest<Value>;
using GenerateConfigResponse = BasicGenerateConfigResponse<Value>;
using ListRequest = BasicListRequest<Value>;
using ListEvent = BasicListEvent<Value>;
using ListSink = BasicListSink<Value>;
using ActionRequest = BasicActionRequest<Value>;
using ConfigureStoreRequest = BasicConfigureStoreRequest<Value>;
using CallFunctionRequest = BasicCallFunctionRequest<Value>;
using CallFunctionResponse = BasicCallFunctionResponse<Value>;

}  // namespace luaform::engine
