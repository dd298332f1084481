// State stores: the configuration is validated and kept per store, the store sees whole states
// while the CLI streams chunks, locks get an id, and secrets of the configuration stay hidden.
#include <doctest/doctest.h>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

// A store of states in a map, as a script keeps them in its service.
struct StoreFixture : ServiceFixture {
  Type type;
  std::map<std::string, std::string> states;
  std::vector<std::string> calls;
  std::string held_by;  // the lock's id, when taken
  Value configured;
  int64_t preferred_chunk_size = 0;

  StoreFixture() {
    Schema store;
    Attribute prefix = attribute("prefix", Type::string(), false, true, false);
    prefix.default_value = Value::string("tf/");
    prefix.has_validate = true;
    Attribute token = attribute("token", Type::string(), false, true, false);
    token.sensitive = true;
    store.block.attributes = {prefix, token};
    logic->declared.state_stores["test_store"] = store;
    type = serve().state_stores.at("test_store").block.implied_type();
    logic->store = [this](const Value& config, StoreCall& call) {
      configured = config;
      calls.push_back(std::string(store_op_name(call.op)) + " " + call.state_id);
      Diagnostics diags;
      switch (call.op) {
        case StoreOp::Configure:
          call.chunk_size = preferred_chunk_size;
          break;
        case StoreOp::States:
          for (const auto& [id, _] : states) call.state_ids.push_back(id);
          break;
        case StoreOp::Read:
          if (states.contains(call.state_id)) call.state = states.at(call.state_id);
          break;
        case StoreOp::Write:
          states[call.state_id] = *call.state;
          break;
        case StoreOp::Delete:
          states.erase(call.state_id);
          break;
        case StoreOp::Lock:
          if (!held_by.empty()) {
            diags.error("state " + call.state_id + " is locked by " + held_by + " with " +
                        config.get_attribute("token").as_string());
          } else {
            held_by = call.lock_id;
          }
          break;
        case StoreOp::Unlock:
          if (held_by != call.lock_id) {
            diags.error("not your lock");
          } else {
            held_by.clear();
          }
          break;
      }
      return diags;
    };
  }
  Value config(const std::string& token = "s3cr3t") const {
    return Value::object(
        type, {{"prefix", Value::null(Type::string())}, {"token", Value::string(token)}});
  }
  ConfigureStoreResponse configure(int64_t proposed = kDefaultStateChunkSize) {
    return service->configure_state_store(ConfigureStoreRequest{"test_store", config(), proposed});
  }
  // What a read streams, joined as the CLI joins it.
  std::string read(const std::string& id) const {
    const ReadStateResponse read = service->read_state_bytes({"test_store", id});
    REQUIRE_FALSE(read.diagnostics.has_errors());
    std::string joined;
    for (const auto& chunk : read.chunks) {
      joined += read.state.substr(static_cast<size_t>(chunk.start),
                                  static_cast<size_t>(chunk.end - chunk.start + 1));
    }
    return joined;
  }
  Diagnostics write(const std::string& id, const std::string& state, int64_t size) const {
    WriteStateRequest req{{"test_store", id}, {}};
    for (const auto& range : chunk_ranges(static_cast<int64_t>(state.size()), size)) {
      req.chunks.push_back({state.substr(static_cast<size_t>(range.start),
                                         static_cast<size_t>(range.end - range.start + 1)),
                            range});
    }
    return service->write_state_bytes(std::move(req));
  }
};

}  // namespace

TEST_CASE("a state store is announced, and its configuration is validated by its schema") {
  StoreFixture f;
  CHECK(f.service->get_metadata().state_stores == std::vector<std::string>{"test_store"});
  CHECK_FALSE(f.service->validate_state_store_config(ValidateRequest{"test_store", f.config()})
                  .has_errors());
  CHECK(f.service->validate_state_store_config(ValidateRequest{"test_other", f.config()})
            .has_errors());
}

TEST_CASE("configure keeps the configuration with its defaults and answers the chunk size") {
  StoreFixture f;
  ConfigureStoreResponse resp = f.configure(4096);
  CHECK_FALSE(resp.diagnostics.has_errors());
  CHECK(resp.chunk_size == 4096);
  CHECK(f.configured.get_attribute("prefix") == Value::string("tf/"));
  f.service->get_states("test_store");
  CHECK(f.configured.get_attribute("prefix") == Value::string("tf/"));  // kept for later calls
  f.preferred_chunk_size = 512;
  CHECK(f.configure().chunk_size == 512);
}

TEST_CASE("a configuration its validators refuse is not configured, though the CLI asks") {
  StoreFixture f;
  f.logic->validators["prefix"] = [](const Value& v) {
    Diagnostics diags;
    if (!v.as_string().ends_with("/")) diags.error("prefix must end with /");
    return diags;
  };
  const Value bad = f.config().with_attribute("prefix", Value::string("tf"));
  CHECK(f.service->validate_state_store_config(ValidateRequest{"test_store", bad}).has_errors());
  const ConfigureStoreResponse resp =
      f.service->configure_state_store(ConfigureStoreRequest{"test_store", bad, 4096});
  REQUIRE(resp.diagnostics.has_errors());
  CHECK(resp.diagnostics.items()[0].summary == "test_store: configure refused");
  CHECK(resp.chunk_size == 4096);  // answered all the same: the CLI reads it
  CHECK(f.calls.empty());
  CHECK(f.service->get_states("test_store").diagnostics.has_errors());  // not configured
}

TEST_CASE("a state RPC before the store is configured is an error naming the store") {
  StoreFixture f;
  const GetStatesResponse states = f.service->get_states("test_store");
  REQUIRE(states.diagnostics.has_errors());
  CHECK(states.diagnostics.items()[0].summary == "test_store is not configured");
  CHECK(f.calls.empty());
}

TEST_CASE("states written in chunks are read back whole, listed and deleted") {
  StoreFixture f;
  f.preferred_chunk_size = 7;
  f.configure();
  const std::string state = "{\"version\":4,\"serial\":1,\"resources\":[]}";
  CHECK_FALSE(f.write("default", state, 7).has_errors());
  CHECK(f.states.at("default") == state);  // the store saw one whole state
  CHECK(f.read("default") == state);
  const ReadStateResponse read = f.service->read_state_bytes({"test_store", "default"});
  CHECK(read.chunks.size() == (state.size() + 6) / 7);
  CHECK(f.read("dev").empty());  // no such state: nothing streams
  CHECK(f.service->read_state_bytes({"test_store", "dev"}).chunks.empty());
  f.write("dev", "{}", 7);
  CHECK(f.service->get_states("test_store").state_ids ==
        std::vector<std::string>{"default", "dev"});
  CHECK_FALSE(f.service->delete_state({"test_store", "dev"}).has_errors());
  CHECK(f.service->get_states("test_store").state_ids == std::vector<std::string>{"default"});
}

TEST_CASE("a write whose chunks do not add up never reaches the store") {
  StoreFixture f;
  f.preferred_chunk_size = 4;
  f.configure();
  f.states["default"] = "good";
  WriteStateRequest broken{{"test_store", "default"}, {}};
  broken.chunks.push_back({"{\"ve", {0, 3, 12}});  // the stream broke off after one chunk
  const Diagnostics diags = f.service->write_state_bytes(std::move(broken));
  REQUIRE(diags.has_errors());
  CHECK(f.states.at("default") == "good");
  CHECK(f.calls == std::vector<std::string>{"configure "});
  // Larger than the size agreed, also refused.
  CHECK(f.write("default", "{\"version\":4}", 8).has_errors());
  CHECK(f.states.at("default") == "good");
}

TEST_CASE("a lock gets the proposed id, a second lock fails, and secrets stay hidden") {
  StoreFixture f;
  f.configure();
  const LockStateResponse first = f.service->lock_state({{"test_store", "default"}, "apply"});
  REQUIRE_FALSE(first.diagnostics.has_errors());
  CHECK(first.lock_id.size() == 36);
  CHECK(first.lock_id == f.held_by);
  const LockStateResponse second = f.service->lock_state({{"test_store", "default"}, "plan"});
  REQUIRE(second.diagnostics.has_errors());
  CHECK(second.lock_id.empty());
  const std::string said = second.diagnostics.items()[0].summary;
  CHECK(said.find(first.lock_id) != std::string::npos);
  CHECK(said.find("s3cr3t") == std::string::npos);  // the store's sensitive token
  CHECK(f.service->unlock_state({{"test_store", "default"}, "someone-else"}).has_errors());
  CHECK_FALSE(f.service->unlock_state({{"test_store", "default"}, first.lock_id}).has_errors());
  CHECK(f.service->lock_state({{"test_store", "default"}, "apply"}).lock_id != first.lock_id);
}
