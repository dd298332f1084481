// How a state travels between the CLI and a state store (ReadStateBytes, WriteStateBytes): whole
// documents streamed in chunks of a size the two sides agree on when the store is configured.
// Terraform checks what it reads (every chunk but the last exactly the agreed size, none
// larger, every one with its range, the total length as announced) and sends its writes the
// same way; the store sees only whole states, so a stream that breaks off or does not add up
// writes nothing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "host/engine/value/diagnostics.h"

namespace luaform::engine {

// What Terraform proposes, and the most it takes (internal/backend/pluggable/chunks).
inline constexpr int64_t kDefaultStateChunkSize = int64_t{8} << 20;
inline constexpr int64_t kMaxStateChunkSize = int64_t{128} << 20;

// Where a chunk sits in the whole state: its first and last byte (inclusive, as the protocol
// spells it), and the whole state's length.
struct StateChunkRange {
  int64_t start = 0;
  int64_t end = -1;
  int64_t total_length = 0;
};

// One chunk of a written state, as it arrived.
struct StateChunk {
  std::string bytes;
  StateChunkRange range;
};

// The chunk size to answer: the store's own preference when it states one, else what the CLI
// proposed; either only within what Terraform takes (1 byte to 128 MiB), else its default.
int64_t agreed_chunk_size(int64_t proposed_by_cli, int64_t preferred_by_store);

// The chunks a state of `total_length` bytes is read out in: none for an empty state.
std::vector<StateChunkRange> chunk_ranges(int64_t total_length, int64_t chunk_size);

// The state `chunks` (in their order of arrival) spell, or nullopt with why not in `diags`
// (naming `state`) when they do not make one whole state of the announced length.
std::optional<std::string> joined_state(std::vector<StateChunk> chunks, int64_t chunk_size,
                                        const std::string& state, Diagnostics& diags);

}  // namespace luaform::engine
