// Answers for the part of the protocol luaform providers cannot have yet: state stores.
// The CLI only asks about such things when the schema lists them, which ours never does, so
// these answer a confused client with a clear error rather than a gRPC Unimplemented.
#pragma once

#include <string>

#include <grpcpp/support/status.h>

#include "host/engine/value/diagnostics.h"
#include "host/protocol/tfplugin/toproto.h"

namespace luaform::protocol {

inline engine::Diagnostics not_supported_diagnostics(const std::string& feature) {
  engine::Diagnostics diags;
  diags.error("Not supported by luaform yet",
              "This provider runs on luaform, which does not support " + feature + " yet.");
  return diags;
}

template <class Resp>
grpc::Status not_supported(const std::string& feature, Resp* resp) {
  toproto::diagnostics(not_supported_diagnostics(feature), resp);
  return grpc::Status::OK;
}

}  // namespace luaform::protocol
