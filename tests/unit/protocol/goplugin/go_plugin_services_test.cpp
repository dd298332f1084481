// go-plugin's own services as its client calls them: GRPCController.Shutdown requests the
// shutdown, the stdio stream and health watches stay open (silent, or serving) until it comes
// or their client goes away, and health answers for the server as a whole and for "plugin".
// (go-plugin's GRPCBroker is not served: Terraform providers never use it.)
#include "host/protocol/goplugin/go_plugin_services.h"

#include <doctest/doctest.h>

#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "host/protocol/goplugin/shutdown_signal.h"
#include "host/protocol/proto/go_plugin.grpc.pb.h"
#include "host/protocol/proto/health.grpc.pb.h"
#include "tests/unit/protocol/grpc_client.h"
#include "tests/unit/protocol/in_process_server.h"

namespace luaform::protocol {
namespace {

using namespace std::chrono_literals;
using grpc::health::v1::HealthCheckResponse;

// The three services on one shutdown signal, as the plugin server holds them.
struct GoPluginServices {
  ShutdownSignal shutdown;
  ControllerService controller{shutdown};
  StdioService stdio{shutdown};
  HealthService health{shutdown};
  testing::InProcessServer in_process{&controller, &stdio, &health};
  std::shared_ptr<grpc::Channel> channel = in_process.channel();

  // Whether the server stopped within `limit` while no shutdown was requested: only when no
  // handler still holds a stream open. A handler that does is freed by a shutdown after
  // `limit`, so the test fails instead of hanging.
  bool stops_without_shutdown(std::chrono::seconds limit) {
    auto stopping = std::async(std::launch::async, [this] { in_process.stop(10s); });
    const bool stopped = stopping.wait_for(limit) == std::future_status::ready;
    if (!stopped) shutdown.request();
    return stopped;
  }
};

// A Watch call on the fixture's health service, open until the server ends it.
struct HealthWatch {
  std::unique_ptr<grpc::health::v1::Health::Stub> stub;
  std::unique_ptr<grpc::ClientContext> ctx = testing::context(10);
  std::unique_ptr<grpc::ClientReader<HealthCheckResponse>> reader;

  HealthWatch(const GoPluginServices& f, const std::string& service)
      : stub(grpc::health::v1::Health::NewStub(f.channel)) {
    grpc::health::v1::HealthCheckRequest req;
    req.set_service(service);
    reader = stub->Watch(ctx.get(), req);
  }
  // The next status the server sends; nothing once the stream has ended.
  std::optional<HealthCheckResponse::ServingStatus> next() {
    HealthCheckResponse resp;
    if (!reader->Read(&resp)) return std::nullopt;
    return resp.status();
  }
};

// An open StreamStdio call, read on a thread of its own until the server ends it.
struct StdioStream {
  std::unique_ptr<plugin::GRPCStdio::Stub> stub;
  std::unique_ptr<grpc::ClientContext> ctx = testing::context(10);
  std::unique_ptr<grpc::ClientReader<plugin::StdioData>> reader;
  std::future<int> messages;  // how many the stream carried, once it has ended

  explicit StdioStream(const GoPluginServices& f) : stub(plugin::GRPCStdio::NewStub(f.channel)) {
    reader = stub->StreamStdio(ctx.get(), {});
    messages = std::async(std::launch::async, [this] {
      plugin::StdioData data;
      int count = 0;
      while (reader->Read(&data)) ++count;
      return count;
    });
  }
  bool still_open_after(std::chrono::milliseconds wait) const {
    return messages.wait_for(wait) == std::future_status::timeout;
  }
  // Whether the stream ended within `limit`; one that did not is cancelled, so the reading
  // thread ends with the test.
  bool ends_within(std::chrono::milliseconds limit) {
    const bool ended = messages.wait_for(limit) == std::future_status::ready;
    if (!ended) ctx->TryCancel();
    return ended;
  }
  ~StdioStream() {
    ctx->TryCancel();
    if (messages.valid()) messages.wait();
  }
};

TEST_CASE("the health service reports \"plugin\" and the whole server as serving") {
  GoPluginServices f;
  auto health = grpc::health::v1::Health::NewStub(f.channel);
  auto check = [&](const std::string& service, grpc::health::v1::HealthCheckResponse& resp) {
    grpc::health::v1::HealthCheckRequest req;
    req.set_service(service);
    return health->Check(testing::context().get(), req, &resp);
  };
  for (const std::string service : {"plugin", ""}) {
    CAPTURE(service);
    grpc::health::v1::HealthCheckResponse resp;
    auto status = check(service, resp);
    REQUIRE_MESSAGE(status.ok(), status.error_message());
    CHECK(resp.status() == grpc::health::v1::HealthCheckResponse::SERVING);
  }
  SUBCASE("a service it does not have is NOT_FOUND") {
    grpc::health::v1::HealthCheckResponse resp;
    auto status = check("tfplugin6.Provider.Elsewhere", resp);
    CHECK(status.error_code() == grpc::StatusCode::NOT_FOUND);
    CHECK(status.error_message().find("Elsewhere") != std::string::npos);
  }
  SUBCASE("once shutdown is requested it is NOT_SERVING") {
    f.shutdown.request();
    grpc::health::v1::HealthCheckResponse resp;
    auto status = check("plugin", resp);
    REQUIRE_MESSAGE(status.ok(), status.error_message());
    CHECK(resp.status() == grpc::health::v1::HealthCheckResponse::NOT_SERVING);
  }
}

TEST_CASE("a health watch sends SERVING, then NOT_SERVING at shutdown, and ends") {
  GoPluginServices f;
  HealthWatch watch(f, "plugin");
  CHECK(watch.next() == HealthCheckResponse::SERVING);
  f.shutdown.request();
  CHECK(watch.next() == HealthCheckResponse::NOT_SERVING);
  CHECK(watch.next() == std::nullopt);
  auto status = watch.reader->Finish();
  CHECK_MESSAGE(status.ok(), status.error_message());
}

TEST_CASE("a health watch of a service it does not have sends SERVICE_UNKNOWN") {
  GoPluginServices f;
  HealthWatch watch(f, "elsewhere");
  CHECK(watch.next() == HealthCheckResponse::SERVICE_UNKNOWN);
  f.shutdown.request();
  CHECK(watch.next() == std::nullopt);
}

TEST_CASE("a health watch begun after shutdown was requested sends NOT_SERVING alone, and ends") {
  GoPluginServices f;
  f.shutdown.request();
  HealthWatch watch(f, "");
  CHECK(watch.next() == HealthCheckResponse::NOT_SERVING);
  CHECK(watch.next() == std::nullopt);
  CHECK(watch.reader->Finish().ok());
}

TEST_CASE("a health watch ends when its client goes away, with no shutdown") {
  GoPluginServices f;
  HealthWatch watch(f, "plugin");
  REQUIRE(watch.next() == HealthCheckResponse::SERVING);
  watch.ctx->TryCancel();
  CHECK(f.stops_without_shutdown(3s));
}

TEST_CASE("GRPCController.Shutdown replies and requests the server's shutdown") {
  GoPluginServices f;
  CHECK_FALSE(f.shutdown.requested());
  auto controller = plugin::GRPCController::NewStub(f.channel);
  plugin::Empty resp;
  auto status = controller->Shutdown(testing::context().get(), {}, &resp);
  REQUIRE_MESSAGE(status.ok(), status.error_message());
  CHECK(f.shutdown.wait_for(std::chrono::seconds(2)));
}

TEST_CASE("the stdio stream stays open and silent until shutdown, then ends without error") {
  GoPluginServices f;
  StdioStream stdio(f);
  REQUIRE(stdio.still_open_after(300ms));
  f.shutdown.request();
  REQUIRE(stdio.ends_within(5000ms));
  CHECK(stdio.messages.get() == 0);
  CHECK(stdio.reader->Finish().ok());
}

TEST_CASE("the stdio stream ends when its client goes away, with no shutdown") {
  GoPluginServices f;
  StdioStream stdio(f);
  // Let the call reach its handler before the client leaves.
  std::this_thread::sleep_for(200ms);
  stdio.ctx->TryCancel();
  CHECK(f.stops_without_shutdown(3s));
}

TEST_CASE("GRPCController.Shutdown ends the stdio stream and the health watches that are open") {
  GoPluginServices f;
  StdioStream stdio(f);
  HealthWatch watch(f, "plugin");
  REQUIRE(watch.next() == HealthCheckResponse::SERVING);
  plugin::Empty resp;
  REQUIRE(plugin::GRPCController::NewStub(f.channel)
              ->Shutdown(testing::context().get(), {}, &resp)
              .ok());
  CHECK(watch.next() == HealthCheckResponse::NOT_SERVING);
  CHECK(watch.next() == std::nullopt);
  REQUIRE(stdio.ends_within(5000ms));
  CHECK(stdio.messages.get() == 0);
}

}  // namespace
}  // namespace luaform::protocol
