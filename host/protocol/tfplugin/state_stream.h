// ReadStateBytes and WriteStateBytes, the two streamed RPCs of a state store. Reading writes
// the engine's chunks in order, each with its range and the total length (Terraform reads the
// range of every message, so even a message that only carries diagnostics has one). Writing
// collects the CLI's chunks as they arrive and hands them to the engine whole; a stream the
// CLI abandons (it was interrupted, or it died) is not written at all.
#pragma once

#include <string>
#include <utility>

#include <grpcpp/server_context.h>
#include <grpcpp/support/sync_stream.h>

#include "host/engine/wire/wire_service.h"
#include "host/protocol/tfplugin/pending_service.h"
#include "host/protocol/tfplugin/rpc_guard.h"
#include "host/protocol/tfplugin/toproto.h"

namespace luaform::protocol {

template <class Request, class Response>
grpc::Status serve_state_read(const PendingService& service, const Request& req,
                              grpc::ServerWriter<Response>* writer) {
  Response first;
  engine::ReadStateResponse read;
  guarded("ReadStateBytes", &first, [&] {
    read = service.get().engine().read_state_bytes({req.type_name(), req.state_id()});
  });
  // An internal error filled `first` with its diagnostic; otherwise the engine's go with it.
  toproto::diagnostics(read.diagnostics, &first);
  auto* range = first.mutable_range();
  range->set_start(0);
  range->set_end(-1);
  // The diagnostics travel alone, before the chunks (the CLI checks each chunk's size against
  // its range); a store without the state answers this one empty message.
  const bool alone = read.chunks.empty() || first.diagnostics_size() > 0;
  if (alone && (!writer->Write(first) || read.chunks.empty())) return grpc::Status::OK;
  for (const engine::StateChunkRange& chunk : read.chunks) {
    Response message;
    message.set_bytes(read.state.substr(static_cast<size_t>(chunk.start),
                                        static_cast<size_t>(chunk.end - chunk.start + 1)));
    message.set_total_length(chunk.total_length);
    message.mutable_range()->set_start(chunk.start);
    message.mutable_range()->set_end(chunk.end);
    if (!writer->Write(message)) break;
  }
  return grpc::Status::OK;
}

template <class Chunk, class Response>
grpc::Status serve_state_write(const PendingService& service, grpc::ServerContext* context,
                               grpc::ServerReader<Chunk>* reader, Response* resp) {
  // Guarded from the first chunk on: a state too large to hold is an error, not a crash.
  return guarded("WriteStateBytes", resp, [&] {
    engine::WriteStateRequest request;
    Chunk chunk;
    while (reader->Read(&chunk)) {
      if (chunk.has_meta()) request.state = {chunk.meta().type_name(), chunk.meta().state_id()};
      engine::StateChunk& arrived = request.chunks.emplace_back();
      arrived.bytes = std::move(*chunk.mutable_bytes());
      arrived.range = {chunk.range().start(), chunk.range().end(), chunk.total_length()};
    }
    // Terraform sends no chunk at all for an empty state, which it never writes.
    if (context->IsCancelled() || request.chunks.empty()) return;
    toproto::diagnostics(service.get().engine().write_state_bytes(std::move(request)), resp);
  });
}

}  // namespace luaform::protocol
