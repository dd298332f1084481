// Every call into the logic, of every kind, runs with the same secrets in scope: the provider
// configuration's and those of the values its RPC carries. Hidden in the diagnostics it
// returns, readable (secrets_in_scope) for the log lines it writes; and configure may replace
// them while other RPCs read them.
#include "host/engine/rules/secret_scope.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

constexpr const char* kToken = "tok-provider-771";
constexpr const char* kPassword = "pw-resource-553";

// Each hook fails quoting what it was given and the provider's token, and records the
// secrets it had in scope (what tf.log hides).
struct LeakyLogic : ScriptedLogic {
  std::string token;
  std::vector<std::vector<std::string>> scopes;

  Diagnostics leak(const std::string& hook, const std::string& given) {
    scopes.push_back(secrets_in_scope());
    Diagnostics diags;
    diags.error(hook + " failed with " + token, "given " + given + "; token " + token);
    return diags;
  }
  Diagnostics configure(const Value& config) override {
    token = config.get_attribute("token").as_string();
    return {};
  }
  std::optional<Value> plan_attribute(const std::string&, const Attribute&, const PlanContext& at,
                                      Diagnostics& diags) override {
    diags.append(leak("plan", at.config.get_attribute("password").as_string()));
    return std::nullopt;
  }
  bool requires_replace(const std::string&, const AttributePath&, const Value& prior, const Value&,
                        const HookObjects&, Diagnostics& diags) override {
    diags.append(leak("requires_replace_if", prior.as_string()));
    return false;
  }
  bool same_value(const std::string&, const AttributePath&, const Value& earlier, const Value&,
                  const HookObjects&, Diagnostics& diags) override {
    diags.append(leak("diff_suppress", earlier.as_string()));
    return false;
  }
  std::optional<Value> upgrade_state(const std::string&, int64_t, const std::string& raw,
                                     const Type&, Diagnostics& diags) override {
    diags.append(leak("upgrade", raw));
    return std::nullopt;
  }
  std::optional<Value> move_state(const std::string&, const MoveSource& source, const Type&,
                                  Diagnostics& diags) override {
    diags.append(leak("move_state", source.raw_json));
    return std::nullopt;
  }
  Diagnostics validate_value(SchemaOwner, const std::string&, const AttributePath&,
                             const Value& value, const HookObjects&) override {
    return value.is_known() && value.type().kind() == TypeKind::String
               ? leak("validate", value.as_string())
               : Diagnostics{};
  }
};

ProviderSchema leaky_schema() {
  ProviderSchema schema;
  Attribute token = attribute("token", Type::string(), false, true, false);
  token.sensitive = true;
  schema.provider.block.attributes = {token};
  Schema resource;
  resource.version = 1;
  Attribute password = attribute("password", Type::string(), false, true, false);
  password.sensitive = true;
  password.has_requires_replace_if = true;
  password.has_equivalence = true;
  password.has_validate = true;
  Attribute planned = attribute("planned", Type::string(), false, false, true);
  planned.has_plan_function = true;
  resource.block.attributes = {attribute("id", Type::string(), false, false, true), password,
                               planned};
  resource.moves_state = true;
  schema.resources["test_leaky"] = resource;
  return schema;
}

Value leaky_object(const Schema& schema, const std::string& password) {
  return Value::object(schema.block.implied_type(), {{"id", Value::string("x")},
                                                     {"password", Value::string(password)},
                                                     {"planned", Value::null(Type::string())}});
}

void check_hidden(const Diagnostics& diags) {
  REQUIRE(diags.has_errors());
  for (const auto& d : diags.items()) {
    const std::string text = d.summary + " " + d.detail;
    INFO(text);
    CHECK(text.find(kToken) == std::string::npos);
    CHECK(text.find(kPassword) == std::string::npos);
    CHECK(text.find("***") != std::string::npos);
  }
}

}  // namespace

TEST_CASE("every kind of call reports and logs with the provider's and the values' secrets") {
  auto logic = std::make_shared<LeakyLogic>();
  logic->declared = leaky_schema();
  ProviderService service(logic);
  const Schema& schema = logic->declared.resources.at("test_leaky");
  const Type provider_type = logic->declared.provider.block.implied_type();
  const Value config = Value::object(provider_type, {{"token", Value::string(kToken)}});
  CHECK_FALSE(service.configure_provider({"1.12", config}).has_errors());

  SUBCASE("plan functions, requires_replace_if and diff_suppress") {
    const Value prior = leaky_object(schema, kPassword);
    const Value changed = leaky_object(schema, std::string(kPassword) + "-new");
    const PlanResponse resp =
        service.plan_resource_change({"test_leaky", prior, changed, changed, {}});
    check_hidden(resp.diagnostics);
    std::set<std::string> hooks;
    for (const auto& d : resp.diagnostics.items()) hooks.insert(d.summary.substr(0, 6));
    CHECK(hooks == std::set<std::string>{"plan f", "requir", "diff_s"});
  }
  SUBCASE("validators") {
    ValidateRequest req;
    req.type_name = "test_leaky";
    req.config = leaky_object(schema, kPassword);
    check_hidden(service.validate_resource_config(req));
    REQUIRE_FALSE(logic->scopes.empty());
    const auto& scope = logic->scopes.back();
    CHECK(std::find(scope.begin(), scope.end(), kToken) != scope.end());
    CHECK(std::find(scope.begin(), scope.end(), kPassword) != scope.end());
  }
  SUBCASE("upgrades, whose stored state is older than the schema") {
    const std::string raw =
        std::string(R"({"id":"x","password":")") + kPassword + R"(","retired":"old"})";
    check_hidden(service.upgrade_resource_state({"test_leaky", 0, raw, {}}).diagnostics);
    const auto& scope = logic->scopes.back();
    CHECK(std::find(scope.begin(), scope.end(), kPassword) != scope.end());
  }
  SUBCASE("moves, from a type of another provider") {
    MoveRequest req;
    req.source = {"registry.opentofu.org/other/thing", "thing_secret", 0,
                  std::string(R"({"password":")") + kPassword + R"("})"};
    req.target_type_name = "test_leaky";
    check_hidden(service.move_resource_state(req).diagnostics);
  }
  CHECK(secrets_in_scope().empty());  // the scopes ended with their RPCs
}

TEST_CASE("scopes nest, and what is added inside ends with the scope") {
  auto provider =
      std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"provider-secret"});
  {
    SecretScope outer(provider);
    outer.add("derived-secret");
    {
      SecretScope inner(nullptr);
      add_secret_in_scope("inner-secret");
      const auto all = secrets_in_scope();
      CHECK(all == std::vector<std::string>{"provider-secret", "derived-secret", "inner-secret"});
    }
    CHECK(secrets_in_scope() == std::vector<std::string>{"provider-secret", "derived-secret"});
  }
  CHECK(secrets_in_scope().empty());
  add_secret_in_scope("nowhere");  // outside every scope: nothing to add it to
  CHECK(secrets_in_scope().empty());
}

TEST_CASE("a scope holds each secret once, however often it is added") {
  SecretScope scope(nullptr);
  for (int i = 0; i < 3; ++i) {
    scope.add("token-1");
    add_secret_in_scope("token-2");
  }
  scope.add("");  // nothing to hide
  CHECK(scope.secrets() == std::vector<std::string>{"token-1", "token-2"});
}

TEST_CASE("a stored state's secrets are found by the schema's names at any depth") {
  Block block;
  Attribute key = attribute("key", Type::string(), false, true, false);
  key.sensitive = true;
  NestedBlock creds;
  creds.type_name = "cred";
  creds.nesting = NestingMode::List;
  creds.block.attributes = {key, attribute("label", Type::string(), false, true, false)};
  block.blocks = {creds};
  Attribute pin = attribute("pin", Type::number(), false, true, false);
  pin.sensitive = true;
  block.attributes = {pin};
  SecretScope scope(nullptr);
  scope.add_json(block, R"({"pin": 4417, "gone": "x",
                            "cred": [{"key": "k-one", "label": "a"}, {"key": "k-two"}]})");
  scope.add_json(block, "not json");
  CHECK(scope.secrets() == std::vector<std::string>{"4417", "k-one", "k-two"});
}

// Three threads reconfigure the provider while six apply a resource whose create fails quoting
// its password: every failure is redacted with the provider's secrets of its moment, which a
// configure replaces meanwhile. Under ASan and TSan (the test command runs both) a list read
// while it is freed is a failure; before the fix it was a heap-use-after-free within seconds.
TEST_CASE("configure replaces the provider's secrets safely while other calls read them") {
  // ScriptedLogic::configure records the value it was given: here under a lock, so that the
  // only unguarded state the threads share is the service's own.
  struct ConcurrentLogic : ScriptedLogic {
    std::mutex mutex;
    Diagnostics configure(const Value& config) override {
      const std::lock_guard<std::mutex> lock(mutex);
      return ScriptedLogic::configure(config);
    }
  };
  auto logic = std::make_shared<ConcurrentLogic>();
  logic->declared = leaky_schema();
  const Schema& schema = logic->declared.resources.at("test_leaky");
  logic->callbacks[Operation::Create] = [](ResourceData& d) {
    Diagnostics diags;
    diags.error("create failed", "the server refused " + d.get("password").as_string());
    return diags;
  };
  ProviderService service(logic);
  const Type provider_type = logic->declared.provider.block.implied_type();
  std::atomic<bool> done{false};
  std::atomic<int> applies{0};
  std::atomic<int> leaks{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; !done; ++i) {
        const std::string token = "token-" + std::to_string(t) + "-" + std::to_string(i);
        const Value config = Value::object(provider_type, {{"token", Value::string(token)}});
        service.configure_provider({"1.12", config});
      }
    });
  }
  const Value planned = leaky_object(schema, kPassword);
  const Value null = Value::null(schema.block.implied_type());
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&] {
      while (!done) {
        const ApplyResponse resp =
            service.apply_resource_change({"test_leaky", null, planned, planned, {}});
        for (const auto& d : resp.diagnostics.items()) {
          if (d.detail.find(kPassword) != std::string::npos) ++leaks;
        }
        ++applies;
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  done = true;
  for (auto& thread : threads) thread.join();
  CHECK(applies > 100);
  CHECK(leaks == 0);
}
