// The boundary every RPC handler passes through: whatever goes wrong inside becomes an error
// diagnostic in a well-formed response, so gRPC never sees an exception and the CLI always
// gets a reason.
#pragma once

#include <exception>
#include <iostream>
#include <string>

#include <grpcpp/support/status.h>

#include "host/engine/value/diagnostics.h"
#include "host/protocol/tfplugin/toproto.h"

namespace luaform::protocol {

// Runs `body`, which fills `resp`. On an exception the partial response is discarded,
// `recover(resp)` may put back a safe value (apply keeps the prior state), and an error
// diagnostic (for CallFunction, the function error) names the RPC.
template <class Resp, class Body, class Recover>
grpc::Status guarded(const char* rpc, Resp* resp, Body&& body, Recover&& recover) {
  std::string what;
  try {
    body();
    return grpc::Status::OK;
  } catch (const std::exception& e) {
    what = e.what();
  } catch (...) {
    what = "unknown exception";
  }
  try {
    std::cerr << "[ERROR] luaform: " << rpc << ": internal error: " << what << std::endl;
    resp->Clear();
    recover(resp);
    const std::string summary = std::string("Internal error in the provider during ") + rpc;
    if constexpr (requires { resp->mutable_error()->set_text(summary); }) {
      // CallFunction has no diagnostics; its FunctionError carries the failure instead.
      resp->mutable_error()->set_text(toproto::text(summary + ": " + what));
    } else {
      engine::Diagnostics diags;
      diags.error(summary, what);  // the exception's text may be any bytes: toproto repairs it
      toproto::diagnostics(diags, resp);
    }
  } catch (...) {
    // Out of memory while reporting: an empty response is still a valid answer.
  }
  return grpc::Status::OK;
}

template <class Resp, class Body>
grpc::Status guarded(const char* rpc, Resp* resp, Body&& body) {
  return guarded(rpc, resp, std::forward<Body>(body), [](Resp*) {});
}

}  // namespace luaform::protocol
