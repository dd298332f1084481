// A state store's RPCs (protocol 6; Terraform 1.13 onwards behind its experiment): the CLI keeps
// its own state through the provider. ValidateStateStoreConfig and ConfigureStateStore read the
// `state_store` block; the store's configuration is kept here per store type, because the state
// RPCs that follow name only the store and the state. The logic sees whole states and one call
// per operation; the protocol's chunking lives in rules/state_chunks.h, and a write whose chunks
// do not add up never reaches the logic, so it cannot overwrite a good state with part of one.
#include <cstdio>
#include <random>

#include "host/engine/rpc/provider_service.h"
#include "host/engine/rpc/service_support.h"
#include "host/engine/schema/schema_rules.h"

namespace luaform::engine {

const char* store_op_name(StoreOp op) {
  switch (op) {
    case StoreOp::Configure:
      return "configure";
    case StoreOp::States:
      return "states";
    case StoreOp::Read:
      return "read";
    case StoreOp::Write:
      return "write";
    case StoreOp::Delete:
      return "delete";
    case StoreOp::Lock:
      return "lock";
    case StoreOp::Unlock:
      return "unlock";
  }
  return "call";
}

namespace {

// A lock id to propose: random, in the form of a UUID, as Terraform's own backends make them.
std::string new_lock_id() {
  thread_local std::mt19937_64 random{std::random_device{}()};
  const uint64_t high = random();
  const uint64_t low = random();
  char text[37];
  std::snprintf(text, sizeof text, "%08x-%04x-4%03x-%04x-%012llx",
                static_cast<unsigned>(high >> 32), static_cast<unsigned>((high >> 16) & 0xffff),
                static_cast<unsigned>(high & 0xfff),
                static_cast<unsigned>(((low >> 48) & 0x3fff) | 0x8000),
                static_cast<unsigned long long>(low & 0xffffffffffffULL));
  return text;
}

}  // namespace

Diagnostics ProviderService::validate_state_store_config(const ValidateRequest& req) const {
  return validate_typed(SchemaOwner::StateStore, schema_.state_stores, "state store", req);
}

ConfigureStoreResponse ProviderService::configure_state_store(const ConfigureStoreRequest& req) {
  ConfigureStoreResponse resp;
  // Answered with errors too: the CLI reads it whatever else the response says.
  resp.chunk_size = agreed_chunk_size(req.chunk_size, 0);
  const Schema* schema =
      detail::find_schema(schema_.state_stores, "state store", req.type_name, resp.diagnostics);
  if (!schema) return resp;
  if (!req.config.is_wholly_known()) {
    resp.diagnostics.error(req.type_name + ": configure failed",
                           "The state_store block uses values not known yet; a state store's "
                           "configuration must be known when the CLI starts.");
    return resp;
  }
  // Terraform 1.16 configures the store even when ValidateStateStoreConfig refused its
  // configuration; a store's functions may count on what its validators check.
  if (validate(SchemaOwner::StateStore, req.type_name, *schema, req.config).has_errors()) {
    resp.diagnostics.error(req.type_name + ": configure refused",
                           "The state_store block's arguments did not pass validation (the errors "
                           "above say why), so the store was not configured.");
    return resp;
  }
  ConfiguredStore store{with_defaults(schema->block, req.config, req.config), 0};
  StoreCall call{StoreOp::Configure};
  resp.diagnostics = run_store(req.type_name, store, call);
  if (resp.diagnostics.has_errors()) return resp;
  store.chunk_size = agreed_chunk_size(req.chunk_size, call.chunk_size);
  resp.chunk_size = store.chunk_size;
  const std::lock_guard<std::mutex> lock(stores_mutex_);
  stores_[req.type_name] = std::move(store);
  return resp;
}

std::optional<ProviderService::ConfiguredStore> ProviderService::configured_store(
    const std::string& store_type, Diagnostics& diags) const {
  if (!detail::find_schema(schema_.state_stores, "state store", store_type, diags)) {
    return std::nullopt;
  }
  const std::lock_guard<std::mutex> lock(stores_mutex_);
  const auto found = stores_.find(store_type);
  if (found == stores_.end()) {
    diags.error(store_type + " is not configured",
                "The CLI configures a state store (ConfigureStateStore) before it reads or "
                "writes states through it.");
    return std::nullopt;
  }
  return found->second;
}

Diagnostics ProviderService::run_store(const std::string& store_type, const ConfiguredStore& store,
                                       StoreCall& call) const {
  const Schema& schema = schema_.state_stores.at(store_type);
  return detail::in_session<Diagnostics>(*logic_, provider_secrets(), [&](Session& session) {
    session.secrets().add(schema.block, store.config);
    return session.call_store(store_type, store.config, call);
  });
}

Diagnostics ProviderService::run_store(const std::string& store_type, StoreCall& call) const {
  Diagnostics diags;
  const std::optional<ConfiguredStore> store = configured_store(store_type, diags);
  return store ? run_store(store_type, *store, call) : diags;
}

GetStatesResponse ProviderService::get_states(const std::string& store_type) const {
  StoreCall call{StoreOp::States};
  GetStatesResponse resp;
  resp.diagnostics = run_store(store_type, call);
  if (!resp.diagnostics.has_errors()) resp.state_ids = std::move(call.state_ids);
  return resp;
}

ReadStateResponse ProviderService::read_state_bytes(const StateRequest& req) const {
  ReadStateResponse resp;
  const std::optional<ConfiguredStore> store = configured_store(req.type_name, resp.diagnostics);
  if (!store) return resp;
  StoreCall call{StoreOp::Read, req.state_id};
  resp.diagnostics = run_store(req.type_name, *store, call);
  if (resp.diagnostics.has_errors() || !call.state) return resp;
  resp.state = std::move(*call.state);
  resp.chunks = chunk_ranges(static_cast<int64_t>(resp.state.size()), store->chunk_size);
  return resp;
}

Diagnostics ProviderService::write_state_bytes(WriteStateRequest req) const {
  Diagnostics diags;
  const std::optional<ConfiguredStore> store = configured_store(req.state.type_name, diags);
  if (!store) return diags;
  std::optional<std::string> state =
      joined_state(std::move(req.chunks), store->chunk_size, req.state.state_id, diags);
  if (!state) return diags;
  StoreCall call{StoreOp::Write, req.state.state_id, std::move(state)};
  return run_store(req.state.type_name, *store, call);
}

LockStateResponse ProviderService::lock_state(const LockStateRequest& req) const {
  StoreCall call{StoreOp::Lock, req.state.state_id};
  call.operation = req.operation;
  call.lock_id = new_lock_id();
  LockStateResponse resp;
  resp.diagnostics = run_store(req.state.type_name, call);
  if (!resp.diagnostics.has_errors()) resp.lock_id = call.lock_id;
  return resp;
}

Diagnostics ProviderService::unlock_state(const UnlockStateRequest& req) const {
  StoreCall call{StoreOp::Unlock, req.state.state_id};
  call.lock_id = req.lock_id;
  return run_store(req.state.type_name, call);
}

Diagnostics ProviderService::delete_state(const StateRequest& req) const {
  StoreCall call{StoreOp::Delete, req.state_id};
  return run_store(req.type_name, call);
}

}  // namespace luaform::engine
