// tfplugin6.Provider: protocol 6 messages in, engine calls, protocol 6 messages out.
#pragma once

#include <memory>

#include "host/protocol/proto/tfplugin6.grpc.pb.h"
#include "host/protocol/tfplugin/pending_service.h"

namespace luaform::protocol {

class Tfplugin6Server final : public tfplugin6::Provider::Service {
 public:
  explicit Tfplugin6Server(PendingService service) : service_(std::move(service)) {}

  using Ctx = grpc::ServerContext;
  grpc::Status GetMetadata(Ctx*, const tfplugin6::GetProviderMetadata::Request*,
                           tfplugin6::GetProviderMetadata::Response*) override;
  grpc::Status GetProviderSchema(Ctx*, const tfplugin6::GetProviderSchema::Request*,
                                 tfplugin6::GetProviderSchema::Response*) override;
  grpc::Status ValidateProviderConfig(Ctx*, const tfplugin6::ValidateProviderConfig::Request*,
                                      tfplugin6::ValidateProviderConfig::Response*) override;
  grpc::Status ValidateResourceConfig(Ctx*, const tfplugin6::ValidateResourceConfig::Request*,
                                      tfplugin6::ValidateResourceConfig::Response*) override;
  grpc::Status ValidateDataResourceConfig(
      Ctx*, const tfplugin6::ValidateDataResourceConfig::Request*,
      tfplugin6::ValidateDataResourceConfig::Response*) override;
  grpc::Status UpgradeResourceState(Ctx*, const tfplugin6::UpgradeResourceState::Request*,
                                    tfplugin6::UpgradeResourceState::Response*) override;
  grpc::Status GetResourceIdentitySchemas(
      Ctx*, const tfplugin6::GetResourceIdentitySchemas::Request*,
      tfplugin6::GetResourceIdentitySchemas::Response*) override;
  grpc::Status UpgradeResourceIdentity(Ctx*, const tfplugin6::UpgradeResourceIdentity::Request*,
                                       tfplugin6::UpgradeResourceIdentity::Response*) override;
  grpc::Status ConfigureProvider(Ctx*, const tfplugin6::ConfigureProvider::Request*,
                                 tfplugin6::ConfigureProvider::Response*) override;
  grpc::Status ReadResource(Ctx*, const tfplugin6::ReadResource::Request*,
                            tfplugin6::ReadResource::Response*) override;
  grpc::Status PlanResourceChange(Ctx*, const tfplugin6::PlanResourceChange::Request*,
                                  tfplugin6::PlanResourceChange::Response*) override;
  grpc::Status ApplyResourceChange(Ctx*, const tfplugin6::ApplyResourceChange::Request*,
                                   tfplugin6::ApplyResourceChange::Response*) override;
  grpc::Status ImportResourceState(Ctx*, const tfplugin6::ImportResourceState::Request*,
                                   tfplugin6::ImportResourceState::Response*) override;
  grpc::Status MoveResourceState(Ctx*, const tfplugin6::MoveResourceState::Request*,
                                 tfplugin6::MoveResourceState::Response*) override;
  grpc::Status ReadDataSource(Ctx*, const tfplugin6::ReadDataSource::Request*,
                              tfplugin6::ReadDataSource::Response*) override;
  grpc::Status GenerateResourceConfig(Ctx*, const tfplugin6::GenerateResourceConfig::Request*,
                                      tfplugin6::GenerateResourceConfig::Response*) override;
  grpc::Status ValidateEphemeralResourceConfig(
      Ctx*, const tfplugin6::ValidateEphemeralResourceConfig::Request*,
      tfplugin6::ValidateEphemeralResourceConfig::Response*) override;
  grpc::Status OpenEphemeralResource(Ctx*, const tfplugin6::OpenEphemeralResource::Request*,
                                     tfplugin6::OpenEphemeralResource::Response*) override;
  grpc::Status RenewEphemeralResource(Ctx*, const tfplugin6::RenewEphemeralResource::Request*,
                                      tfplugin6::RenewEphemeralResource::Response*) override;
  grpc::Status CloseEphemeralResource(Ctx*, const tfplugin6::CloseEphemeralResource::Request*,
                                      tfplugin6::CloseEphemeralResource::Response*) override;
  grpc::Status ListResource(Ctx*, const tfplugin6::ListResource::Request*,
                            grpc::ServerWriter<tfplugin6::ListResource::Event>*) override;
  grpc::Status ValidateListResourceConfig(
      Ctx*, const tfplugin6::ValidateListResourceConfig::Request*,
      tfplugin6::ValidateListResourceConfig::Response*) override;
  grpc::Status GetFunctions(Ctx*, const tfplugin6::GetFunctions::Request*,
                            tfplugin6::GetFunctions::Response*) override;
  grpc::Status CallFunction(Ctx*, const tfplugin6::CallFunction::Request*,
                            tfplugin6::CallFunction::Response*) override;
  grpc::Status ValidateStateStoreConfig(Ctx*, const tfplugin6::ValidateStateStore::Request*,
                                        tfplugin6::ValidateStateStore::Response*) override;
  grpc::Status ConfigureStateStore(Ctx*, const tfplugin6::ConfigureStateStore::Request*,
                                   tfplugin6::ConfigureStateStore::Response*) override;
  grpc::Status ReadStateBytes(Ctx*, const tfplugin6::ReadStateBytes::Request*,
                              grpc::ServerWriter<tfplugin6::ReadStateBytes::Response>*) override;
  grpc::Status WriteStateBytes(Ctx*, grpc::ServerReader<tfplugin6::WriteStateBytes::RequestChunk>*,
                               tfplugin6::WriteStateBytes::Response*) override;
  grpc::Status LockState(Ctx*, const tfplugin6::LockState::Request*,
                         tfplugin6::LockState::Response*) override;
  grpc::Status UnlockState(Ctx*, const tfplugin6::UnlockState::Request*,
                           tfplugin6::UnlockState::Response*) override;
  grpc::Status GetStates(Ctx*, const tfplugin6::GetStates::Request*,
                         tfplugin6::GetStates::Response*) override;
  grpc::Status DeleteState(Ctx*, const tfplugin6::DeleteState::Request*,
                           tfplugin6::DeleteState::Response*) override;
  grpc::Status PlanAction(Ctx*, const tfplugin6::PlanAction::Request*,
                          tfplugin6::PlanAction::Response*) override;
  grpc::Status InvokeAction(Ctx*, const tfplugin6::InvokeAction::Request*,
                            grpc::ServerWriter<tfplugin6::InvokeAction::Event>*) override;
  grpc::Status ValidateActionConfig(Ctx*, const tfplugin6::ValidateActionConfig::Request*,
                                    tfplugin6::ValidateActionConfig::Response*) override;
  grpc::Status StopProvider(Ctx*, const tfplugin6::StopProvider::Request*,
                            tfplugin6::StopProvider::Response*) override;

 private:
  PendingService service_;
};

}  // namespace luaform::protocol
