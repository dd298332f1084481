#include <chrono>
#include <vector>

#include "tests/bench/tools/bench_values.h"
#include "tests/bench/tools/latency_stats.h"
#include "tests/bench/tools/modes.h"
#include "tests/bench/tools/proc_stats.h"
#include "tests/bench/tools/provider_session.h"

namespace luaform::bench {

namespace {

constexpr const char* kBigsetType = "bench_bigset";

}  // namespace

nlohmann::ordered_json run_bigset(const Options& options) {
  using Clock = std::chrono::steady_clock;
  ProviderSession session = start_configured_provider(options);
  const BigsetValues values = bigset_values(options.elements, options.change_one);
  tfplugin6::PlanResourceChange::Request plan;
  plan.set_type_name(kBigsetType);
  plan.mutable_prior_state()->set_msgpack(values.prior_state);
  plan.mutable_proposed_new_state()->set_msgpack(values.proposed);
  plan.mutable_config()->set_msgpack(values.config);
  const auto timeout = std::chrono::duration<double>(options.timeout_s);

  std::vector<double> ms;  // completed calls
  bool timed_out = false;
  double timed_out_ms = 0;
  int attempted = 0;
  double cpu_s = 0;
  with_provider_fate(*session.process, [&] {
    check_resource_type(session.schema, kBigsetType);
    auto& stub = session.client->stub();
    const pid_t pid = session.process->pid();
    const double cpu_before = cpu_seconds(pid);
    const auto loop_start = Clock::now();
    for (int run = 0; run < options.repeat; ++run) {
      grpc::ClientContext context;
      context.set_deadline(
          std::chrono::system_clock::now() +
          std::chrono::duration_cast<std::chrono::system_clock::duration>(timeout));
      tfplugin6::PlanResourceChange::Response response;
      const auto before = Clock::now();
      const grpc::Status status = stub.PlanResourceChange(&context, plan, &response);
      const double elapsed =
          std::chrono::duration<double, std::milli>(Clock::now() - before).count();
      ++attempted;
      // Running out of time is the measurement for a provider that is quadratic in the set.
      if (status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
        timed_out = true;
        timed_out_ms = elapsed;
        break;
      }
      check_status(status, "PlanResourceChange");
      check_diagnostics(response.diagnostics(), "PlanResourceChange");
      check_has_value(response.planned_state(), "PlanResourceChange", "planned_state");
      ms.push_back(elapsed);
      if (Clock::now() - loop_start > timeout) break;
    }
    // After a timeout the provider may still be working on the abandoned call; what it used
    // up to now is charged to the calls made.
    cpu_s = cpu_seconds(pid) - cpu_before;
  });
  session.stop();

  nlohmann::ordered_json out;
  out["mode"] = "bigset";
  out["elements"] = options.elements;
  out["change"] = options.change_one ? "one" : "none";
  out["runs"] = ms.size();
  out["p50_ms"] = rounded(timed_out ? timed_out_ms : percentile(ms, 50), 3);
  out["min_ms"] = rounded(timed_out ? timed_out_ms : minimum(ms), 3);
  out["provider_cpu_ms_per_call"] = rounded(cpu_s * 1000 / attempted, 3);
  out["timed_out"] = timed_out;
  return out;
}

}  // namespace luaform::bench
