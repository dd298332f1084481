// tfplugin5.Provider: protocol 5 messages in, engine calls, protocol 5 messages out.
#pragma once

#include <memory>

#include "host/protocol/proto/tfplugin5.grpc.pb.h"
#include "host/protocol/tfplugin/pending_service.h"

namespace luaform::protocol {

class Tfplugin5Server final : public tfplugin5::Provider::Service {
 public:
  explicit Tfplugin5Server(PendingService service) : service_(std::move(service)) {}

  using Ctx = grpc::ServerContext;
  grpc::Status GetMetadata(Ctx*, const tfplugin5::GetProviderMetadata::Request*,
                           tfplugin5::GetProviderMetadata::Response*) override;
  grpc::Status GetSchema(Ctx*, const tfplugin5::GetProviderSchema::Request*,
                         tfplugin5::GetProviderSchema::Response*) override;
  grpc::Status PrepareProviderConfig(Ctx*, const tfplugin5::PrepareProviderConfig::Request*,
                                     tfplugin5::PrepareProviderConfig::Response*) override;
  grpc::Status ValidateResourceTypeConfig(
      Ctx*, const tfplugin5::ValidateResourceTypeConfig::Request*,
      tfplugin5::ValidateResourceTypeConfig::Response*) override;
  grpc::Status ValidateDataSourceConfig(Ctx*, const tfplugin5::ValidateDataSourceConfig::Request*,
                                        tfplugin5::ValidateDataSourceConfig::Response*) override;
  grpc::Status UpgradeResourceState(Ctx*, const tfplugin5::UpgradeResourceState::Request*,
                                    tfplugin5::UpgradeResourceState::Response*) override;
  grpc::Status GetResourceIdentitySchemas(
      Ctx*, const tfplugin5::GetResourceIdentitySchemas::Request*,
      tfplugin5::GetResourceIdentitySchemas::Response*) override;
  grpc::Status UpgradeResourceIdentity(Ctx*, const tfplugin5::UpgradeResourceIdentity::Request*,
                                       tfplugin5::UpgradeResourceIdentity::Response*) override;
  grpc::Status Configure(Ctx*, const tfplugin5::Configure::Request*,
                         tfplugin5::Configure::Response*) override;
  grpc::Status ReadResource(Ctx*, const tfplugin5::ReadResource::Request*,
                            tfplugin5::ReadResource::Response*) override;
  grpc::Status PlanResourceChange(Ctx*, const tfplugin5::PlanResourceChange::Request*,
                                  tfplugin5::PlanResourceChange::Response*) override;
  grpc::Status ApplyResourceChange(Ctx*, const tfplugin5::ApplyResourceChange::Request*,
                                   tfplugin5::ApplyResourceChange::Response*) override;
  grpc::Status ImportResourceState(Ctx*, const tfplugin5::ImportResourceState::Request*,
                                   tfplugin5::ImportResourceState::Response*) override;
  grpc::Status MoveResourceState(Ctx*, const tfplugin5::MoveResourceState::Request*,
                                 tfplugin5::MoveResourceState::Response*) override;
  grpc::Status ReadDataSource(Ctx*, const tfplugin5::ReadDataSource::Request*,
                              tfplugin5::ReadDataSource::Response*) override;
  grpc::Status GenerateResourceConfig(Ctx*, const tfplugin5::GenerateResourceConfig::Request*,
                                      tfplugin5::GenerateResourceConfig::Response*) override;
  grpc::Status ValidateEphemeralResourceConfig(
      Ctx*, const tfplugin5::ValidateEphemeralResourceConfig::Request*,
      tfplugin5::ValidateEphemeralResourceConfig::Response*) override;
  grpc::Status OpenEphemeralResource(Ctx*, const tfplugin5::OpenEphemeralResource::Request*,
                                     tfplugin5::OpenEphemeralResource::Response*) override;
  grpc::Status RenewEphemeralResource(Ctx*, const tfplugin5::RenewEphemeralResource::Request*,
                                      tfplugin5::RenewEphemeralResource::Response*) override;
  grpc::Status CloseEphemeralResource(Ctx*, const tfplugin5::CloseEphemeralResource::Request*,
                                      tfplugin5::CloseEphemeralResource::Response*) override;
  grpc::Status ListResource(Ctx*, const tfplugin5::ListResource::Request*,
                            grpc::ServerWriter<tfplugin5::ListResource::Event>*) override;
  grpc::Status ValidateListResourceConfig(
      Ctx*, const tfplugin5::ValidateListResourceConfig::Request*,
      tfplugin5::ValidateListResourceConfig::Response*) override;
  grpc::Status GetFunctions(Ctx*, const tfplugin5::GetFunctions::Request*,
                            tfplugin5::GetFunctions::Response*) override;
  grpc::Status CallFunction(Ctx*, const tfplugin5::CallFunction::Request*,
                            tfplugin5::CallFunction::Response*) override;
  grpc::Status PlanAction(Ctx*, const tfplugin5::PlanAction::Request*,
                          tfplugin5::PlanAction::Response*) override;
  grpc::Status InvokeAction(Ctx*, const tfplugin5::InvokeAction::Request*,
                            grpc::ServerWriter<tfplugin5::InvokeAction::Event>*) override;
  grpc::Status ValidateActionConfig(Ctx*, const tfplugin5::ValidateActionConfig::Request*,
                                    tfplugin5::ValidateActionConfig::Response*) override;
  grpc::Status Stop(Ctx*, const tfplugin5::Stop::Request*, tfplugin5::Stop::Response*) override;

 private:
  PendingService service_;
};

}  // namespace luaform::protocol
