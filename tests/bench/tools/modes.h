// The measurements of luaform_bench_rpc. Each returns the one JSON object the tool
// prints, and throws std::runtime_error when the provider misbehaves.
#pragma once

#include <nlohmann/json.hpp>

#include "tests/bench/tools/bench_options.h"

namespace luaform::bench {

// Start-up: exec to handshake, exec to the first schema answer, peak memory.
nlohmann::ordered_json run_cold(const Options& options);
// Per-call latency and provider CPU of plan and apply for a small resource.
nlohmann::ordered_json run_rpc(const Options& options);
// One plan of a resource holding a large set, the case that is quadratic in some SDKs.
nlohmann::ordered_json run_bigset(const Options& options);
// Concurrent plan/apply/read for a bounded time, checked for errors, cross-talk and leaks;
// "ok" in the result says whether all held.
nlohmann::ordered_json run_load(const Options& options);

}  // namespace luaform::bench
