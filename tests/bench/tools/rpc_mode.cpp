#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <latch>
#include <mutex>
#include <thread>
#include <vector>

#include "tests/bench/tools/bench_values.h"
#include "tests/bench/tools/latency_stats.h"
#include "tests/bench/tools/modes.h"
#include "tests/bench/tools/proc_stats.h"
#include "tests/bench/tools/provider_session.h"

namespace luaform::bench {

namespace {

using Clock = std::chrono::steady_clock;
using Call = std::function<void(tfplugin6::Provider::Stub&)>;

// Enough calls for lazy initialisation on both sides (the first Lua call, gRPC's buffers)
// to be over before anything is timed.
constexpr int kWarmupCalls = 200;

struct Phase {
  std::vector<double> latencies_us;
  double wall_s = 0;
  double provider_cpu_s = 0;
};

// `calls` calls spread over `concurrency` threads sharing the one stub, each thread issuing
// its share back to back.
Phase measure(tfplugin6::Provider::Stub& stub, pid_t provider, int calls, int concurrency,
              const Call& call) {
  std::vector<std::vector<double>> per_thread(static_cast<size_t>(concurrency));
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  std::latch start(1);
  std::vector<std::thread> threads;
  for (int t = 0; t < concurrency; ++t) {
    const int share = calls / concurrency + (t < calls % concurrency ? 1 : 0);
    threads.emplace_back([&, t, share] {
      auto& latencies = per_thread[static_cast<size_t>(t)];
      latencies.reserve(static_cast<size_t>(share));
      start.wait();
      try {
        for (int i = 0; i < share && !failed.load(); ++i) {
          const auto before = Clock::now();
          call(stub);
          latencies.push_back(
              std::chrono::duration<double, std::micro>(Clock::now() - before).count());
        }
      } catch (...) {
        const std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
        failed.store(true);
      }
    });
  }
  Phase phase;
  const double cpu_before = cpu_seconds(provider);
  const auto wall_before = Clock::now();
  start.count_down();
  for (auto& thread : threads) thread.join();
  phase.wall_s = std::chrono::duration<double>(Clock::now() - wall_before).count();
  phase.provider_cpu_s = cpu_seconds(provider) - cpu_before;
  if (error) std::rethrow_exception(error);
  for (const auto& latencies : per_thread) {
    phase.latencies_us.insert(phase.latencies_us.end(), latencies.begin(), latencies.end());
  }
  return phase;
}

nlohmann::ordered_json summary(const Phase& phase, int calls) {
  nlohmann::ordered_json out;
  out["p50_us"] = rounded(percentile(phase.latencies_us, 50), 1);
  out["p99_us"] = rounded(percentile(phase.latencies_us, 99), 1);
  out["calls_per_s"] = rounded(calls / phase.wall_s, 1);
  out["provider_cpu_s"] = rounded(phase.provider_cpu_s, 3);
  out["provider_cpu_us_per_call"] = rounded(phase.provider_cpu_s * 1e6 / calls, 1);
  return out;
}

}  // namespace

nlohmann::ordered_json run_rpc(const Options& options) {
  ProviderSession session = start_configured_provider(options);
  const ItemValues values = item_values();

  tfplugin6::PlanResourceChange::Request plan;
  plan.set_type_name(options.type);
  plan.mutable_prior_state()->set_msgpack(values.null_state);
  plan.mutable_proposed_new_state()->set_msgpack(values.config);
  plan.mutable_config()->set_msgpack(values.config);
  const Call plan_call = [&plan](tfplugin6::Provider::Stub& stub) {
    grpc::ClientContext context;
    tfplugin6::PlanResourceChange::Response response;
    check_status(stub.PlanResourceChange(&context, plan, &response), "PlanResourceChange");
    check_diagnostics(response.diagnostics(), "PlanResourceChange");
    check_has_value(response.planned_state(), "PlanResourceChange", "planned_state");
  };

  tfplugin6::ApplyResourceChange::Request apply;
  apply.set_type_name(options.type);
  apply.mutable_prior_state()->set_msgpack(values.null_state);
  apply.mutable_planned_state()->set_msgpack(values.planned);
  apply.mutable_config()->set_msgpack(values.config);
  const Call apply_call = [&apply](tfplugin6::Provider::Stub& stub) {
    grpc::ClientContext context;
    tfplugin6::ApplyResourceChange::Response response;
    check_status(stub.ApplyResourceChange(&context, apply, &response), "ApplyResourceChange");
    check_diagnostics(response.diagnostics(), "ApplyResourceChange");
    check_has_value(response.new_state(), "ApplyResourceChange", "new_state");
  };

  nlohmann::ordered_json out;
  with_provider_fate(*session.process, [&] {
    check_resource_type(session.schema, options.type);
    auto& stub = session.client->stub();
    for (int i = 0; i < kWarmupCalls; ++i) plan_call(stub);
    for (int i = 0; i < kWarmupCalls; ++i) apply_call(stub);
    const pid_t pid = session.process->pid();
    const Phase plan_phase = measure(stub, pid, options.calls, options.concurrency, plan_call);
    const Phase apply_phase = measure(stub, pid, options.calls, options.concurrency, apply_call);
    out["mode"] = "rpc";
    out["concurrency"] = options.concurrency;
    out["calls"] = options.calls;
    out["plan"] = summary(plan_phase, options.calls);
    out["apply"] = summary(apply_phase, options.calls);
    out["rss_kib"] = peak_rss_kib(pid);
  });
  session.stop();
  return out;
}

}  // namespace luaform::bench
