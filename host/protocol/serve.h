// Serves the provider over go-plugin's gRPC transport, as Terraform and OpenTofu expect.
#pragma once

#include <memory>
#include <string>

#include "host/protocol/pending_service.h"

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

}  // namespace luaform::protocol
