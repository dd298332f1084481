// The ProviderLogic the engine sees for a directory of Lua scripts: schema and load problems
// from the first state, calls served from a pool of identically loaded and configured states.
#include "host/lua/provider/lua_provider.h"

#include <atomic>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <set>

#include "host/engine/rules/secret_scope.h"
#include "host/engine/rules/secrets.h"
#include "host/lua/provider/sdk_spelling.h"
#include "host/lua/provider/state_pool.h"

namespace luaform::lua {
namespace {

using engine::Diagnostics;

// The CLI runs 10 operations at a time by default (-parallelism), and each one holds a state
// for as long as its API calls take, so fewer than 10 states made slow creates queue (the
// benchmark's scenario 4 took 1.4x the ideal with 8). States are made only when calls overlap,
// so the bound matters only for a larger -parallelism; each idle state costs a few hundred KiB.
constexpr size_t kMaxStates = 16;

// `scripts` without the files in `failed`.
ScriptSet without(ScriptSet scripts, const std::set<std::filesystem::path>& failed) {
  if (scripts.provider_script && failed.contains(*scripts.provider_script)) {
    scripts.provider_script.reset();
  }
  for (auto* kind :
       {&scripts.resources, &scripts.data_sources, &scripts.ephemeral_resources, &scripts.functions,
        &scripts.list_resources, &scripts.actions, &scripts.state_stores}) {
    std::erase_if(*kind, [&](const auto& entry) { return failed.contains(entry.second); });
  }
  return scripts;
}

class LuaSession;

class LuaProvider : public engine::ProviderLogic {
 public:
  LuaProvider(ScriptSet scripts, LoadOptions options)
      : scripts_(std::move(scripts)),
        stops_(options.stops ? std::move(options.stops)
                             : std::make_shared<std::atomic<uint64_t>>(0)),
        load_timeout_(options.load_timeout) {
    std::unique_ptr<ScriptState> first;
    try {
      first = std::make_unique<ScriptState>(scripts_, stops_.get(), &report_, load_timeout_,
                                            &report_.schema);
    } catch (const std::exception& e) {
      report_.diagnostics.error("Cannot start Lua", e.what());
    }
    // Later states leave out what failed in the first: a script that ran into the load
    // timeout would otherwise cost every new state that long.
    later_scripts_ = without(scripts_, report_.failed);
    pool_ = std::make_unique<StatePool>(
        [this] {
          return std::make_unique<ScriptState>(later_scripts_, stops_.get(), nullptr, load_timeout_,
                                               &report_.schema);
        },
        kMaxStates, std::move(first));
  }

  const Diagnostics& load_diagnostics() const override { return report_.diagnostics; }
  std::vector<std::string> load_notes() const override { return report_.notes; }
  const engine::ProviderSchema& schema() const override { return report_.schema; }

  Diagnostics configure(const engine::Value& config) override {
    {
      std::lock_guard<std::mutex> lock(config_mutex_);
      config_ = config;
      ++generation_;
    }
    Diagnostics diags;
    try {
      auto state = pool_->borrow();
      diags.append(ensure_configured(*state));
    } catch (const std::exception& e) {
      diags.error("Provider configuration failed", e.what());
    }
    return diags;
  }

  std::unique_ptr<engine::LogicSession> open_session() override;

  // Ends the calls in flight; calls that begin later run (in --debug mode the provider lives on
  // through many CLI commands, each of which may be interrupted).
  void stop() override { stops_->fetch_add(1); }

 private:
  friend class LuaSession;

  // Every state runs configure with the latest configuration before its next call, so a state
  // created after ConfigureProvider has the same client as the first.
  Diagnostics ensure_configured(ScriptState& state) {
    engine::Value config;
    uint64_t generation = 0;
    {
      std::lock_guard<std::mutex> lock(config_mutex_);
      generation = generation_;
      config = config_;
    }
    if (generation == 0 || state.configured_generation == generation) return {};
    Diagnostics diags =
        state.configure(config, engine::sensitive_texts(report_.schema.provider.block, config));
    if (!diags.has_errors()) state.configured_generation = generation;
    return diags;
  }

  const ScriptSet scripts_;
  ScriptSet later_scripts_;  // scripts_ without those the first state could not load
  const std::shared_ptr<std::atomic<uint64_t>> stops_;
  const std::chrono::milliseconds load_timeout_;
  LoadReport report_;
  std::mutex config_mutex_;
  engine::Value config_;
  uint64_t generation_ = 0;  // 0: configure has not been called
  std::unique_ptr<StatePool> pool_;
};

// One RPC's hooks, all on one state borrowed from the pool at the first hook and given back
// when the RPC ends. Hooks that may use the client (plans, CRUD, upgrades, moves, listings,
// actions) run on a state configured with the latest configuration; validation, diff_suppress
// and functions run on the state as it is (the CLI calls them before, or without, configure).
class LuaSession : public engine::LogicSession {
 public:
  explicit LuaSession(LuaProvider& provider) : provider_(provider) {}

  Diagnostics validate_value(engine::SchemaOwner owner, const std::string& type_name,
                             const engine::AttributePath& path, const engine::Value& value,
                             const engine::HookObjects& around) override {
    return state().validate(owner, type_name, path, value, around);
  }

  bool same_value(const std::string& type_name, const engine::AttributePath& path,
                  const engine::Value& earlier, const engine::Value& later,
                  const engine::HookObjects& around, Diagnostics& diags) override {
    return state().same_value(type_name, path, earlier, later, around, diags);
  }

  std::optional<engine::Value::List> normal_forms(const std::string& type_name,
                                                  const engine::AttributePath& path,
                                                  const engine::Value::List& elements,
                                                  const engine::HookObjects& around,
                                                  Diagnostics& diags) override {
    return state().normal_forms(type_name, path, elements, around, diags);
  }

  std::optional<engine::Value> plan_attribute(const std::string& type_name,
                                              const engine::Attribute& attribute,
                                              const engine::PlanContext& at,
                                              Diagnostics& diags) override {
    ScriptState* configured = configured_state(diags);
    if (configured == nullptr) return std::nullopt;
    return configured->plan_attribute(type_name, attribute, at, diags);
  }

  bool requires_replace(const std::string& type_name, const engine::AttributePath& path,
                        const engine::Value& prior, const engine::Value& planned,
                        const engine::HookObjects& around, Diagnostics& diags) override {
    ScriptState* configured = configured_state(diags);
    if (configured == nullptr) return false;
    return configured->requires_replace(type_name, path, prior, planned, around, diags);
  }

  // Upgrade functions may call the API (helper/schema passes them the client too); before
  // ConfigureProvider they get nil.
  std::optional<engine::Value> upgrade_state(const std::string& type_name, int64_t from_version,
                                             const std::string& raw_json,
                                             const engine::Type& current,
                                             Diagnostics& diags) override {
    const auto& resources = provider_.report_.schema.resources;
    auto schema = resources.find(type_name);
    if (schema == resources.end()) return std::nullopt;
    ScriptState* configured = configured_state(diags);
    if (configured == nullptr) return std::nullopt;
    return configured->upgrade(ScriptState::Stored::State, type_name, from_version,
                               schema->second.version, raw_json, current, diags);
  }

  std::optional<engine::Value> upgrade_identity(const std::string& type_name, int64_t from_version,
                                                const std::string& raw_json,
                                                const engine::Type& current,
                                                Diagnostics& diags) override {
    const auto& resources = provider_.report_.schema.resources;
    auto schema = resources.find(type_name);
    if (schema == resources.end() || !schema->second.identity) return std::nullopt;
    ScriptState* configured = configured_state(diags);
    if (configured == nullptr) return std::nullopt;
    return configured->upgrade(ScriptState::Stored::Identity, type_name, from_version,
                               schema->second.identity->version, raw_json, current, diags);
  }

  // Like upgrades, moves may come before ConfigureProvider: move_state then gets a nil client.
  std::optional<engine::Value> move_state(const std::string& target_type,
                                          const engine::MoveSource& source,
                                          const engine::Type& target, Diagnostics& diags) override {
    ScriptState* configured = configured_state(diags);
    if (configured == nullptr) return std::nullopt;
    return configured->move_state(target_type, source, target, diags);
  }

  Diagnostics call(engine::Operation op, const std::string& type_name,
                   engine::ResourceData& d) override {
    return with_client([&](ScriptState& state) { return state.call(op, type_name, d); });
  }

  // A listing runs the reads of listed objects on its own state too.
  Diagnostics list(const std::string& type_name, const engine::Schema& resource,
                   const engine::Value& config, const engine::ListOptions& options,
                   const engine::ListEmit& emit) override {
    return with_client(
        [&](ScriptState& state) { return state.list(type_name, resource, config, options, emit); });
  }

  Diagnostics plan_action(const std::string& type_name, const engine::Value& config) override {
    return with_client([&](ScriptState& state) { return state.plan_action(type_name, config); });
  }

  Diagnostics invoke_action(const std::string& type_name, const engine::Value& config,
                            const engine::ActionProgress& progress) override {
    return with_client(
        [&](ScriptState& state) { return state.invoke_action(type_name, config, progress); });
  }

  Diagnostics call_store(const std::string& store_type, const engine::Value& config,
                         engine::StoreCall& call) override {
    return with_client(
        [&](ScriptState& state) { return state.call_store(store_type, config, call); });
  }

  engine::FunctionOutcome call_function(const std::string& name, const engine::Function& declared,
                                        const std::vector<engine::Value>& arguments) override {
    return state().call_function(name, arguments, declared);
  }

 private:
  // The session's state, borrowed at its first use.
  ScriptState& state() {
    if (!lease_) lease_.emplace(provider_.pool_->borrow());
    return **lease_;
  }
  // The session's state configured with the latest configuration (a no-op when it already is),
  // or null with why it could not be in `diags`.
  // The configuration's secrets join the RPC's: a ConfigureProvider that came after the RPC
  // began (and took the secrets it knew then) has given this state a new token, which the
  // RPC's diagnostics must hide too.
  ScriptState* configured_state(Diagnostics& diags) {
    ScriptState& borrowed = state();
    Diagnostics configured = provider_.ensure_configured(borrowed);
    const bool failed = configured.has_errors();
    diags.append(configured);
    if (failed) return nullptr;
    if (secrets_of_generation_ != borrowed.configured_generation) {
      for (const std::string& secret : borrowed.provider_secrets()) {
        engine::add_secret_in_scope(secret);
      }
      secrets_of_generation_ = borrowed.configured_generation;
    }
    return &borrowed;
  }

  // `run` on the configured state, or why the state could not be configured.
  template <class Run>
  Diagnostics with_client(Run&& run) {
    Diagnostics diags;
    ScriptState* configured = configured_state(diags);
    return configured == nullptr ? diags : run(*configured);
  }

  LuaProvider& provider_;
  std::optional<StatePool::Lease> lease_;
  uint64_t secrets_of_generation_ = 0;  // whose secrets the RPC's scope holds already
};

std::unique_ptr<engine::LogicSession> LuaProvider::open_session() {
  return std::make_unique<LuaSession>(*this);
}

}  // namespace

std::shared_ptr<engine::ProviderLogic> load_provider(const ScriptSet& scripts,
                                                     LoadOptions options) {
  // The engine's messages show authors the SDK's spelling of what they ask for.
  engine::install_spelling(sdk_spelling);
  return std::make_shared<LuaProvider>(scripts, std::move(options));
}

}  // namespace luaform::lua
