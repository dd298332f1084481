// ListResource's stream: each event the engine produces is written as it comes, until the CLI
// stops reading (it cancels the call at its limit). An internal error ends the stream with an
// event carrying it, as every other RPC reports one.
#pragma once

#include <exception>
#include <iostream>
#include <string>

#include <grpcpp/server_context.h>
#include <grpcpp/support/sync_stream.h>

#include "host/engine/rpc/cancellation.h"
#include "host/engine/wire/wire_service.h"
#include "host/protocol/tfplugin/pending_service.h"
#include "host/protocol/tfplugin/toproto.h"

namespace luaform::protocol {

template <class Event>
grpc::Status serve_list(const PendingService& service, grpc::ServerContext* context,
                        const engine::wire::ListRequest& request,
                        grpc::ServerWriter<Event>* writer) {
  const engine::wire::ListSink sink = [&](const engine::wire::ListEvent& e) {
    if (context->IsCancelled()) return false;
    Event event;
    toproto::list_event(e, &event);
    return writer->Write(event);
  };
  // A CLI that cancels the stream ends the listing's script even between two emits.
  const engine::CancelScope cancel([context] { return context->IsCancelled(); });
  try {
    service.get().list_resource(request, sink);
  } catch (const std::exception& e) {
    std::cerr << "[ERROR] luaform: ListResource: internal error: " << e.what() << std::endl;
    engine::wire::ListEvent failed;
    failed.diagnostics.error("Internal error in the provider during ListResource", e.what());
    sink(failed);
  }
  return grpc::Status::OK;
}

}  // namespace luaform::protocol
