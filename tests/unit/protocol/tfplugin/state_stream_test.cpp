// ReadStateBytes and WriteStateBytes over a real gRPC server, read as Terraform 1.16's client
// reads them: every message has its range (the client reads it without a check), every chunk
// but the last is exactly the agreed size, and a write stream the client abandons writes nothing.
#include "host/protocol/tfplugin/state_stream.h"

#include <doctest/doctest.h>

#include <map>
#include <string>

#include "host/protocol/goplugin/plugin_server.h"
#include "host/protocol/goplugin/socket_path.h"
#include "host/protocol/proto/tfplugin6.grpc.pb.h"
#include "tests/unit/protocol/grpc_client.h"
#include "tests/unit/protocol/test_provider.h"

namespace luaform::protocol {
namespace {

namespace p6 = tfplugin6;

// A server whose provider has store test_store, keeping states in `states`.
struct StoreServer {
  std::map<std::string, std::string> states;
  std::string error;
  std::unique_ptr<SocketDirectory> dir = SocketDirectory::create("/tmp", error);
  std::unique_ptr<PluginServer> server;
  std::unique_ptr<p6::Provider::Stub> stub;

  StoreServer() {
    auto logic = std::make_shared<engine::testing::ScriptedLogic>();
    logic->declared.state_stores["test_store"] = engine::Schema{};
    logic->store = [this](const engine::Value&, engine::StoreCall& call) {
      if (call.op == engine::StoreOp::Read && states.contains(call.state_id)) {
        call.state = states.at(call.state_id);
      }
      if (call.op == engine::StoreOp::Write) states[call.state_id] = *call.state;
      return engine::Diagnostics{};
    };
    REQUIRE(dir);
    PluginServerConfig config;
    config.listen = {"unix", dir->socket_path()};
    server = PluginServer::start(
        PendingService::ready(std::make_shared<engine::ProviderService>(logic)), config, error);
    REQUIRE_MESSAGE(server, error);
    stub = p6::Provider::NewStub(testing::plaintext_channel(dir->socket_path()));
  }

  int64_t configure(int64_t proposed) const {
    p6::ConfigureStateStore::Request req;
    req.set_type_name("test_store");
    req.mutable_config()->set_json("{}");
    req.mutable_capabilities()->set_chunk_size(proposed);
    p6::ConfigureStateStore::Response resp;
    REQUIRE(stub->ConfigureStateStore(testing::context().get(), req, &resp).ok());
    REQUIRE(resp.diagnostics().empty());
    return resp.capabilities().chunk_size();
  }

  std::vector<p6::ReadStateBytes::Response> read(const std::string& id) const {
    p6::ReadStateBytes::Request req;
    req.set_type_name("test_store");
    req.set_state_id(id);
    auto ctx = testing::context();
    auto reader = stub->ReadStateBytes(ctx.get(), req);
    std::vector<p6::ReadStateBytes::Response> messages;
    p6::ReadStateBytes::Response message;
    while (reader->Read(&message)) messages.push_back(message);
    REQUIRE(reader->Finish().ok());
    return messages;
  }
};

// A chunk as Terraform sends it; the first names the store and the state (`first_of`).
p6::WriteStateBytes::RequestChunk chunk(const std::string& bytes, int64_t start, int64_t total,
                                        const char* first_of = nullptr) {
  p6::WriteStateBytes::RequestChunk c;
  if (first_of != nullptr) {
    c.mutable_meta()->set_type_name("test_store");
    c.mutable_meta()->set_state_id(first_of);
  }
  c.set_bytes(bytes);
  c.set_total_length(total);
  c.mutable_range()->set_start(start);
  c.mutable_range()->set_end(start + static_cast<int64_t>(bytes.size()) - 1);
  return c;
}

}  // namespace

TEST_CASE("a state written in chunks reads back in chunks of the agreed size, each with a range") {
  StoreServer s;
  CHECK(s.configure(4) == 4);
  // 17 bytes: four chunks of 4 and one of 1.
  const std::string written = "{\"serial\":12345}!";
  {
    auto ctx = testing::context();
    p6::WriteStateBytes::Response resp;
    auto writer = s.stub->WriteStateBytes(ctx.get(), &resp);
    for (size_t at = 0; at < written.size(); at += 4) {
      REQUIRE(writer->Write(chunk(written.substr(at, 4), static_cast<int64_t>(at),
                                  static_cast<int64_t>(written.size()),
                                  at == 0 ? "default" : nullptr)));
    }
    writer->WritesDone();
    REQUIRE(writer->Finish().ok());
    CHECK(resp.diagnostics().empty());
  }
  CHECK(s.states.at("default") == written);

  const auto messages = s.read("default");
  REQUIRE(messages.size() == 5);
  std::string joined;
  for (size_t i = 0; i < messages.size(); ++i) {
    const auto& m = messages[i];
    REQUIRE(m.has_range());
    CHECK(m.total_length() == 17);
    CHECK(m.range().start() == static_cast<int64_t>(i * 4));
    CHECK(m.range().end() == m.range().start() + m.bytes().size() - 1);
    CHECK(m.bytes().size() == (i < 4 ? 4U : 1U));
    joined += m.bytes();
  }
  CHECK(joined == written);
}

TEST_CASE("no state reads as one empty message with a range, which the CLI takes as none") {
  StoreServer s;
  s.configure(8 << 20);
  const auto messages = s.read("absent");
  REQUIRE(messages.size() == 1);
  CHECK(messages[0].has_range());
  CHECK(messages[0].bytes().empty());
  CHECK(messages[0].total_length() == 0);
  CHECK(messages[0].diagnostics().empty());
}

TEST_CASE("an error reaches the CLI in a message with a range too") {
  StoreServer s;  // not configured: reads are refused
  const auto messages = s.read("default");
  REQUIRE(messages.size() == 1);
  CHECK(messages[0].has_range());
  REQUIRE(messages[0].diagnostics_size() == 1);
  CHECK(messages[0].diagnostics(0).summary() == "test_store is not configured");
}

TEST_CASE("a write stream that stops short, or that the client abandons, writes nothing") {
  StoreServer s;
  s.configure(4);
  s.states["default"] = "kept";
  {
    auto ctx = testing::context();
    p6::WriteStateBytes::Response resp;
    auto writer = s.stub->WriteStateBytes(ctx.get(), &resp);
    REQUIRE(writer->Write(chunk("{\"se", 0, 12, "default")));
    writer->WritesDone();
    REQUIRE(writer->Finish().ok());
    REQUIRE(resp.diagnostics_size() == 1);
    CHECK(resp.diagnostics(0).summary() ==
          "The state \"default\" arrived incomplete: nothing was written");
  }
  {
    auto ctx = testing::context();
    p6::WriteStateBytes::Response resp;
    auto writer = s.stub->WriteStateBytes(ctx.get(), &resp);
    REQUIRE(writer->Write(chunk("{}", 0, 2, "default")));
    ctx->TryCancel();  // the CLI was interrupted before it closed the stream
    CHECK_FALSE(writer->Finish().ok());
  }
  CHECK(s.states.at("default") == "kept");
}

}  // namespace luaform::protocol
