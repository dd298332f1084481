// Each handler is one line of meaning: convert the request, call the engine, convert back.
#include "host/protocol/tfplugin/tfplugin5_server.h"

#include "host/protocol/tfplugin/action_stream.h"
#include "host/protocol/tfplugin/fromproto.h"
#include "host/protocol/tfplugin/list_stream.h"
#include "host/protocol/tfplugin/rpc_guard.h"
#include "host/protocol/tfplugin/toproto.h"

namespace luaform::protocol {

namespace p5 = tfplugin5;
using grpc::Status;

Status Tfplugin5Server::GetMetadata(Ctx*, const p5::GetProviderMetadata::Request*,
                                    p5::GetProviderMetadata::Response* resp) {
  return guarded("GetMetadata", resp,
                 [&] { toproto::metadata_response(service_->engine().get_metadata(), resp); });
}

Status Tfplugin5Server::GetSchema(Ctx*, const p5::GetProviderSchema::Request*,
                                  p5::GetProviderSchema::Response* resp) {
  return guarded("GetSchema", resp,
                 [&] { toproto::provider_schema(service_->engine().get_provider_schema(), resp); });
}

// The CLI decodes prepared_config but does not use it; echoing the config keeps it valid.
Status Tfplugin5Server::PrepareProviderConfig(Ctx*, const p5::PrepareProviderConfig::Request* req,
                                              p5::PrepareProviderConfig::Response* resp) {
  return guarded("PrepareProviderConfig", resp, [&] {
    toproto::diagnostics(
        service_->validate_provider_config(fromproto::validate_provider_request(*req)), resp);
    *resp->mutable_prepared_config() = req->config();
  });
}

Status Tfplugin5Server::ValidateResourceTypeConfig(
    Ctx*, const p5::ValidateResourceTypeConfig::Request* req,
    p5::ValidateResourceTypeConfig::Response* resp) {
  return guarded("ValidateResourceTypeConfig", resp, [&] {
    toproto::diagnostics(service_->validate_resource_config(fromproto::validate_request(*req)),
                         resp);
  });
}

Status Tfplugin5Server::ValidateDataSourceConfig(Ctx*,
                                                 const p5::ValidateDataSourceConfig::Request* req,
                                                 p5::ValidateDataSourceConfig::Response* resp) {
  return guarded("ValidateDataSourceConfig", resp, [&] {
    toproto::diagnostics(service_->validate_data_source_config(fromproto::validate_request(*req)),
                         resp);
  });
}

Status Tfplugin5Server::UpgradeResourceState(Ctx*, const p5::UpgradeResourceState::Request* req,
                                             p5::UpgradeResourceState::Response* resp) {
  return guarded("UpgradeResourceState", resp, [&] {
    toproto::upgrade_response(service_->upgrade_resource_state(fromproto::upgrade_request(*req)),
                              resp);
  });
}

Status Tfplugin5Server::GetResourceIdentitySchemas(Ctx*,
                                                   const p5::GetResourceIdentitySchemas::Request*,
                                                   p5::GetResourceIdentitySchemas::Response* resp) {
  return guarded("GetResourceIdentitySchemas", resp, [&] {
    toproto::identity_schemas_response(service_->engine().get_resource_identity_schemas(), resp);
  });
}

Status Tfplugin5Server::UpgradeResourceIdentity(Ctx*,
                                                const p5::UpgradeResourceIdentity::Request* req,
                                                p5::UpgradeResourceIdentity::Response* resp) {
  return guarded("UpgradeResourceIdentity", resp, [&] {
    toproto::upgrade_identity_response(
        service_->upgrade_resource_identity(fromproto::upgrade_identity_request(*req)), resp);
  });
}

Status Tfplugin5Server::Configure(Ctx*, const p5::Configure::Request* req,
                                  p5::Configure::Response* resp) {
  return guarded("Configure", resp, [&] {
    toproto::diagnostics(service_->configure_provider(fromproto::configure_request(*req)), resp);
  });
}

Status Tfplugin5Server::ReadResource(Ctx*, const p5::ReadResource::Request* req,
                                     p5::ReadResource::Response* resp) {
  return guarded(
      "ReadResource", resp,
      [&] { toproto::read_response(service_->read_resource(fromproto::read_request(*req)), resp); },
      // Keep the object in state rather than let an internal error read as "it is gone".
      [&](p5::ReadResource::Response* r) {
        *r->mutable_new_state() = req->current_state();
        r->set_private_(req->private_());
        if (req->has_current_identity()) *r->mutable_new_identity() = req->current_identity();
      });
}

Status Tfplugin5Server::PlanResourceChange(Ctx*, const p5::PlanResourceChange::Request* req,
                                           p5::PlanResourceChange::Response* resp) {
  return guarded("PlanResourceChange", resp, [&] {
    toproto::plan_response(service_->plan_resource_change(fromproto::plan_request(*req)), resp);
  });
}

Status Tfplugin5Server::ApplyResourceChange(Ctx*, const p5::ApplyResourceChange::Request* req,
                                            p5::ApplyResourceChange::Response* resp) {
  return guarded(
      "ApplyResourceChange", resp,
      [&] {
        toproto::apply_response(service_->apply_resource_change(fromproto::apply_request(*req)),
                                resp);
      },
      // The prior state is the only safe record of a remote object we may have touched.
      [&](p5::ApplyResourceChange::Response* r) { *r->mutable_new_state() = req->prior_state(); });
}

Status Tfplugin5Server::ImportResourceState(Ctx*, const p5::ImportResourceState::Request* req,
                                            p5::ImportResourceState::Response* resp) {
  return guarded("ImportResourceState", resp, [&] {
    toproto::import_response(service_->import_resource_state(fromproto::import_request(*req)),
                             resp);
  });
}

Status Tfplugin5Server::MoveResourceState(Ctx*, const p5::MoveResourceState::Request* req,
                                          p5::MoveResourceState::Response* resp) {
  return guarded("MoveResourceState", resp, [&] {
    toproto::move_response(service_->move_resource_state(fromproto::move_request(*req)), resp);
  });
}

Status Tfplugin5Server::ReadDataSource(Ctx*, const p5::ReadDataSource::Request* req,
                                       p5::ReadDataSource::Response* resp) {
  return guarded("ReadDataSource", resp, [&] {
    toproto::read_data_response(service_->read_data_source(fromproto::read_data_request(*req)),
                                resp);
  });
}

Status Tfplugin5Server::GenerateResourceConfig(Ctx*, const p5::GenerateResourceConfig::Request* req,
                                               p5::GenerateResourceConfig::Response* resp) {
  return guarded("GenerateResourceConfig", resp, [&] {
    toproto::generate_config_response(
        service_->generate_resource_config(fromproto::generate_config_request(*req)), resp);
  });
}

Status Tfplugin5Server::ValidateEphemeralResourceConfig(
    Ctx*, const p5::ValidateEphemeralResourceConfig::Request* req,
    p5::ValidateEphemeralResourceConfig::Response* resp) {
  return guarded("ValidateEphemeralResourceConfig", resp, [&] {
    toproto::diagnostics(
        service_->validate_ephemeral_resource_config(fromproto::validate_request(*req)), resp);
  });
}

Status Tfplugin5Server::OpenEphemeralResource(Ctx*, const p5::OpenEphemeralResource::Request* req,
                                              p5::OpenEphemeralResource::Response* resp) {
  return guarded("OpenEphemeralResource", resp, [&] {
    toproto::open_ephemeral_response(
        service_->open_ephemeral_resource(fromproto::open_ephemeral_request(*req)), resp);
  });
}

Status Tfplugin5Server::RenewEphemeralResource(Ctx*, const p5::RenewEphemeralResource::Request* req,
                                               p5::RenewEphemeralResource::Response* resp) {
  return guarded(
      "RenewEphemeralResource", resp,
      [&] {
        toproto::renew_ephemeral_response(
            service_->engine().renew_ephemeral_resource(fromproto::ephemeral_private_request(*req)),
            resp);
      },
      // Close still needs what renew was given.
      [&](p5::RenewEphemeralResource::Response* r) { r->set_private_(req->private_()); });
}

Status Tfplugin5Server::CloseEphemeralResource(Ctx*, const p5::CloseEphemeralResource::Request* req,
                                               p5::CloseEphemeralResource::Response* resp) {
  return guarded("CloseEphemeralResource", resp, [&] {
    toproto::diagnostics(
        service_->engine().close_ephemeral_resource(fromproto::ephemeral_private_request(*req)),
        resp);
  });
}

Status Tfplugin5Server::ListResource(Ctx* ctx, const p5::ListResource::Request* req,
                                     grpc::ServerWriter<p5::ListResource::Event>* writer) {
  return serve_list(service_, ctx, fromproto::list_request(*req), writer);
}

Status Tfplugin5Server::ValidateListResourceConfig(
    Ctx*, const p5::ValidateListResourceConfig::Request* req,
    p5::ValidateListResourceConfig::Response* resp) {
  return guarded("ValidateListResourceConfig", resp, [&] {
    toproto::diagnostics(service_->validate_list_resource_config(fromproto::validate_request(*req)),
                         resp);
  });
}

Status Tfplugin5Server::GetFunctions(Ctx*, const p5::GetFunctions::Request*,
                                     p5::GetFunctions::Response* resp) {
  return guarded("GetFunctions", resp,
                 [&] { toproto::functions_response(service_->engine().get_functions(), resp); });
}

Status Tfplugin5Server::CallFunction(Ctx*, const p5::CallFunction::Request* req,
                                     p5::CallFunction::Response* resp) {
  return guarded("CallFunction", resp, [&] {
    toproto::call_function_response(service_->call_function(fromproto::call_function_request(*req)),
                                    resp);
  });
}

Status Tfplugin5Server::PlanAction(Ctx*, const p5::PlanAction::Request* req,
                                   p5::PlanAction::Response* resp) {
  return guarded("PlanAction", resp, [&] {
    toproto::plan_action_response(service_->plan_action(fromproto::action_request(*req)), resp);
  });
}

Status Tfplugin5Server::InvokeAction(Ctx* ctx, const p5::InvokeAction::Request* req,
                                     grpc::ServerWriter<p5::InvokeAction::Event>* writer) {
  return serve_action(service_, ctx, fromproto::action_request(*req), writer);
}

Status Tfplugin5Server::ValidateActionConfig(Ctx*, const p5::ValidateActionConfig::Request* req,
                                             p5::ValidateActionConfig::Response* resp) {
  return guarded("ValidateActionConfig", resp, [&] {
    toproto::diagnostics(service_->validate_action_config(fromproto::validate_request(*req)), resp);
  });
}

Status Tfplugin5Server::Stop(Ctx*, const p5::Stop::Request*, p5::Stop::Response* resp) {
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
