// luaform_bench_echo: a tfplugin6 provider that does no work, the floor under every
// measurement. Plan echoes the proposed state, apply echoes the planned state; whatever is
// left is gRPC, protobuf and the go-plugin handshake. Any resource type is accepted.
#include <absl/synchronization/mutex.h>
#include <grpcpp/grpcpp.h>
#include <pthread.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>

#include "host/protocol/proto/tfplugin6.grpc.pb.h"

namespace {

using grpc::ServerContext;
using grpc::Status;

class EchoProvider final : public tfplugin6::Provider::Service {
  Status GetProviderSchema(ServerContext* /*context*/,
                           const tfplugin6::GetProviderSchema::Request* /*request*/,
                           tfplugin6::GetProviderSchema::Response* /*response*/) override {
    return Status::OK;
  }

  Status ConfigureProvider(ServerContext* /*context*/,
                           const tfplugin6::ConfigureProvider::Request* /*request*/,
                           tfplugin6::ConfigureProvider::Response* /*response*/) override {
    return Status::OK;
  }

  Status PlanResourceChange(ServerContext* /*context*/,
                            const tfplugin6::PlanResourceChange::Request* request,
                            tfplugin6::PlanResourceChange::Response* response) override {
    *response->mutable_planned_state() = request->proposed_new_state();
    return Status::OK;
  }

  Status ApplyResourceChange(ServerContext* /*context*/,
                             const tfplugin6::ApplyResourceChange::Request* request,
                             tfplugin6::ApplyResourceChange::Response* response) override {
    *response->mutable_new_state() = request->planned_state();
    return Status::OK;
  }

  Status StopProvider(ServerContext* /*context*/,
                      const tfplugin6::StopProvider::Request* /*request*/,
                      tfplugin6::StopProvider::Response* /*response*/) override {
    return Status::OK;
  }
};

// As large as the CLI accepts, so that the floor never fails where a real provider would not.
constexpr int kMaxMessageBytes = 256 << 20;

}  // namespace

int main() {
  // Blocked here, before gRPC starts its threads, so that only sigwait below sees them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  const char* tmpdir = std::getenv("TMPDIR");
  std::string dir = std::string(tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp") +
                    "/luaform-bench-echo-XXXXXX";
  if (mkdtemp(dir.data()) == nullptr) {
    std::cerr << "luaform_bench_echo: mkdtemp " << dir << ": " << std::strerror(errno) << "\n";
    return 1;
  }
  const std::string socket_path = dir + "/plugin.sock";

  EchoProvider service;
  // As the host does (host/protocol/goplugin/plugin_server.cpp): no deadlock detection in abseil's
  // mutexes, which Debian's build leaves on.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  grpc::ServerBuilder builder;
  builder.AddListeningPort("unix:" + socket_path, grpc::InsecureServerCredentials());
  builder.SetMaxReceiveMessageSize(kMaxMessageBytes);
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server) {
    std::cerr << "luaform_bench_echo: cannot listen on " << socket_path << "\n";
    ::rmdir(dir.c_str());
    return 1;
  }
  std::cout << "1|6|unix|" << socket_path << "|grpc|" << std::endl;

  int signo = 0;
  sigwait(&stop_signals, &signo);
  // Without a deadline, Shutdown waits for clients to close their connections.
  server->Shutdown(std::chrono::system_clock::now());
  ::unlink(socket_path.c_str());
  ::rmdir(dir.c_str());
  return 0;
}
