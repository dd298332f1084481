// The ProviderLogic built from scripts: configure and the client, the CRUD calls, errors as
// diagnostics, StopProvider, and calls from several threads at once.
#include "host/lua/provider/lua_provider.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "host/engine/rpc/session.h"

#include "provider_dir.h"

using namespace luaform;
using namespace luaform::lua::testing;
using engine::Operation;
using engine::Type;
using engine::Value;

namespace {

// A provider whose client is an in-memory store: a file-like resource on top of it.
const char* kProvider = R"(local tf = require("luaform")
return tf.provider {
  schema = { prefix = tf.string { optional = true }, unset = tf.string { optional = true } },
  configure = function(config)
    return { prefix = config.prefix, saw_unset = config.unset == nil, store = {}, configured = 1 }
  end,
}
)";

const char* kItem = R"(local tf = require("luaform")
return tf.resource {
  schema = {
    name = tf.string { required = true },
    content = tf.string { optional = true },
    stored = tf.string { computed = true },
  },
  create = function(d, client)
    local id = client.prefix .. d:get("name")
    client.store[id] = d:get("content")
    d:set_id(id)
    d:set("stored", client.store[id])
  end,
  read = function(d, client)
    local content = client.store[d:id()]
    if content == nil then
      d:set_id("")
      return
    end
    d:set("content", content)
    d:set("stored", content)
  end,
  update = function(d, client)
    client.store[d:id()] = d:get("content")
    d:set("stored", d:get("content"))
  end,
  delete = function(d, client)
    if d:get("name") == "stuck" then
      error("cannot delete " .. d:id())
    end
    client.store[d:id()] = nil
  end,
}
)";

struct Store {
  ProviderDir dir;
  std::shared_ptr<engine::ProviderLogic> logic;
  std::unique_ptr<Instance> item;

  Store() {
    dir.write("provider.lua", kProvider);
    dir.write("resource_item.lua", kItem);
    logic = dir.load();
    REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
    item = std::make_unique<Instance>(*logic, "test_item");
    Type config_type = logic->schema().provider.block.implied_type();
    auto diags = logic->configure(Value::object(config_type, {{"prefix", Value::string("p-")}}));
    REQUIRE_MESSAGE(!diags.has_errors(), all_text(diags));
  }
};

}  // namespace

TEST_CASE("create, read, update and delete run the script with the configured client") {
  Store s;
  const Instance& i = *s.item;
  Value config = i.object({{"name", Value::string("a")}, {"content", Value::string("one")}});

  engine::ResourceData created(i.schema, i.null(), config, config);
  auto diags = s.logic->open_session()->call(Operation::Create, "test_item", created);
  REQUIRE_MESSAGE(!diags.has_errors(), all_text(diags));
  Value state = created.result();
  CHECK(state.get_attribute("id") == Value::string("p-a"));
  CHECK(state.get_attribute("stored") == Value::string("one"));

  engine::ResourceData read(i.schema, state, Value::null(i.type), Value::null(i.type));
  REQUIRE_FALSE(s.logic->open_session()->call(Operation::Read, "test_item", read).has_errors());
  CHECK(read.result() == state);

  Value planned = state.with_attribute("content", Value::string("two"));
  engine::ResourceData updated(i.schema, state, planned, planned);
  REQUIRE_FALSE(
      s.logic->open_session()->call(Operation::Update, "test_item", updated).has_errors());
  state = updated.result();
  CHECK(state.get_attribute("stored") == Value::string("two"));

  engine::ResourceData deleted(i.schema, state, Value::null(i.type), Value::null(i.type));
  REQUIRE_FALSE(
      s.logic->open_session()->call(Operation::Delete, "test_item", deleted).has_errors());

  engine::ResourceData gone(i.schema, state, Value::null(i.type), Value::null(i.type));
  REQUIRE_FALSE(s.logic->open_session()->call(Operation::Read, "test_item", gone).has_errors());
  CHECK(gone.result().is_null());
}

TEST_CASE("configure receives a plain table with nil for unset attributes") {
  ProviderDir dir;
  dir.write("provider.lua", kProvider);
  dir.write("data_source_probe.lua", R"(local tf = require("luaform")
return tf.data_source {
  schema = { out = tf.string { computed = true } },
  read = function(d, client)
    d:set_id("probe")
    d:set("out", tostring(client.prefix) .. " " .. tostring(client.saw_unset))
  end,
}
)");
  auto logic = dir.load();
  Type config_type = logic->schema().provider.block.implied_type();
  REQUIRE_FALSE(
      logic->configure(Value::object(config_type, {{"prefix", Value::string("x")}})).has_errors());
  engine::Schema schema = engine::schema_as_served(logic->schema()).data_sources.at("test_probe");
  Value null = Value::null(schema.block.implied_type());
  engine::ResourceData d(schema, null, null, null);
  REQUIRE_FALSE(logic->open_session()->call(Operation::ReadData, "test_probe", d).has_errors());
  CHECK(d.get("out") == Value::string("x true"));
}

TEST_CASE("configure's second argument names the attributes whose values are not known yet") {
  ProviderDir dir;
  dir.write("provider.lua", R"(local tf = require("luaform")
return tf.provider {
  schema = {
    url = tf.string { optional = true },
    token = tf.string { optional = true },
    headers = tf.map(tf.string) { optional = true },
  },
  configure = function(config, unknown)
    local names = {}
    for name in pairs(unknown) do names[#names + 1] = name end
    table.sort(names)
    return { seen = table.concat(names, ",") .. " token=" .. tostring(config.token) }
  end,
}
)");
  dir.write("data_source_probe.lua", R"(local tf = require("luaform")
return tf.data_source {
  schema = { out = tf.string { computed = true } },
  read = function(d, client)
    d:set_id("probe")
    d:set("out", client.seen)
  end,
}
)");
  auto logic = dir.load();
  const Type config_type = logic->schema().provider.block.implied_type();
  const engine::Schema schema =
      engine::schema_as_served(logic->schema()).data_sources.at("test_probe");
  const Value null = Value::null(schema.block.implied_type());
  auto seen = [&](const Value& config) {
    REQUIRE_FALSE(logic->configure(config).has_errors());
    engine::ResourceData d(schema, null, null, null);
    REQUIRE_FALSE(logic->open_session()->call(Operation::ReadData, "test_probe", d).has_errors());
    return d.get("out").as_string();
  };
  const Value headers = Value::map(Type::string(), {{"team", Value::unknown(Type::string())}});
  CHECK(seen(Value::object(config_type, {{"url", Value::string("http://x")},
                                         {"token", Value::unknown(Type::string())},
                                         {"headers", headers}})) == "headers,token token=nil");
  CHECK(seen(Value::object(config_type, {{"token", Value::string("t")}})) == " token=t");
}

TEST_CASE("an error in configure is a diagnostic naming provider.lua and the line") {
  ProviderDir dir;
  dir.write("provider.lua", R"(local tf = require("luaform")
return tf.provider {
  configure = function()
    error("no credentials")
  end,
}
)");
  auto logic = dir.load();
  auto diags = logic->configure(Value::null(logic->schema().provider.block.implied_type()));
  REQUIRE(diags.items().size() == 1);
  CHECK(diags.items()[0].summary == "no credentials");
  CHECK(diags.items()[0].detail == "provider.lua: configure failed at provider.lua:4.");
}

TEST_CASE("a runtime error in create is a diagnostic with the type, operation, file and line") {
  Store s;
  const Instance& i = *s.item;
  // The store has no "p-" prefix when configure never ran, so concatenating nil fails.
  ProviderDir dir;
  dir.write("resource_item.lua", kItem);
  auto unconfigured = dir.load();
  Value config = i.object({{"name", Value::string("a")}});
  engine::ResourceData d(i.schema, i.null(), config, config);
  auto diags = unconfigured->open_session()->call(Operation::Create, "test_item", d);
  REQUIRE(diags.items().size() == 1);
  CHECK(diags.items()[0].summary.starts_with("attempt to index a nil value"));
  CHECK(diags.items()[0].detail == "test_item: create failed at resource_item.lua:9.");
}

TEST_CASE("error() in delete is a diagnostic with the script's message") {
  Store s;
  const Instance& i = *s.item;
  Value state = i.object({{"id", Value::string("p-stuck")}, {"name", Value::string("stuck")}});
  engine::ResourceData d(i.schema, state, Value::null(i.type), Value::null(i.type));
  auto diags = s.logic->open_session()->call(Operation::Delete, "test_item", d);
  REQUIRE(diags.items().size() == 1);
  CHECK(diags.items()[0].summary == "cannot delete p-stuck");
  CHECK(diags.items()[0].detail == "test_item: delete failed at resource_item.lua:29.");
}

TEST_CASE("an error value that is not a string still becomes a readable diagnostic") {
  ProviderDir dir;
  dir.write("resource_odd.lua", R"(local tf = require("luaform")
local boom = setmetatable({}, { __tostring = function() return "custom error object" end })
return tf.resource {
  schema = {},
  create = function() error(boom) end,
  read = function() error({ code = 1 }) end,
  delete = function() end,
}
)");
  auto logic = dir.load();
  Instance i(*logic, "test_odd");
  engine::ResourceData d(i.schema, i.null(), i.null(), i.null());
  const auto custom = logic->open_session()->call(Operation::Create, "test_odd", d).items()[0];
  CHECK(custom.summary == "custom error object");
  // The message handler notes the line that raised a value naming no place of its own.
  CHECK(custom.detail == "test_odd: create failed at resource_odd.lua:5.");
  CHECK(logic->open_session()->call(Operation::Read, "test_odd", d).items()[0].summary ==
        "(error object is a table value)");
}

TEST_CASE("calling an operation the script does not declare is a clear error") {
  ProviderDir dir;
  dir.write("resource_noupdate.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = {}, create = function() end, read = function() end, delete = function() end,
}
)");
  auto logic = dir.load();
  Instance i(*logic, "test_noupdate");
  engine::ResourceData d(i.schema, i.null(), i.null(), i.null());
  auto diags = logic->open_session()->call(Operation::Update, "test_noupdate", d);
  REQUIRE(diags.has_errors());
  CHECK(diags.items()[0].summary == "resource_noupdate.lua declares no update function");
  CHECK(diags.items()[0].detail == "test_noupdate: update failed in resource_noupdate.lua.");
  CHECK(logic->open_session()->call(Operation::Create, "test_nothere", d).has_errors());
}

TEST_CASE("stop interrupts a running script with \"stopped by StopProvider\"") {
  ProviderDir dir;
  dir.write("resource_spin.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = {},
  create = function(d)
    d:set_id("spinning")
    while true do end
  end,
  read = function() end, delete = function() end,
}
)");
  auto logic = dir.load();
  Instance i(*logic, "test_spin");
  engine::ResourceData d(i.schema, i.null(), i.null(), i.null());
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    logic->stop();
  });
  auto diags = logic->open_session()->call(Operation::Create, "test_spin", d);
  stopper.join();
  REQUIRE(diags.has_errors());
  CHECK(as_raised(diags.items()[0]) == "resource_spin.lua:6: stopped by StopProvider");
  CHECK(d.id() == "spinning");
}

TEST_CASE("a stop ends the calls in flight, and calls after it run as ever") {
  ProviderDir dir;
  dir.write("resource_spin.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = {},
  create = function(d)
    d:set_id("spinning")
    if d:id() == "spinning" then
      local n = 0
      for _ = 1, 200000 do n = n + 1 end  -- long enough to meet a stop that came before it
    end
  end,
  read = function() end, delete = function() end,
}
)");
  auto logic = dir.load();
  Instance i(*logic, "test_spin");
  // As in --debug mode: one Ctrl-C, then the next command.
  logic->stop();
  for (int call = 0; call < 3; ++call) {
    engine::ResourceData d(i.schema, i.null(), i.null(), i.null());
    const auto diags = logic->open_session()->call(Operation::Create, "test_spin", d);
    CHECK_FALSE(diags.has_errors());
    CHECK(d.id() == "spinning");
  }
}

TEST_CASE("an operation running past its timeout is ended with an error saying so") {
  ProviderDir dir;
  dir.write("resource_slow.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = {},
  timeouts = { create = "200ms" },
  create = function(d)
    d:set_id("slow")
    local co = coroutine.wrap(function() while true do end end)
    co()
  end,
  read = function() end, delete = function() end,
}
)");
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  Instance i(*logic, "test_slow");
  engine::ResourceData d(i.schema, i.null(), i.null(), i.null());
  const auto started = std::chrono::steady_clock::now();
  auto diags = logic->open_session()->call(Operation::Create, "test_slow", d);
  const auto took = std::chrono::steady_clock::now() - started;
  REQUIRE(diags.has_errors());
  CHECK(diags.items()[0].summary == "create did not finish within its timeout of 0.2s");
  CHECK(diags.items()[0].detail ==
        "test_slow: create failed at resource_slow.lua:7 (raised again at resource_slow.lua:8).");
  CHECK(d.id() == "slow");
  CHECK(took < std::chrono::seconds(10));  // ended by the deadline, not by the test's patience
}

TEST_CASE("stop also interrupts a loop inside a coroutine") {
  ProviderDir dir;
  dir.write("resource_co.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = {},
  create = function()
    local co = coroutine.wrap(function()
      while true do end
    end)
    co()
  end,
  read = function() end, delete = function() end,
}
)");
  auto logic = dir.load();
  Instance i(*logic, "test_co");
  engine::ResourceData d(i.schema, i.null(), i.null(), i.null());
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    logic->stop();
  });
  auto diags = logic->open_session()->call(Operation::Create, "test_co", d);
  stopper.join();
  REQUIRE(diags.has_errors());
  // coroutine.wrap adds the position of the resume to errors passing through it.
  CHECK(diags.items()[0].summary == "stopped by StopProvider");
  CHECK(diags.items()[0].detail ==
        "test_co: create failed at resource_co.lua:6 (raised again at resource_co.lua:8).");
}

TEST_CASE("calls from many threads at once each get a configured state") {
  ProviderDir dir;
  dir.write("provider.lua", kProvider);
  dir.write("resource_slow.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = { n = tf.number { required = true }, out = tf.string { computed = true } },
  create = function(d, client)
    local start = os.clock()
    while os.clock() - start < 0.02 do end
    d:set_id(client.prefix .. d:get("n"))
    d:set("out", client.prefix)
  end,
  read = function() end, delete = function() end,
}
)");
  auto logic = dir.load();
  Type config_type = logic->schema().provider.block.implied_type();
  REQUIRE_FALSE(
      logic->configure(Value::object(config_type, {{"prefix", Value::string("c-")}})).has_errors());
  Instance i(*logic, "test_slow");
  constexpr int kThreads = 12;
  std::vector<std::string> ids(kThreads);
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> threads;
  for (int n = 0; n < kThreads; ++n) {
    threads.emplace_back([&, n] {
      Value config = i.object({{"n", Value::number(n)}});
      engine::ResourceData d(i.schema, i.null(), config, config);
      errors[n] = all_text(logic->open_session()->call(Operation::Create, "test_slow", d));
      ids[n] = d.id();
    });
  }
  for (auto& t : threads) t.join();
  for (int n = 0; n < kThreads; ++n) {
    CHECK(errors[n].empty());
    CHECK(ids[n] == "c-" + std::to_string(n));
  }
}

TEST_CASE("a new configuration reaches every state before its next call") {
  Store s;
  const Instance& i = *s.item;
  Type config_type = s.logic->schema().provider.block.implied_type();
  REQUIRE_FALSE(s.logic->configure(Value::object(config_type, {{"prefix", Value::string("q-")}}))
                    .has_errors());
  Value config = i.object({{"name", Value::string("a")}});
  engine::ResourceData d(i.schema, i.null(), config, config);
  REQUIRE_FALSE(s.logic->open_session()->call(Operation::Create, "test_item", d).has_errors());
  CHECK(d.id() == "q-a");
}

TEST_CASE("exists returning false before a read removes the object without calling read") {
  ProviderDir dir;
  dir.write("resource_gone.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = { name = tf.string { optional = true } },
  exists = function(d, client) return d:id() ~= "missing" end,
  create = function() end,
  read = function(d) d:set("name", "read ran") end,
  delete = function() end,
}
)");
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  Instance gone(*logic, "test_gone");
  engine::ResourceData missing(gone.schema, gone.object({{"id", engine::Value::string("missing")}}),
                               gone.null(), gone.null());
  REQUIRE_FALSE(
      logic->open_session()->call(engine::Operation::Read, "test_gone", missing).has_errors());
  CHECK(missing.result().is_null());
  engine::ResourceData present(gone.schema, gone.object({{"id", engine::Value::string("here")}}),
                               gone.null(), gone.null());
  REQUIRE_FALSE(
      logic->open_session()->call(engine::Operation::Read, "test_gone", present).has_errors());
  CHECK(present.get("name") == engine::Value::string("read ran"));
}

namespace {

constexpr const char* kFineResource = R"(local tf = require("luaform")
return tf.resource {
  schema = { name = tf.string { optional = true } },
  create = function(d) d:set_id("x") end,
  read = function() end, delete = function() end,
})";

}  // namespace

TEST_CASE("a script whose top level never returns fails to load at the load timeout") {
  ProviderDir dir;
  dir.write("resource_spin.lua", "local n = 0\nwhile true do n = n + 1 end\n");
  dir.write("resource_fine.lua", kFineResource);
  lua::LoadOptions options;
  options.load_timeout = std::chrono::milliseconds(300);
  const auto started = std::chrono::steady_clock::now();
  auto logic = lua::load_provider(dir.scripts(), options);
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(10));
  const std::string errors = all_text(logic->load_diagnostics());
  CHECK(errors.find("resource_spin.lua:2: loading did not finish within") != std::string::npos);
  CHECK(errors.find("LUAFORM_LOAD_TIMEOUT") != std::string::npos);
  // The other scripts load and serve.
  REQUIRE(logic->schema().resources.count("test_fine") == 1);
  Instance fine(*logic, "test_fine");
  engine::ResourceData d(fine.schema, fine.null(), fine.null(), fine.null());
  CHECK_FALSE(logic->open_session()->call(Operation::Create, "test_fine", d).has_errors());
}

TEST_CASE("a stop that comes while the scripts load ends the load; later calls run") {
  ProviderDir dir;
  dir.write("resource_spin.lua", "while true do end\n");
  dir.write("resource_fine.lua", kFineResource);
  lua::LoadOptions options;
  options.stops = std::make_shared<std::atomic<uint64_t>>(0);
  options.load_timeout = std::chrono::minutes(10);
  std::thread stopper([stops = options.stops] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    stops->fetch_add(1);
  });
  const auto started = std::chrono::steady_clock::now();
  auto logic = lua::load_provider(dir.scripts(), options);
  stopper.join();
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(30));
  CHECK(all_text(logic->load_diagnostics()).find("stopped by StopProvider") != std::string::npos);
  Instance fine(*logic, "test_fine");
  engine::ResourceData d(fine.schema, fine.null(), fine.null(), fine.null());
  CHECK_FALSE(logic->open_session()->call(Operation::Create, "test_fine", d).has_errors());
}

TEST_CASE("plan_destroy and a type's deprecation message are read from the definition") {
  ProviderDir dir;
  dir.write("resource_vault.lua", R"(local tf = require("luaform")
return tf.resource {
  deprecated = "use test_safe",
  schema = { name = tf.string { required = true } },
  create = function() end, read = function() end, delete = function() end,
  plan_destroy = function(d) error("keep " .. d:get("name")) end,
}
)");
  dir.write("resource_plain.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = {}, create = function() end, read = function() end, delete = function() end,
}
)");
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  const auto& vault = logic->schema().resources.at("test_vault");
  CHECK(vault.checks_destroy);
  CHECK(vault.block.deprecated == "use test_safe");
  CHECK_FALSE(logic->schema().resources.at("test_plain").checks_destroy);

  Instance i(*logic, "test_vault");
  const Value stored = i.object({{"id", Value::string("v")}, {"name", Value::string("v")}});
  engine::ResourceData d(i.schema, stored, i.null(), i.null());
  const auto diags = logic->open_session()->call(Operation::PlanDestroy, "test_vault", d);
  REQUIRE(diags.has_errors());
  CHECK(diags.items()[0].summary == "keep v");
  CHECK(diags.items()[0].detail == "test_vault: plan_destroy failed at resource_vault.lua:6.");

  CHECK(load_errors_with_fields("deprecated = 3,")
            .find("deprecated must be a message saying what to use instead") != std::string::npos);
}

TEST_CASE("a session keeps one state for all its hooks, and another session gets another") {
  // A counter in each state's globals: two calls on the same state count 1, 2.
  ProviderDir dir;
  dir.write("function_count.lua", R"(local tf = require("luaform")
local calls = 0
return tf.func {
  returns = tf.number,
  run = function()
    calls = calls + 1
    return calls
  end,
}
)");
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  const engine::Function& declared = logic->schema().functions.at("count");
  const auto count = [&](engine::LogicSession& session) {
    return session.call_function("count", declared, {}).result;
  };
  auto first = logic->open_session();
  CHECK(count(*first) == Value::number(1));
  CHECK(count(*first) == Value::number(2));
  // The first session still holds its state: the second borrows a fresh one.
  auto second = logic->open_session();
  CHECK(count(*second) == Value::number(1));
  CHECK(count(*first) == Value::number(3));
}

TEST_CASE("an RPC that began before a reconfiguration hides the new configuration's secrets") {
  ProviderDir dir;
  dir.write("provider.lua", R"(local tf = require("luaform")
return tf.provider {
  schema = { token = tf.string { required = true, sensitive = true } },
  configure = function(config) return { token = config.token } end,
})");
  dir.write("resource_leaky.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = {},
  create = function(d, client) error("refused with token " .. client.token) end,
  read = function() end, delete = function() end,
})");
  auto logic = dir.load();
  REQUIRE(logic->load_diagnostics().empty());
  const Type provider = logic->schema().provider.block.implied_type();
  const auto configure = [&](const std::string& token) {
    REQUIRE(
        !logic->configure(Value::object(provider, {{"token", Value::string(token)}})).has_errors());
  };
  configure("Tok-old-1111");
  // The RPC took the secrets known when it began; a ConfigureProvider comes meanwhile.
  engine::Session session(*logic, std::make_shared<const std::vector<std::string>>(
                                      std::vector<std::string>{"Tok-old-1111"}));
  configure("Tok-new-2222");
  Instance i(*logic, "test_leaky");
  engine::ResourceData d(i.schema, i.null(), i.object({}), i.null());
  const engine::Diagnostics hidden =
      session.secrets().hide(session.call(Operation::Create, "test_leaky", d));
  REQUIRE(hidden.has_errors());
  CHECK(hidden.items()[0].summary == "refused with token ***");
}
