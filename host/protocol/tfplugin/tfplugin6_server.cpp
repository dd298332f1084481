// Each handler is one line of meaning: convert the request, call the engine, convert back.
#include "host/protocol/tfplugin/tfplugin6_server.h"

#include "host/protocol/tfplugin/action_stream.h"
#include "host/protocol/tfplugin/fromproto.h"
#include "host/protocol/tfplugin/list_stream.h"
#include "host/protocol/tfplugin/rpc_guard.h"
#include "host/protocol/tfplugin/state_stream.h"
#include "host/protocol/tfplugin/toproto.h"

namespace luaform::protocol {

namespace p6 = tfplugin6;
using grpc::Status;

Status Tfplugin6Server::GetMetadata(Ctx*, const p6::GetProviderMetadata::Request*,
                                    p6::GetProviderMetadata::Response* resp) {
  return guarded("GetMetadata", resp,
                 [&] { toproto::metadata_response(service_->engine().get_metadata(), resp); });
}

Status Tfplugin6Server::GetProviderSchema(Ctx*, const p6::GetProviderSchema::Request*,
                                          p6::GetProviderSchema::Response* resp) {
  return guarded("GetProviderSchema", resp,
                 [&] { toproto::provider_schema(service_->engine().get_provider_schema(), resp); });
}

Status Tfplugin6Server::ValidateProviderConfig(Ctx*, const p6::ValidateProviderConfig::Request* req,
                                               p6::ValidateProviderConfig::Response* resp) {
  return guarded("ValidateProviderConfig", resp, [&] {
    toproto::diagnostics(
        service_->validate_provider_config(fromproto::validate_provider_request(*req)), resp);
  });
}

Status Tfplugin6Server::ValidateResourceConfig(Ctx*, const p6::ValidateResourceConfig::Request* req,
                                               p6::ValidateResourceConfig::Response* resp) {
  return guarded("ValidateResourceConfig", resp, [&] {
    toproto::diagnostics(service_->validate_resource_config(fromproto::validate_request(*req)),
                         resp);
  });
}

Status Tfplugin6Server::ValidateDataResourceConfig(
    Ctx*, const p6::ValidateDataResourceConfig::Request* req,
    p6::ValidateDataResourceConfig::Response* resp) {
  return guarded("ValidateDataResourceConfig", resp, [&] {
    toproto::diagnostics(service_->validate_data_source_config(fromproto::validate_request(*req)),
                         resp);
  });
}

Status Tfplugin6Server::UpgradeResourceState(Ctx*, const p6::UpgradeResourceState::Request* req,
                                             p6::UpgradeResourceState::Response* resp) {
  return guarded("UpgradeResourceState", resp, [&] {
    toproto::upgrade_response(service_->upgrade_resource_state(fromproto::upgrade_request(*req)),
                              resp);
  });
}

Status Tfplugin6Server::GetResourceIdentitySchemas(Ctx*,
                                                   const p6::GetResourceIdentitySchemas::Request*,
                                                   p6::GetResourceIdentitySchemas::Response* resp) {
  return guarded("GetResourceIdentitySchemas", resp, [&] {
    toproto::identity_schemas_response(service_->engine().get_resource_identity_schemas(), resp);
  });
}

Status Tfplugin6Server::UpgradeResourceIdentity(Ctx*,
                                                const p6::UpgradeResourceIdentity::Request* req,
                                                p6::UpgradeResourceIdentity::Response* resp) {
  return guarded("UpgradeResourceIdentity", resp, [&] {
    toproto::upgrade_identity_response(
        service_->upgrade_resource_identity(fromproto::upgrade_identity_request(*req)), resp);
  });
}

Status Tfplugin6Server::ConfigureProvider(Ctx*, const p6::ConfigureProvider::Request* req,
                                          p6::ConfigureProvider::Response* resp) {
  return guarded("ConfigureProvider", resp, [&] {
    toproto::diagnostics(service_->configure_provider(fromproto::configure_request(*req)), resp);
  });
}

Status Tfplugin6Server::ReadResource(Ctx*, const p6::ReadResource::Request* req,
                                     p6::ReadResource::Response* resp) {
  return guarded(
      "ReadResource", resp,
      [&] { toproto::read_response(service_->read_resource(fromproto::read_request(*req)), resp); },
      // Keep the object in state rather than let an internal error read as "it is gone".
      [&](p6::ReadResource::Response* r) {
        *r->mutable_new_state() = req->current_state();
        r->set_private_(req->private_());
        if (req->has_current_identity()) *r->mutable_new_identity() = req->current_identity();
      });
}

Status Tfplugin6Server::PlanResourceChange(Ctx*, const p6::PlanResourceChange::Request* req,
                                           p6::PlanResourceChange::Response* resp) {
  return guarded("PlanResourceChange", resp, [&] {
    toproto::plan_response(service_->plan_resource_change(fromproto::plan_request(*req)), resp);
  });
}

Status Tfplugin6Server::ApplyResourceChange(Ctx*, const p6::ApplyResourceChange::Request* req,
                                            p6::ApplyResourceChange::Response* resp) {
  return guarded(
      "ApplyResourceChange", resp,
      [&] {
        toproto::apply_response(service_->apply_resource_change(fromproto::apply_request(*req)),
                                resp);
      },
      // The prior state is the only safe record of a remote object we may have touched.
      [&](p6::ApplyResourceChange::Response* r) { *r->mutable_new_state() = req->prior_state(); });
}

Status Tfplugin6Server::ImportResourceState(Ctx*, const p6::ImportResourceState::Request* req,
                                            p6::ImportResourceState::Response* resp) {
  return guarded("ImportResourceState", resp, [&] {
    toproto::import_response(service_->import_resource_state(fromproto::import_request(*req)),
                             resp);
  });
}

Status Tfplugin6Server::MoveResourceState(Ctx*, const p6::MoveResourceState::Request* req,
                                          p6::MoveResourceState::Response* resp) {
  return guarded("MoveResourceState", resp, [&] {
    toproto::move_response(service_->move_resource_state(fromproto::move_request(*req)), resp);
  });
}

Status Tfplugin6Server::ReadDataSource(Ctx*, const p6::ReadDataSource::Request* req,
                                       p6::ReadDataSource::Response* resp) {
  return guarded("ReadDataSource", resp, [&] {
    toproto::read_data_response(service_->read_data_source(fromproto::read_data_request(*req)),
                                resp);
  });
}

Status Tfplugin6Server::GenerateResourceConfig(Ctx*, const p6::GenerateResourceConfig::Request* req,
                                               p6::GenerateResourceConfig::Response* resp) {
  return guarded("GenerateResourceConfig", resp, [&] {
    toproto::generate_config_response(
        service_->generate_resource_config(fromproto::generate_config_request(*req)), resp);
  });
}

Status Tfplugin6Server::ValidateEphemeralResourceConfig(
    Ctx*, const p6::ValidateEphemeralResourceConfig::Request* req,
    p6::ValidateEphemeralResourceConfig::Response* resp) {
  return guarded("ValidateEphemeralResourceConfig", resp, [&] {
    toproto::diagnostics(
        service_->validate_ephemeral_resource_config(fromproto::validate_request(*req)), resp);
  });
}

Status Tfplugin6Server::OpenEphemeralResource(Ctx*, const p6::OpenEphemeralResource::Request* req,
                                              p6::OpenEphemeralResource::Response* resp) {
  return guarded("OpenEphemeralResource", resp, [&] {
    toproto::open_ephemeral_response(
        service_->open_ephemeral_resource(fromproto::open_ephemeral_request(*req)), resp);
  });
}

Status Tfplugin6Server::RenewEphemeralResource(Ctx*, const p6::RenewEphemeralResource::Request* req,
                                               p6::RenewEphemeralResource::Response* resp) {
  return guarded(
      "RenewEphemeralResource", resp,
      [&] {
        toproto::renew_ephemeral_response(
            service_->engine().renew_ephemeral_resource(fromproto::ephemeral_private_request(*req)),
            resp);
      },
      // Close still needs what renew was given.
      [&](p6::RenewEphemeralResource::Response* r) { r->set_private_(req->private_()); });
}

Status Tfplugin6Server::CloseEphemeralResource(Ctx*, const p6::CloseEphemeralResource::Request* req,
                                               p6::CloseEphemeralResource::Response* resp) {
  return guarded("CloseEphemeralResource", resp, [&] {
    toproto::diagnostics(
        service_->engine().close_ephemeral_resource(fromproto::ephemeral_private_request(*req)),
        resp);
  });
}

Status Tfplugin6Server::ListResource(Ctx* ctx, const p6::ListResource::Request* req,
                                     grpc::ServerWriter<p6::ListResource::Event>* writer) {
  return serve_list(service_, ctx, fromproto::list_request(*req), writer);
}

Status Tfplugin6Server::ValidateListResourceConfig(
    Ctx*, const p6::ValidateListResourceConfig::Request* req,
    p6::ValidateListResourceConfig::Response* resp) {
  return guarded("ValidateListResourceConfig", resp, [&] {
    toproto::diagnostics(service_->validate_list_resource_config(fromproto::validate_request(*req)),
                         resp);
  });
}

Status Tfplugin6Server::GetFunctions(Ctx*, const p6::GetFunctions::Request*,
                                     p6::GetFunctions::Response* resp) {
  return guarded("GetFunctions", resp,
                 [&] { toproto::functions_response(service_->engine().get_functions(), resp); });
}

Status Tfplugin6Server::CallFunction(Ctx*, const p6::CallFunction::Request* req,
                                     p6::CallFunction::Response* resp) {
  return guarded("CallFunction", resp, [&] {
    toproto::call_function_response(service_->call_function(fromproto::call_function_request(*req)),
                                    resp);
  });
}

Status Tfplugin6Server::ValidateStateStoreConfig(Ctx*, const p6::ValidateStateStore::Request* req,
                                                 p6::ValidateStateStore::Response* resp) {
  return guarded("ValidateStateStoreConfig", resp, [&] {
    toproto::diagnostics(service_->validate_state_store_config(fromproto::validate_request(*req)),
                         resp);
  });
}

Status Tfplugin6Server::ConfigureStateStore(Ctx*, const p6::ConfigureStateStore::Request* req,
                                            p6::ConfigureStateStore::Response* resp) {
  return guarded("ConfigureStateStore", resp, [&] {
    toproto::configure_store_response(
        service_->configure_state_store(fromproto::configure_store_request(*req)), resp);
  });
}

Status Tfplugin6Server::ReadStateBytes(Ctx*, const p6::ReadStateBytes::Request* req,
                                       grpc::ServerWriter<p6::ReadStateBytes::Response>* writer) {
  return serve_state_read(service_, *req, writer);
}

Status Tfplugin6Server::WriteStateBytes(
    Ctx* ctx, grpc::ServerReader<p6::WriteStateBytes::RequestChunk>* reader,
    p6::WriteStateBytes::Response* resp) {
  return serve_state_write(service_, ctx, reader, resp);
}

Status Tfplugin6Server::LockState(Ctx*, const p6::LockState::Request* req,
                                  p6::LockState::Response* resp) {
  return guarded("LockState", resp, [&] {
    const engine::LockStateResponse locked =
        service_->engine().lock_state({{req->type_name(), req->state_id()}, req->operation()});
    resp->set_lock_id(toproto::text(locked.lock_id));
    toproto::diagnostics(locked.diagnostics, resp);
  });
}

Status Tfplugin6Server::UnlockState(Ctx*, const p6::UnlockState::Request* req,
                                    p6::UnlockState::Response* resp) {
  return guarded("UnlockState", resp, [&] {
    toproto::diagnostics(
        service_->engine().unlock_state({{req->type_name(), req->state_id()}, req->lock_id()}),
        resp);
  });
}

Status Tfplugin6Server::GetStates(Ctx*, const p6::GetStates::Request* req,
                                  p6::GetStates::Response* resp) {
  return guarded("GetStates", resp, [&] {
    const engine::GetStatesResponse states = service_->engine().get_states(req->type_name());
    for (const std::string& id : states.state_ids) resp->add_state_id(toproto::text(id));
    toproto::diagnostics(states.diagnostics, resp);
  });
}

Status Tfplugin6Server::DeleteState(Ctx*, const p6::DeleteState::Request* req,
                                    p6::DeleteState::Response* resp) {
  return guarded("DeleteState", resp, [&] {
    toproto::diagnostics(service_->engine().delete_state({req->type_name(), req->state_id()}),
                         resp);
  });
}

Status Tfplugin6Server::PlanAction(Ctx*, const p6::PlanAction::Request* req,
                                   p6::PlanAction::Response* resp) {
  return guarded("PlanAction", resp, [&] {
    toproto::plan_action_response(service_->plan_action(fromproto::action_request(*req)), resp);
  });
}

Status Tfplugin6Server::InvokeAction(Ctx* ctx, const p6::InvokeAction::Request* req,
                                     grpc::ServerWriter<p6::InvokeAction::Event>* writer) {
  return serve_action(service_, ctx, fromproto::action_request(*req), writer);
}

Status Tfplugin6Server::ValidateActionConfig(Ctx*, const p6::ValidateActionConfig::Request* req,
                                             p6::ValidateActionConfig::Response* resp) {
  return guarded("ValidateActionConfig", resp, [&] {
    toproto::diagnostics(service_->validate_action_config(fromproto::validate_request(*req)), resp);
  });
}

Status Tfplugin6Server::StopProvider(Ctx*, const p6::StopProvider::Request*,
                                     p6::StopProvider::Response* resp) {
  try {
    service_.stop();
  } catch (const std::exception& e) {
    resp->set_error(toproto::text(e.what()));
  } catch (...) {
    resp->set_error("unknown error while stopping the provider");
  }
  return Status::OK;
}

}  // namespace luaform::protocol
