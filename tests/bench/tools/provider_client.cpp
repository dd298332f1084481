#include "tests/bench/tools/provider_client.h"

#include <chrono>
#include <stdexcept>

#include "host/protocol/proto/go_plugin.grpc.pb.h"

namespace luaform::bench {

namespace {

// Terraform's own limit for provider responses; gRPC's 4 MiB default would cut big sets short.
constexpr int kMaxMessageBytes = 256 << 20;
// Set-up calls that take longer than this mean a hung provider, not a slow one.
constexpr auto kSetupDeadline = std::chrono::seconds(30);
// Shutdown only asks; the process is then given its own time to exit.
constexpr auto kShutdownDeadline = std::chrono::seconds(2);
constexpr const char* kTerraformVersion = "1.12.6";
// msgpack of an empty object (a map with no entries): a provider block with nothing set.
constexpr char kEmptyObject[] = "\x80";

void set_setup_deadline(grpc::ClientContext& context) {
  context.set_deadline(std::chrono::system_clock::now() + kSetupDeadline);
}

// gRPC C++ has no public name for its codes; a number alone reads badly in an error.
const char* status_code_name(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::OK:
      return "OK";
    case grpc::StatusCode::CANCELLED:
      return "CANCELLED";
    case grpc::StatusCode::UNKNOWN:
      return "UNKNOWN";
    case grpc::StatusCode::INVALID_ARGUMENT:
      return "INVALID_ARGUMENT";
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return "DEADLINE_EXCEEDED";
    case grpc::StatusCode::NOT_FOUND:
      return "NOT_FOUND";
    case grpc::StatusCode::ALREADY_EXISTS:
      return "ALREADY_EXISTS";
    case grpc::StatusCode::PERMISSION_DENIED:
      return "PERMISSION_DENIED";
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return "RESOURCE_EXHAUSTED";
    case grpc::StatusCode::FAILED_PRECONDITION:
      return "FAILED_PRECONDITION";
    case grpc::StatusCode::ABORTED:
      return "ABORTED";
    case grpc::StatusCode::OUT_OF_RANGE:
      return "OUT_OF_RANGE";
    case grpc::StatusCode::UNIMPLEMENTED:
      return "UNIMPLEMENTED";
    case grpc::StatusCode::INTERNAL:
      return "INTERNAL";
    case grpc::StatusCode::UNAVAILABLE:
      return "UNAVAILABLE";
    case grpc::StatusCode::DATA_LOSS:
      return "DATA_LOSS";
    case grpc::StatusCode::UNAUTHENTICATED:
      return "UNAUTHENTICATED";
    default:
      return "unknown code";
  }
}

}  // namespace

ProviderClient::ProviderClient(const std::string& target) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(kMaxMessageBytes);
  channel_ = grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args);
  stub_ = tfplugin6::Provider::NewStub(channel_);
}

tfplugin6::GetProviderSchema::Response ProviderClient::get_schema() {
  grpc::ClientContext context;
  set_setup_deadline(context);
  tfplugin6::GetProviderSchema::Response response;
  check_status(stub_->GetProviderSchema(&context, {}, &response), "GetProviderSchema");
  check_diagnostics(response.diagnostics(), "GetProviderSchema");
  return response;
}

void ProviderClient::configure() {
  grpc::ClientContext context;
  set_setup_deadline(context);
  tfplugin6::ConfigureProvider::Request request;
  request.set_terraform_version(kTerraformVersion);
  request.mutable_config()->set_msgpack(kEmptyObject, 1);
  tfplugin6::ConfigureProvider::Response response;
  check_status(stub_->ConfigureProvider(&context, request, &response), "ConfigureProvider");
  check_diagnostics(response.diagnostics(), "ConfigureProvider");
}

bool ProviderClient::request_shutdown() {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + kShutdownDeadline);
  plugin::Empty response;
  const grpc::Status status =
      plugin::GRPCController::NewStub(channel_)->Shutdown(&context, {}, &response);
  return status.error_code() != grpc::StatusCode::UNIMPLEMENTED;
}

void check_status(const grpc::Status& status, const std::string& rpc) {
  if (status.ok()) return;
  throw std::runtime_error(rpc + " failed: gRPC status " + std::to_string(status.error_code()) +
                           " (" + status_code_name(status.error_code()) +
                           "): " + status.error_message());
}

void check_diagnostics(const Diagnostics& diagnostics, const std::string& rpc) {
  std::string errors;
  for (const auto& d : diagnostics) {
    if (d.severity() != tfplugin6::Diagnostic::ERROR) continue;
    errors += "\n  " + d.summary();
    if (!d.detail().empty()) errors += ": " + d.detail();
  }
  if (!errors.empty()) throw std::runtime_error(rpc + " returned errors:" + errors);
}

void check_has_value(const tfplugin6::DynamicValue& value, const std::string& rpc,
                     const std::string& field) {
  if (value.msgpack().empty() && value.json().empty()) {
    throw std::runtime_error(rpc + " returned no " + field);
  }
}

}  // namespace luaform::bench
