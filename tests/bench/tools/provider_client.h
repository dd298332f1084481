// A tfplugin6 client as thin as the CLI's: one channel, plus the checks that turn a failed
// call (an RPC error, an error diagnostic, a missing value) into an exception saying why.
#pragma once

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>

#include "host/protocol/proto/tfplugin6.grpc.pb.h"

namespace luaform::bench {

using Diagnostics = google::protobuf::RepeatedPtrField<tfplugin6::Diagnostic>;

class ProviderClient {
 public:
  // `target` as Handshake::grpc_target gives it. Connects lazily, on the first call.
  explicit ProviderClient(const std::string& target);

  // Safe to share between threads, as one CLI process shares its connection.
  tfplugin6::Provider::Stub& stub() { return *stub_; }

  // GetProviderSchema, checked.
  tfplugin6::GetProviderSchema::Response get_schema();
  // ConfigureProvider with an empty provider block, checked.
  void configure();
  // go-plugin's GRPCController.Shutdown, which the CLI calls to close a provider. False when
  // the provider does not serve it (the echo floor). go-plugin stops its server inside the
  // call, so a broken connection counts as asked.
  bool request_shutdown();

 private:
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<tfplugin6::Provider::Stub> stub_;
};

// Throw std::runtime_error naming `rpc` when the call failed.
void check_status(const grpc::Status& status, const std::string& rpc);
void check_diagnostics(const Diagnostics& diagnostics, const std::string& rpc);
void check_has_value(const tfplugin6::DynamicValue& value, const std::string& rpc,
                     const std::string& field);

}  // namespace luaform::bench
