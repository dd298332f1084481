#include "host/engine/rules/state_chunks.h"

#include <algorithm>

namespace luaform::engine {

int64_t agreed_chunk_size(int64_t proposed_by_cli, int64_t preferred_by_store) {
  const auto usable = [](int64_t size) { return size > 0 && size <= kMaxStateChunkSize; };
  if (usable(preferred_by_store)) return preferred_by_store;
  if (usable(proposed_by_cli)) return proposed_by_cli;
  return kDefaultStateChunkSize;
}

std::vector<StateChunkRange> chunk_ranges(int64_t total_length, int64_t chunk_size) {
  std::vector<StateChunkRange> ranges;
  for (int64_t start = 0; start < total_length; start += chunk_size) {
    const int64_t end = std::min(start + chunk_size, total_length) - 1;
    ranges.push_back({start, end, total_length});
  }
  return ranges;
}

std::optional<std::string> joined_state(std::vector<StateChunk> chunks, int64_t chunk_size,
                                        const std::string& state, Diagnostics& diags) {
  const auto refuse = [&](const std::string& why) {
    diags.error("The state \"" + state + "\" arrived incomplete: nothing was written",
                why + " The stored state is as it was before this write.");
    return std::nullopt;
  };
  if (chunks.empty()) return refuse("The CLI sent no chunk of it.");
  const int64_t total = chunks.front().range.total_length;
  std::string joined;
  joined.reserve(static_cast<size_t>(std::max<int64_t>(total, 0)));
  for (size_t i = 0; i < chunks.size(); ++i) {
    const StateChunk& chunk = chunks[i];
    const auto size = static_cast<int64_t>(chunk.bytes.size());
    const auto at = static_cast<int64_t>(joined.size());
    const std::string which = "Chunk " + std::to_string(i + 1);
    if (chunk.range.total_length != total) {
      return refuse(which + " announces a total of " + std::to_string(chunk.range.total_length) +
                    " bytes where the first announced " + std::to_string(total) + ".");
    }
    if (chunk.range.start != at || chunk.range.end != at + size - 1) {
      return refuse(which + " covers bytes " + std::to_string(chunk.range.start) + " to " +
                    std::to_string(chunk.range.end) + " but holds " + std::to_string(size) +
                    " bytes from byte " + std::to_string(at) + ".");
    }
    if (size > chunk_size) {
      return refuse(which + " holds " + std::to_string(size) + " bytes, more than the " +
                    std::to_string(chunk_size) + " agreed.");
    }
    joined += chunk.bytes;
    std::string().swap(chunks[i].bytes);  // a large state is held once, not twice
  }
  if (static_cast<int64_t>(joined.size()) != total) {
    return refuse("The chunks hold " + std::to_string(joined.size()) + " of the " +
                  std::to_string(total) + " bytes announced.");
  }
  return joined;
}

}  // namespace luaform::engine
