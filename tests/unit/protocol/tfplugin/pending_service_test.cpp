// The provider service while its scripts load: RPCs that arrive first wait for the load (or get
// what it threw), StopProvider does not wait for it, and every copy the servers hold shares one
// load. The RPCs are the CLI's, through a Tfplugin6Server; the rest is PendingService's own.
#include "host/protocol/tfplugin/pending_service.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "host/protocol/proto/tfplugin6.grpc.pb.h"
#include "host/protocol/tfplugin/tfplugin6_server.h"
#include "tests/unit/protocol/grpc_client.h"
#include "tests/unit/protocol/in_process_server.h"
#include "tests/unit/protocol/test_provider.h"

namespace luaform::protocol {
namespace {

using namespace std::chrono_literals;

// A Tfplugin6Server over `service`, called through gRPC as the CLI calls it.
struct Served {
  Tfplugin6Server server;
  testing::InProcessServer in_process{&server};
  std::unique_ptr<tfplugin6::Provider::Stub> stub =
      tfplugin6::Provider::NewStub(in_process.channel());

  explicit Served(PendingService service) : server(std::move(service)) {}
};

// A logic that counts the stops that reach it.
struct StopCountingLogic : engine::testing::ScriptedLogic {
  std::atomic<int> stops{0};
  void stop() override { ++stops; }
};

// A loader that hands out a service over `logic` once `released` is ready, counting its runs.
PendingService::Loader held_loader(std::shared_ptr<engine::ProviderLogic> logic,
                                   std::shared_future<void> released, std::atomic<int>& loads) {
  return [logic, released, &loads](int) {
    ++loads;
    released.wait();
    return std::make_shared<engine::ProviderService>(logic);
  };
}

TEST_CASE("an RPC that arrives while the provider is still loading waits for it") {
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  Served f(PendingService::deferred([released](int) {
    released.wait();
    return testing::file_provider();
  }));
  tfplugin6::GetProviderSchema::Response resp;
  auto answer = std::async(std::launch::async, [&] {
    return f.stub->GetProviderSchema(testing::context().get(), {}, &resp);
  });
  // Still loading: no answer, however long the wait.
  CHECK(answer.wait_for(std::chrono::milliseconds(200)) == std::future_status::timeout);
  release.set_value();
  const grpc::Status status = answer.get();
  REQUIRE_MESSAGE(status.ok(), status.error_message());
  CHECK(resp.diagnostics_size() == 0);
  CHECK(resp.resource_schemas().count("test_file") == 1);
}

TEST_CASE("StopProvider is answered while the provider is still loading, and ends the load") {
  // The loader stands for scripts whose top level loops until a stop reaches them.
  auto stopped = std::make_shared<std::promise<void>>();
  std::shared_future<void> stop_seen = stopped->get_future().share();
  Served f(PendingService::deferred(
      [stop_seen](int) {
        stop_seen.wait();
        return testing::file_provider();
      },
      [stopped] { stopped->set_value(); }));
  tfplugin6::GetProviderSchema::Response schema;
  auto loading = std::async(std::launch::async, [&] {
    return f.stub->GetProviderSchema(testing::context().get(), {}, &schema);
  });
  CHECK(loading.wait_for(std::chrono::milliseconds(100)) == std::future_status::timeout);
  tfplugin6::StopProvider::Response stop;
  auto stopping = std::async(std::launch::async, [&] {
    return f.stub->StopProvider(testing::context().get(), {}, &stop);
  });
  REQUIRE(stopping.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
  CHECK(stopping.get().ok());
  CHECK(stop.error().empty());
  // The stop reached the load, which ends; the waiting RPC gets its answer.
  REQUIRE(loading.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
  CHECK(loading.get().ok());
}

TEST_CASE("a deferred provider loads when started, before any RPC asks for it") {
  std::promise<int> loaded;
  auto done = loaded.get_future();
  PendingService service = PendingService::deferred([&loaded](int protocol_version) {
    loaded.set_value(protocol_version);
    return testing::file_provider();
  });
  CHECK(done.wait_for(std::chrono::milliseconds(100)) == std::future_status::timeout);
  service.serve_over(5);
  service.start();
  service.start();  // a second start is harmless
  REQUIRE(done.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
  CHECK(done.get() == 5);  // the loader learns the protocol it is served with
  const auto answer = service->engine().get_provider_schema();
  REQUIRE(answer.schema != nullptr);
  CHECK(answer.schema->resources.count("test_file") == 1);
}

TEST_CASE("an RPC that starts the load itself gives the loader the protocol said before") {
  std::atomic<int> seen{-1};
  PendingService service = PendingService::deferred([&seen](int protocol_version) {
    seen = protocol_version;
    return testing::file_provider();
  });
  service.serve_over(6);
  CHECK(service->engine().get_provider_schema().schema != nullptr);  // no start() before
  CHECK(seen == 6);
}

TEST_CASE("a loader that is told no protocol version is given 0") {
  std::atomic<int> seen{-1};
  PendingService service = PendingService::deferred([&seen](int protocol_version) {
    seen = protocol_version;
    return testing::file_provider();
  });
  service.get();
  CHECK(seen == 0);
}

TEST_CASE("a provider that fails to load answers every RPC with an error saying why") {
  Served f(PendingService::deferred([](int) -> std::shared_ptr<engine::ProviderService> {
    throw std::runtime_error("the scripts could not be read");
  }));
  tfplugin6::GetProviderSchema::Response resp;
  const grpc::Status status = f.stub->GetProviderSchema(testing::context().get(), {}, &resp);
  REQUIRE_MESSAGE(status.ok(), status.error_message());
  REQUIRE(resp.diagnostics_size() == 1);
  CHECK(resp.diagnostics(0).severity() == tfplugin6::Diagnostic::ERROR);
  CHECK(resp.diagnostics(0).detail() == "the scripts could not be read");
  tfplugin6::StopProvider::Response stopped;
  REQUIRE(f.stub->StopProvider(testing::context().get(), {}, &stopped).ok());
  CHECK(stopped.error() == "the scripts could not be read");
}

TEST_CASE("what the loader threw reaches every caller, and the loader does not run again") {
  std::atomic<int> loads{0};
  PendingService service =
      PendingService::deferred([&loads](int) -> std::shared_ptr<engine::ProviderService> {
        ++loads;
        throw std::runtime_error("provider.lua:1: syntax error");
      });
  CHECK_THROWS_WITH_AS(service.get(), "provider.lua:1: syntax error", std::runtime_error);
  CHECK_THROWS_WITH_AS(service.get(), "provider.lua:1: syntax error", std::runtime_error);
  CHECK(loads == 1);
}

TEST_CASE("a loader that returns no service is an error every caller gets, not a crash") {
  PendingService service =
      PendingService::deferred([](int) { return std::shared_ptr<engine::ProviderService>(); });
  CHECK_THROWS_WITH_AS(service.get(), "the provider's loader returned no service",
                       std::logic_error);
  CHECK_THROWS_AS(PendingService::ready(nullptr), std::logic_error);
}

TEST_CASE("a ready service is served at once, and StopProvider stops its provider") {
  auto logic = std::make_shared<StopCountingLogic>();
  logic->declared.resources["test_file"] = engine::testing::file_schema();
  PendingService service = PendingService::ready(std::make_shared<engine::ProviderService>(logic));
  service.start();  // nothing to start: it is loaded
  CHECK(service->engine().get_provider_schema().schema->resources.count("test_file") == 1);
  service.stop();
  CHECK(logic->stops.load() == 1);
}

TEST_CASE("once the provider has loaded, a stop stops the provider, not the load") {
  auto logic = std::make_shared<StopCountingLogic>();
  std::atomic<int> load_stops{0};
  PendingService service = PendingService::deferred(
      [logic](int) { return std::make_shared<engine::ProviderService>(logic); },
      [&load_stops] { ++load_stops; });
  service.get();
  service.stop();
  CHECK(logic->stops.load() == 1);
  CHECK(load_stops == 0);
}

TEST_CASE("without a way to stop the load, a stop waits for it and then stops the provider") {
  auto logic = std::make_shared<StopCountingLogic>();
  std::promise<void> release;
  std::atomic<int> loads{0};
  PendingService service =
      PendingService::deferred(held_loader(logic, release.get_future().share(), loads));
  service.start();
  auto stopping = std::async(std::launch::async, [&service] { service.stop(); });
  CHECK(stopping.wait_for(100ms) == std::future_status::timeout);
  release.set_value();
  REQUIRE(stopping.wait_for(5s) == std::future_status::ready);
  CHECK(logic->stops.load() == 1);
}

TEST_CASE("the copies the servers hold share one load, however many RPCs ask at once") {
  auto logic = std::make_shared<engine::testing::ScriptedLogic>();
  std::promise<void> release;
  std::atomic<int> loads{0};
  PendingService service =
      PendingService::deferred(held_loader(logic, release.get_future().share(), loads));
  const PendingService copy = service;
  std::vector<std::future<engine::wire::WireService*>> asking;
  for (int i = 0; i < 4; ++i) {
    const PendingService& asked = i % 2 == 0 ? service : copy;
    asking.push_back(std::async(std::launch::async, [&asked] { return &asked.get(); }));
  }
  release.set_value();
  for (auto& answer : asking) {
    REQUIRE(answer.wait_for(5s) == std::future_status::ready);
    CHECK(answer.get() == &service.get());
  }
  CHECK(loads == 1);
}

TEST_CASE("the last copy to go waits for a load still running, rather than leave its thread") {
  std::atomic<bool> finished{false};
  {
    PendingService service = PendingService::deferred([&finished](int) {
      std::this_thread::sleep_for(200ms);
      finished = true;
      return testing::file_provider();
    });
    service.start();
  }
  CHECK(finished);
}

}  // namespace
}  // namespace luaform::protocol
