#include <algorithm>
#include <chrono>
#include <vector>

#include "tests/bench/tools/latency_stats.h"
#include "tests/bench/tools/modes.h"
#include "tests/bench/tools/proc_stats.h"
#include "tests/bench/tools/provider_session.h"

namespace luaform::bench {

namespace {

double ms_between(std::chrono::steady_clock::time_point a,
                  std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

}  // namespace

nlohmann::ordered_json run_cold(const Options& options) {
  using Clock = std::chrono::steady_clock;
  std::vector<double> handshake_ms;
  std::vector<double> schema_ms;
  long rss_kib_max = 0;
  int resource_types = 0;
  for (int run = 0; run < options.repeat; ++run) {
    const auto t0 = Clock::now();
    ProviderSession session = start_provider(options);
    const auto t1 = Clock::now();
    with_provider_fate(*session.process, [&] {
      // The first call also connects, which is part of what the CLI waits for.
      const auto schema = session.client->get_schema();
      const auto t2 = Clock::now();
      // Counted so that the harness can check every subject served the types it was asked
      // for: a provider that answered with fewer would look fast for the wrong reason.
      resource_types = schema.resource_schemas_size();
      handshake_ms.push_back(ms_between(t0, t1));
      schema_ms.push_back(ms_between(t0, t2));
      rss_kib_max = std::max(rss_kib_max, peak_rss_kib(session.process->pid()));
    });
    // Stopping is outside the timings.
  }
  nlohmann::ordered_json out;
  out["mode"] = "cold";
  out["runs"] = options.repeat;
  out["handshake_ms_p50"] = rounded(percentile(handshake_ms, 50), 3);
  out["handshake_ms_min"] = rounded(minimum(handshake_ms), 3);
  out["schema_ms_p50"] = rounded(percentile(schema_ms, 50), 3);
  out["schema_ms_min"] = rounded(minimum(schema_ms), 3);
  out["rss_kib_max"] = rss_kib_max;
  out["resource_types"] = resource_types;
  return out;
}

}  // namespace luaform::bench
