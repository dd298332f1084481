// state_store_X.lua: a store's schema is read like an action's, each operation runs its own
// function with the store's configuration and the client, states travel as Lua strings (any
// bytes), and what a script returns wrongly or raises is an error at its line.
#include <doctest/doctest.h>

#include <string>

#include "provider_dir.h"

using namespace luaform;
using namespace luaform::lua::testing;
using engine::StoreCall;
using engine::StoreOp;
using engine::Type;
using engine::Value;

namespace {

const char* kProvider = R"(local tf = require("luaform")
return tf.provider {
  schema = {},
  configure = function() return { states = {}, locks = {} } end,
}
)";

// States kept in the client's tables, as a real store keeps them in its service.
const char* kStore = R"(local tf = require("luaform")
return tf.state_store {
  description = "States in memory",
  chunk_size = 4096,
  schema = { prefix = tf.string { optional = true, default = "p/" } },
  states = function(config, client)
    local ids = {}
    for key in pairs(client.states) do ids[#ids + 1] = key:sub(#config.prefix + 1) end
    table.sort(ids)
    return ids
  end,
  read = function(config, id, client) return client.states[config.prefix .. id] end,
  write = function(config, id, state, client) client.states[config.prefix .. id] = state end,
  delete = function(config, id, client)
    if id == "default" then error("the default state stays") end
    client.states[config.prefix .. id] = nil
  end,
  lock = function(_, id, info, client)
    if client.locks[id] then
      tf.fail { summary = "state " .. id .. " is locked", detail = "by " .. client.locks[id] }
    end
    client.locks[id] = info.operation
    if id == "mine" then return "my-own-id" end
  end,
  unlock = function(_, id, _, client) client.locks[id] = nil end,
}
)";

struct Store {
  ProviderDir dir;
  std::shared_ptr<engine::ProviderLogic> logic;
  Value config;

  explicit Store(const char* script = kStore) {
    dir.write("provider.lua", kProvider);
    dir.write("state_store_memory.lua", script);
    logic = dir.load();
    REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
    REQUIRE(logic->configure(Value::null(logic->schema().provider.block.implied_type())).empty());
    const Type type = logic->schema().state_stores.at("test_memory").block.implied_type();
    config = Value::object(type, {{"prefix", Value::string("p/")}});
  }
  engine::Diagnostics run(StoreCall& call) const {
    return logic->open_session()->call_store("test_memory", config, call);
  }
};

}  // namespace

TEST_CASE("a state store script's schema is read with its description") {
  Store s;
  const auto& store = s.logic->schema().state_stores.at("test_memory");
  CHECK(store.block.description == "States in memory");
  CHECK(store.block.find_attribute("prefix")->optional);
  CHECK(store.block.find_attribute("id") == nullptr);  // a store's configuration has no id
}

TEST_CASE("a store writes, reads, lists and deletes whole states of any bytes") {
  Store s;
  StoreCall configure{StoreOp::Configure};
  CHECK(s.run(configure).empty());  // no configure function: nothing to check
  CHECK(configure.chunk_size == 4096);
  const std::string state = std::string("{\"serial\":1}\0\xff\xfe", 16);
  StoreCall write{StoreOp::Write, "default", state};
  CHECK(s.run(write).empty());
  StoreCall read{StoreOp::Read, "default"};
  CHECK(s.run(read).empty());
  CHECK(read.state == state);
  StoreCall absent{StoreOp::Read, "dev"};
  CHECK(s.run(absent).empty());
  CHECK_FALSE(absent.state.has_value());
  StoreCall dev{StoreOp::Write, "dev", std::string("{}")};
  s.run(dev);
  StoreCall states{StoreOp::States};
  CHECK(s.run(states).empty());
  CHECK(states.state_ids == std::vector<std::string>{"default", "dev"});
  StoreCall refused{StoreOp::Delete, "default"};
  const auto diags = s.run(refused);
  REQUIRE(diags.has_errors());
  CHECK(diags.items()[0].summary == "the default state stays");
  CHECK(diags.items()[0].detail == "test_memory: delete failed at state_store_memory.lua:15.");
}

TEST_CASE("a lock keeps the proposed id unless the script returns its own, and fails as said") {
  Store s;
  StoreCall lock{StoreOp::Lock, "default"};
  lock.lock_id = "proposed";
  lock.operation = "OperationTypeApply";
  CHECK(s.run(lock).empty());
  CHECK(lock.lock_id == "proposed");
  StoreCall again{StoreOp::Lock, "default"};
  const auto held = s.run(again);
  REQUIRE(held.has_errors());
  CHECK(held.items()[0].summary == "state default is locked");
  CHECK(held.items()[0].detail.starts_with("by OperationTypeApply"));
  StoreCall mine{StoreOp::Lock, "mine"};
  mine.lock_id = "proposed";
  CHECK(s.run(mine).empty());
  CHECK(mine.lock_id == "my-own-id");
  StoreCall unlock{StoreOp::Unlock, "default"};
  unlock.lock_id = "proposed";
  CHECK(s.run(unlock).empty());
  StoreCall retaken{StoreOp::Lock, "default"};
  CHECK(s.run(retaken).empty());
}

TEST_CASE("what a store's function returns wrongly is an error naming the script") {
  Store s(R"(local tf = require("luaform")
return tf.state_store {
  states = function() return "default" end,
  read = function() return 42 end,
  write = function() end,
  delete = function() end,
}
)");
  StoreCall states{StoreOp::States};
  const auto listed = s.run(states);
  REQUIRE(listed.has_errors());
  CHECK(all_text(listed).find("states must return a list of the states' names") !=
        std::string::npos);
  StoreCall read{StoreOp::Read, "default"};
  const auto got = s.run(read);
  REQUIRE(got.has_errors());
  CHECK(all_text(got).find("state_store_memory.lua: read must return the state as a string") !=
        std::string::npos);
  // Without lock and unlock every lock is granted with the proposed id.
  StoreCall lock{StoreOp::Lock, "default"};
  lock.lock_id = "proposed";
  CHECK(s.run(lock).empty());
  CHECK(lock.lock_id == "proposed");
}

TEST_CASE("tf.state_store refuses a definition that cannot work") {
  ProviderDir dir;
  dir.write("provider.lua", kProvider);
  dir.write("state_store_half.lua", R"(local tf = require("luaform")
return tf.state_store {
  states = function() return {} end, read = function() end, write = function() end,
  delete = function() end, lock = function() end,
})");
  dir.write("state_store_big.lua", R"(local tf = require("luaform")
return tf.state_store {
  chunk_size = 0,
  states = function() return {} end, read = function() end, write = function() end,
  delete = function() end,
})");
  dir.write("state_store_bare.lua", R"(local tf = require("luaform")
return tf.state_store { states = function() return {} end })");
  const auto logic = dir.load();
  const std::string said = all_text(logic->load_diagnostics());
  CHECK(said.find("tf.state_store: lock and unlock go together") != std::string::npos);
  CHECK(said.find("tf.state_store: chunk_size must be a whole number of bytes") !=
        std::string::npos);
  CHECK(said.find("tf.state_store: a delete function is required") != std::string::npos);
}
