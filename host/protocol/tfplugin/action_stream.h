// InvokeAction's stream: progress events as the action reports them, then exactly one
// completed event, also when the provider fails internally (the CLI takes a stream without a
// completion for success, and an event that is neither for a broken provider).
#pragma once

#include <exception>
#include <iostream>

#include <grpcpp/server_context.h>
#include <grpcpp/support/sync_stream.h>

#include "host/engine/rpc/cancellation.h"
#include "host/engine/wire/wire_service.h"
#include "host/protocol/tfplugin/pending_service.h"
#include "host/protocol/tfplugin/toproto.h"

namespace luaform::protocol {

template <class Event>
grpc::Status serve_action(const PendingService& service, grpc::ServerContext* context,
                          const engine::wire::ActionRequest& request,
                          grpc::ServerWriter<Event>* writer) {
  bool completed = false;
  const engine::ActionSink sink = [&](const engine::ActionEvent& e) {
    completed = completed || e.completed;
    if (context->IsCancelled()) return;
    Event event;
    toproto::action_event(e, &event);
    writer->Write(event);
  };
  // A CLI that stops reading (Ctrl-C, or it is gone) ends the script as StopProvider would.
  const engine::CancelScope cancel([context] { return context->IsCancelled(); });
  try {
    service.get().invoke_action(request, sink);
  } catch (const std::exception& e) {
    std::cerr << "[ERROR] luaform: InvokeAction: internal error: " << e.what() << std::endl;
    if (!completed) {
      engine::ActionEvent failed;
      failed.completed = true;
      failed.diagnostics.error("Internal error in the provider during InvokeAction", e.what());
      sink(failed);
    }
  }
  return grpc::Status::OK;
}

}  // namespace luaform::protocol
