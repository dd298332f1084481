// Serves the provider over go-plugin's gRPC transport, as Terraform and OpenTofu expect.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "host/protocol/tfplugin/pending_service.h"

namespace luaform::protocol {

struct ServeOptions {
  // Debug (reattach) mode: plaintext gRPC, no magic cookie, prints TF_REATTACH_PROVIDERS.
  bool debug = false;
  std::string provider_address;  // e.g. "registry.opentofu.org/luaform/example", for --debug
};

// True when the process was started by the CLI (the magic cookie is in the environment).
bool started_by_cli();

// Negotiates the protocol version, listens, prints the handshake line and serves until
// GRPCController.Shutdown or a termination signal. Returns the process exit code. `service`
// may still be loading: RPCs wait for it, the handshake does not.
int serve(const PendingService& service, const ServeOptions& options);

// Ends the process `grace` from now unless it has ended by then. For the plugin's own exit
// after serve() returns: what is destroyed then (a load still running in a script, and the
// join that waits for it) must not keep a provider the CLI has let go alive. Not for a process
// that goes on after serving (the tests that call serve()).
void exit_after(std::chrono::seconds grace);

}  // namespace luaform::protocol
