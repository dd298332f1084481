// How states stream: the chunk size answered, the ranges a read goes out in, and the checks a
// write's chunks pass before the store sees them.
#include "host/engine/rules/state_chunks.h"

#include <doctest/doctest.h>

using namespace luaform::engine;

namespace {

// `state` cut as Terraform writes it: chunks of `size` with inclusive ranges.
std::vector<StateChunk> written(const std::string& state, int64_t size) {
  std::vector<StateChunk> chunks;
  const auto total = static_cast<int64_t>(state.size());
  for (const StateChunkRange& range : chunk_ranges(total, size)) {
    chunks.push_back({state.substr(static_cast<size_t>(range.start),
                                   static_cast<size_t>(range.end - range.start + 1)),
                      range});
  }
  return chunks;
}

}  // namespace

TEST_CASE("the chunk size is the store's, else the CLI's, within what Terraform takes") {
  CHECK(agreed_chunk_size(kDefaultStateChunkSize, 0) == kDefaultStateChunkSize);
  CHECK(agreed_chunk_size(4096, 0) == 4096);
  CHECK(agreed_chunk_size(kDefaultStateChunkSize, 1024) == 1024);
  // Terraform refuses 0 and more than 128 MiB, so neither is ever answered.
  CHECK(agreed_chunk_size(0, 0) == kDefaultStateChunkSize);
  CHECK(agreed_chunk_size(kMaxStateChunkSize + 1, 0) == kDefaultStateChunkSize);
  CHECK(agreed_chunk_size(4096, kMaxStateChunkSize + 1) == 4096);
}

TEST_CASE("a state reads out in chunks of the agreed size with inclusive ends, the last shorter") {
  const auto ranges = chunk_ranges(10, 4);
  REQUIRE(ranges.size() == 3);
  CHECK(ranges[0].start == 0);
  CHECK(ranges[0].end == 3);
  CHECK(ranges[1].start == 4);
  CHECK(ranges[1].end == 7);
  CHECK(ranges[2].start == 8);
  CHECK(ranges[2].end == 9);
  for (const auto& range : ranges) CHECK(range.total_length == 10);
  CHECK(chunk_ranges(8, 4).size() == 2);  // an exact multiple ends on a full chunk
  CHECK(chunk_ranges(0, 4).empty());      // no state: no chunk at all
  CHECK(chunk_ranges(1, kDefaultStateChunkSize).size() == 1);
}

TEST_CASE("a write's chunks join into the state they announce") {
  const std::string state = "{\"version\":4,\"serial\":7}\x00\xff";
  Diagnostics diags;
  CHECK(joined_state(written(state, 5), 5, "default", diags) == state);
  CHECK_FALSE(diags.has_errors());
  CHECK(joined_state(written(state, 1024), 1024, "default", diags) == state);
}

TEST_CASE("chunks that do not make the whole state are refused, naming the state") {
  const std::string state(20, 'x');
  const auto refused = [&](std::vector<StateChunk> chunks, int64_t size = 5) {
    Diagnostics diags;
    const bool joined = joined_state(std::move(chunks), size, "dev", diags).has_value();
    REQUIRE(diags.has_errors());
    CHECK(diags.items()[0].summary == "The state \"dev\" arrived incomplete: nothing was written");
    return !joined;
  };
  auto missing_last = written(state, 5);
  missing_last.pop_back();  // the stream broke off
  CHECK(refused(missing_last));
  auto out_of_order = written(state, 5);
  std::swap(out_of_order[1], out_of_order[2]);
  CHECK(refused(out_of_order));
  auto other_total = written(state, 5);
  other_total[2].range.total_length = 25;
  CHECK(refused(other_total));
  auto range_lies = written(state, 5);
  range_lies[1].bytes.pop_back();  // fewer bytes than its range says
  CHECK(refused(range_lies));
  CHECK(refused(written(state, 10), 5));  // larger than agreed
  CHECK(refused({}));
}
