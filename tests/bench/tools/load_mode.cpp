// The load test: plan, apply and read of bench_mirror from many threads at once for a bounded
// time, as a CLI with a high -parallelism would call, but without pause. It fails when a call
// errs, when an answer carries another call's data (cross-talk between concurrent resources),
// or when the provider's memory keeps growing once it is warm (a leak).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "host/engine/codec/msgpack_codec.h"
#include "host/engine/value/diagnostics.h"
#include "host/engine/value/type.h"
#include "host/engine/value/value.h"
#include "tests/bench/tools/modes.h"
#include "tests/bench/tools/proc_stats.h"
#include "tests/bench/tools/provider_session.h"

namespace luaform::bench {

namespace {

using Clock = std::chrono::steady_clock;
using engine::Type;
using engine::Value;

constexpr const char* kType = "bench_mirror";
constexpr std::chrono::milliseconds kSampleEvery{250};

const Type& mirror_type() {
  static const Type type = Type::object({{"id", Type::string()},
                                         {"name", Type::string()},
                                         {"payload", Type::string()},
                                         {"echo", Type::string()}});
  return type;
}

Value decode(const tfplugin6::DynamicValue& dv) {
  engine::Diagnostics diags;
  Value v = engine::decode_msgpack(dv.msgpack(), mirror_type(), diags);
  if (diags.has_errors())
    throw std::runtime_error("undecodable answer: " + diags.items()[0].summary);
  return v;
}

std::string text_of(const Value& object, const char* name) {
  const Value v = object.get_attribute(name);
  return v.is_known() && !v.is_null() ? v.as_string() : "<" + v.to_display_string() + ">";
}

struct Shared {
  std::atomic<bool> stop{false};
  std::atomic<long> rounds{0};
  std::atomic<long> mismatches{0};
  std::atomic<long> errors{0};
  std::mutex mutex;
  std::string first_problem;

  void problem(std::atomic<long>& counter, const std::string& what) {
    ++counter;
    const std::lock_guard lock(mutex);
    if (first_problem.empty()) first_problem = what;
  }
};

// One object's life as the CLI drives it: plan, apply, refresh. Returns what differs from
// what this call sent, or "" when every answer is its own.
std::string one_round(tfplugin6::Provider::Stub& stub, const std::string& name,
                      const std::string& payload) {
  const Type& type = mirror_type();
  const Value config =
      Value::object(type, {{"name", Value::string(name)}, {"payload", Value::string(payload)}});
  const std::string null_state = engine::encode_msgpack(Value::null(type), type);
  const std::string config_bytes = engine::encode_msgpack(config, type);

  tfplugin6::PlanResourceChange::Request plan;
  plan.set_type_name(kType);
  plan.mutable_prior_state()->set_msgpack(null_state);
  plan.mutable_proposed_new_state()->set_msgpack(config_bytes);
  plan.mutable_config()->set_msgpack(config_bytes);
  tfplugin6::PlanResourceChange::Response planned;
  {
    grpc::ClientContext context;
    check_status(stub.PlanResourceChange(&context, plan, &planned), "PlanResourceChange");
  }
  check_diagnostics(planned.diagnostics(), "PlanResourceChange");
  if (text_of(decode(planned.planned_state()), "name") != name) {
    return "plan of " + name + " came back for " + text_of(decode(planned.planned_state()), "name");
  }

  tfplugin6::ApplyResourceChange::Request apply;
  apply.set_type_name(kType);
  apply.mutable_prior_state()->set_msgpack(null_state);
  *apply.mutable_planned_state() = planned.planned_state();
  apply.mutable_config()->set_msgpack(config_bytes);
  tfplugin6::ApplyResourceChange::Response applied;
  {
    grpc::ClientContext context;
    check_status(stub.ApplyResourceChange(&context, apply, &applied), "ApplyResourceChange");
  }
  check_diagnostics(applied.diagnostics(), "ApplyResourceChange");
  const Value state = decode(applied.new_state());
  const std::string echo = name + ":" + std::to_string(payload.size());
  if (text_of(state, "id") != name || text_of(state, "echo") != echo) {
    return "apply of " + name + " gave id " + text_of(state, "id") + " and echo " +
           text_of(state, "echo");
  }

  tfplugin6::ReadResource::Request read;
  read.set_type_name(kType);
  *read.mutable_current_state() = applied.new_state();
  tfplugin6::ReadResource::Response refreshed;
  {
    grpc::ClientContext context;
    check_status(stub.ReadResource(&context, read, &refreshed), "ReadResource");
  }
  check_diagnostics(refreshed.diagnostics(), "ReadResource");
  if (decode(refreshed.new_state()) != state) {
    return "read of " + name + " gave echo " + text_of(decode(refreshed.new_state()), "echo");
  }
  return "";
}

void worker(tfplugin6::Provider::Stub& stub, int thread, Shared& shared) {
  for (long i = 0; !shared.stop.load(); ++i) {
    const std::string name = "t" + std::to_string(thread) + "-" + std::to_string(i);
    // Payloads of varied size, so that the allocator sees churn of many sizes.
    const std::string payload(static_cast<size_t>((i * 37 + static_cast<long>(thread) * 11) % 2048),
                              'p');
    try {
      const std::string mismatch = one_round(stub, name, payload);
      if (!mismatch.empty()) shared.problem(shared.mismatches, mismatch);
      ++shared.rounds;
    } catch (const std::exception& e) {
      shared.problem(shared.errors, e.what());
      shared.stop.store(true);  // a provider that fails once is not worth more load
    }
  }
}

long max_of(const std::vector<long>& samples, size_t from, size_t to) {
  long best = 0;
  for (size_t i = from; i < to && i < samples.size(); ++i) best = std::max(best, samples[i]);
  return best;
}

}  // namespace

nlohmann::ordered_json run_load(const Options& options) {
  ProviderSession session = start_configured_provider(options);
  nlohmann::ordered_json out;
  with_provider_fate(*session.process, [&] {
    check_resource_type(session.schema, kType);
    const pid_t pid = session.process->pid();
    auto& stub = session.client->stub();
    Shared shared;
    std::vector<std::thread> threads;
    threads.reserve(static_cast<size_t>(options.concurrency));
    const auto start = Clock::now();
    for (int t = 0; t < options.concurrency; ++t) {
      threads.emplace_back([&stub, t, &shared] { worker(stub, t, shared); });
    }
    std::vector<long> rss;
    const auto deadline = start + std::chrono::duration<double>(options.seconds);
    while (Clock::now() < deadline && !shared.stop.load()) {
      std::this_thread::sleep_for(kSampleEvery);
      rss.push_back(current_rss_kib(pid));
    }
    shared.stop.store(true);
    for (auto& thread : threads) thread.join();
    const double wall = std::chrono::duration<double>(Clock::now() - start).count();

    // Warm: the second quarter of the run, once the pool of states and the allocators have
    // grown to what this load needs; a leak shows as growth from there to the last quarter.
    const size_t n = rss.size();
    const long warm = max_of(rss, n / 4, n / 2);
    const long end = max_of(rss, n - n / 4, n);
    const long growth = end - warm;
    const bool ok = shared.errors == 0 && shared.mismatches == 0 && n >= 8 &&
                    growth <= options.max_rss_growth_kib;
    out["mode"] = "load";
    out["seconds"] = wall;
    out["concurrency"] = options.concurrency;
    out["rounds"] = shared.rounds.load();
    out["rpcs"] = shared.rounds.load() * 3;
    out["rounds_per_s"] = static_cast<double>(shared.rounds.load()) / wall;
    out["errors"] = shared.errors.load();
    out["mismatches"] = shared.mismatches.load();
    out["rss_kib"] = {{"first", n > 0 ? rss.front() : 0},
                      {"warm", warm},
                      {"end", end},
                      {"growth", growth},
                      {"allowed_growth", options.max_rss_growth_kib},
                      {"samples", n}};
    out["first_problem"] = shared.first_problem;
    out["ok"] = ok;
  });
  session.stop();
  return out;
}

}  // namespace luaform::bench
