#include "host/lua/testing/testing_module.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "host/engine/rpc/provider_service.h"
#include "host/engine/rpc/session.h"
#include "host/engine/rules/equivalence.h"
#include "host/engine/rules/proposed_new.h"
#include "host/engine/rules/required_arguments.h"
#include "host/engine/rules/zero_values.h"
#include "host/lua/core/frozen_tables.h"
#include "host/lua/core/guarded.h"
#include "host/lua/core/value_conversion.h"
#include "host/lua/provider/lua_provider.h"
#include "host/platform/platform.h"

namespace luaform::lua {
namespace {

namespace fs = std::filesystem;
using engine::Type;
using engine::Value;

constexpr const char* kHandleMetatable = "luaform.testing.provider";

// A configured provider: the service every call of one test's provider goes through.
struct Handle {
  std::shared_ptr<engine::ProviderService> service;
  const engine::ProviderSchema* schema = nullptr;
};

const ScriptSet& scripts_of(lua_State* L) {
  return *static_cast<const ScriptSet*>(lua_touserdata(L, lua_upvalueindex(1)));
}

Handle& check_handle(lua_State* L) {
  return *static_cast<Handle*>(luaL_checkudata(L, 1, kHandleMetatable));
}

const engine::Schema& find(const std::map<std::string, engine::Schema>& schemas,
                           const std::string& kind, const std::string& type_name) {
  auto it = schemas.find(type_name);
  if (it != schemas.end()) return it->second;
  std::string known;
  for (const auto& entry : schemas) known += (known.empty() ? "" : ", ") + entry.first;
  throw std::runtime_error("this provider has no " + kind + " \"" + type_name +
                           "\" (it has: " + (known.empty() ? "none" : known) + ")");
}

// What a method of the handle is called on: the provider and one resource or data source type
// (argument 2), with its schema.
struct Call {
  Handle& handle;
  std::string type_name;
  const engine::Schema& schema;
  Type type;
};

Call call_on(lua_State* L,
             const std::map<std::string, engine::Schema> engine::ProviderSchema::*schemas,
             const std::string& kind) {
  Handle& h = check_handle(L);
  std::string type_name = luaL_checkstring(L, 2);
  const engine::Schema& schema = find(h.schema->*schemas, kind, type_name);
  return Call{h, std::move(type_name), schema, schema.block.implied_type()};
}

Call resource_call(lua_State* L) {
  return call_on(L, &engine::ProviderSchema::resources, "resource");
}

// The table at `index` as a value of `type`; nil is null.
Value pull(lua_State* L, int index, const Type& type, const std::string& what) {
  if (lua_isnoneornil(L, index)) return Value::null(type);
  luaL_checktype(L, index, LUA_TTABLE);
  return to_value(L, index, type, what);
}

// A configuration block's values at `index`: a table, or nil for a block left empty (the CLI
// reads an absent provider block, or an empty `config {}`, as an object of nulls).
Value pull_config(lua_State* L, int index, const Type& type, const std::string& what) {
  if (!lua_isnoneornil(L, index)) return pull(L, index, type, what);
  lua_newtable(L);
  Value config = to_value(L, -1, type, what);
  lua_pop(L, 1);
  return config;
}

// The identity argument at `index` for a resource that may have none.
Value pull_identity(lua_State* L, int index, const engine::Schema& schema,
                    const std::string& type_name) {
  if (!schema.identity || lua_isnoneornil(L, index)) return {};
  return pull(L, index, schema.identity->implied_type(), type_name + " identity");
}

std::string optional_string(lua_State* L, int index) {
  size_t length = 0;
  const char* text = luaL_optlstring(L, index, "", &length);
  return {text, length};
}

void push_diagnostics(lua_State* L, const engine::Diagnostics& diags) {
  lua_createtable(L, static_cast<int>(diags.items().size()), 0);
  lua_Integer i = 0;
  for (const auto& d : diags.items()) {
    lua_createtable(L, 0, 4);
    lua_pushstring(L, d.severity == engine::Severity::Error ? "error" : "warning");
    lua_setfield(L, -2, "severity");
    lua_pushlstring(L, d.summary.data(), d.summary.size());
    lua_setfield(L, -2, "summary");
    lua_pushlstring(L, d.detail.data(), d.detail.size());
    lua_setfield(L, -2, "detail");
    if (!d.path.empty()) {
      lua_pushstring(L, engine::path_to_address(d.path).c_str());
      lua_setfield(L, -2, "attribute");
    }
    lua_rawseti(L, -2, ++i);
  }
}

// Sets field `name` of the table on top to the value (left out when null).
void set_value_field(lua_State* L, const char* name, const Value& v) {
  if (v.is_null()) return;
  push_value(L, v, Unknowns::Marked);
  lua_setfield(L, -2, name);
}

void set_string_field(lua_State* L, const char* name, const std::string& text) {
  lua_pushlstring(L, text.data(), text.size());
  lua_setfield(L, -2, name);
}

void set_identity_field(lua_State* L, const engine::Schema& schema, const Value& identity) {
  if (schema.identity) set_value_field(L, "identity", identity);
}

// Pushes { ..., diagnostics } once the caller has filled in the rest with `fill`.
template <class Fill>
int push_result(lua_State* L, const engine::Diagnostics& diags, Fill&& fill) {
  lua_newtable(L);
  fill();
  push_diagnostics(L, diags);
  lua_setfield(L, -2, "diagnostics");
  return 1;
}

// What the CLI does with a configuration before it plans or configures with it: it reads it with
// the schema, refusing it when a required argument is missing, and only then asks the provider
// to validate it (`validate_rpc`).
template <class Validate>
engine::Diagnostics as_the_cli_validates(const engine::Schema& schema, const Value& config,
                                         Validate&& validate_rpc) {
  engine::Diagnostics diags = engine::check_required_arguments(schema.block, config);
  if (!diags.has_errors()) diags.append(validate_rpc());
  return diags;
}

int provider(lua_State* L) {
  const ScriptSet& scripts = scripts_of(L);
  auto service = std::make_shared<engine::ProviderService>(load_provider(scripts));
  auto schema = service->get_provider_schema();
  engine::Diagnostics diags = service->load_problems();
  if (diags.has_errors() || schema.schema == nullptr) {
    lua_pushnil(L);
    push_diagnostics(L, diags);
    return 2;
  }
  const Type type = schema.schema->provider.block.implied_type();
  engine::ValidateRequest validate;
  validate.config = pull_config(L, 1, type, "provider");
  diags.append(as_the_cli_validates(schema.schema->provider, validate.config,
                                    [&] { return service->validate_provider_config(validate); }));
  if (!diags.has_errors()) {
    diags.append(service->configure_provider({"luaform-test", validate.config}));
  }
  if (diags.has_errors()) {
    lua_pushnil(L);
    push_diagnostics(L, diags);
    return 2;
  }
  auto* handle = static_cast<Handle*>(lua_newuserdatauv(L, sizeof(Handle), 0));
  new (handle) Handle{service, schema.schema};
  luaL_setmetatable(L, kHandleMetatable);
  push_diagnostics(L, diags);
  return 2;
}

int handle_gc(lua_State* L) {
  check_handle(L).~Handle();
  return 0;
}

int validate(lua_State* L) {
  const Call c = resource_call(L);
  engine::ValidateRequest req;
  req.type_name = c.type_name;
  req.config = pull(L, 3, c.type, c.type_name);
  req.write_only_allowed = true;
  push_diagnostics(L, as_the_cli_validates(c.schema, req.config, [&] {
                     return c.handle.service->validate_resource_config(req);
                   }));
  return 1;
}

int plan(lua_State* L) {
  const Call c = resource_call(L);
  const Value prior = pull(L, 3, c.type, c.type_name);
  const Value config = pull(L, 4, c.type, c.type_name);
  engine::PlanRequest req;
  req.type_name = c.type_name;
  req.prior_state = prior;
  req.config = config;
  req.proposed_new_state = engine::proposed_new_state(c.schema.block, prior, config);
  req.prior_private = optional_string(L, 5);
  req.prior_identity = pull_identity(L, 6, c.schema, c.type_name);
  auto resp = c.handle.service->plan_resource_change(req);
  return push_result(L, resp.diagnostics, [&] {
    set_value_field(L, "planned", resp.planned_state);
    set_string_field(L, "private", resp.planned_private);
    set_identity_field(L, c.schema, resp.planned_identity);
    lua_createtable(L, static_cast<int>(resp.requires_replace.size()), 0);
    lua_Integer i = 0;
    for (const auto& path : resp.requires_replace) {
      lua_pushstring(L, engine::path_to_address(path).c_str());
      lua_rawseti(L, -2, ++i);
    }
    lua_setfield(L, -2, "requires_replace");
  });
}

int apply(lua_State* L) {
  const Call c = resource_call(L);
  engine::ApplyRequest req;
  req.type_name = c.type_name;
  req.prior_state = pull(L, 3, c.type, c.type_name);
  req.planned_state = pull(L, 4, c.type, c.type_name);
  req.config = pull(L, 5, c.type, c.type_name);
  req.planned_private = optional_string(L, 6);
  req.planned_identity = pull_identity(L, 7, c.schema, c.type_name);
  auto resp = c.handle.service->apply_resource_change(req);
  return push_result(L, resp.diagnostics, [&] {
    set_value_field(L, "state", resp.new_state);
    set_string_field(L, "private", resp.private_data);
    set_identity_field(L, c.schema, resp.new_identity);
  });
}

int read(lua_State* L) {
  const Call c = resource_call(L);
  engine::ReadRequest req;
  req.type_name = c.type_name;
  req.current_state = pull(L, 3, c.type, c.type_name);
  req.private_data = optional_string(L, 4);
  req.current_identity = pull_identity(L, 5, c.schema, c.type_name);
  auto resp = c.handle.service->read_resource(req);
  return push_result(L, resp.diagnostics, [&] {
    set_value_field(L, "state", resp.new_state);
    set_string_field(L, "private", resp.private_data);
    set_identity_field(L, c.schema, resp.new_identity);
  });
}

int import(lua_State* L) {
  const Call c = resource_call(L);
  const Handle& h = c.handle;
  engine::ImportRequest req;
  req.type_name = c.type_name;
  req.id = optional_string(L, 3);
  // An import block's `identity = { ... }` instead of an id.
  if (!lua_isnoneornil(L, 4)) {
    if (!c.schema.identity) {
      throw std::runtime_error(c.type_name + " has no identity to import by");
    }
    req.identity = pull_identity(L, 4, c.schema, c.type_name);
  }
  auto resp = h.service->import_resource_state(req);
  return push_result(L, resp.diagnostics, [&] {
    lua_createtable(L, static_cast<int>(resp.imported.size()), 0);
    lua_Integer i = 0;
    for (const auto& imported : resp.imported) {
      const auto& schema = find(h.schema->resources, "resource", imported.type_name);
      lua_newtable(L);
      set_string_field(L, "type", imported.type_name);
      set_value_field(L, "state", imported.state);
      set_string_field(L, "private", imported.private_data);
      set_identity_field(L, schema, imported.identity);
      lua_rawseti(L, -2, ++i);
    }
    lua_setfield(L, -2, "imported");
  });
}

int read_data(lua_State* L) {
  const Call c = call_on(L, &engine::ProviderSchema::data_sources, "data source");
  engine::ValidateRequest validate;
  validate.type_name = c.type_name;
  validate.config = pull_config(L, 3, c.type, c.type_name);
  engine::Diagnostics diags = as_the_cli_validates(c.schema, validate.config, [&] {
    return c.handle.service->validate_data_source_config(validate);
  });
  engine::ReadDataResponse resp;
  if (!diags.has_errors())
    resp = c.handle.service->read_data_source({c.type_name, validate.config});
  diags.append(resp.diagnostics);
  return push_result(L, diags, [&] { set_value_field(L, "state", resp.state); });
}

// ListResource as `terraform query` runs a list block: the filters validated, then the listing
// (limit and include_resource as the block says); { events = { { identity, display_name,
// object, diagnostics } ... }, diagnostics = validation's and every event's }.
int list(lua_State* L) {
  const Call c = call_on(L, &engine::ProviderSchema::list_resources, "list resource");
  const engine::Schema& resource = find(c.handle.schema->resources, "resource", c.type_name);
  engine::ListRequest req;
  req.type_name = c.type_name;
  req.config = pull_config(L, 3, c.type, c.type_name);
  req.limit = luaL_optinteger(L, 4, 100);
  req.include_resource_object = lua_toboolean(L, 5) != 0;
  engine::ValidateRequest validate;
  validate.type_name = c.type_name;
  validate.config = req.config;
  engine::Diagnostics diags = as_the_cli_validates(c.schema, req.config, [&] {
    return c.handle.service->validate_list_resource_config(validate);
  });
  // The sink runs inside the provider's own state: the events are pushed once it is done.
  std::vector<engine::ListEvent> events;
  if (!diags.has_errors()) {
    c.handle.service->list_resource(req, [&](const engine::ListEvent& event) {
      events.push_back(event);
      return true;
    });
  }
  for (const auto& event : events) diags.append(event.diagnostics);
  return push_result(L, diags, [&] {
    lua_createtable(L, static_cast<int>(events.size()), 0);
    lua_Integer i = 0;
    for (const auto& event : events) {
      lua_createtable(L, 0, 4);
      set_identity_field(L, resource, event.identity);
      if (!event.display_name.empty()) set_string_field(L, "display_name", event.display_name);
      set_value_field(L, "object", event.resource_object);
      push_diagnostics(L, event.diagnostics);
      lua_setfield(L, -2, "diagnostics");
      lua_rawseti(L, -2, ++i);
    }
    lua_setfield(L, -2, "events");
  });
}

// An action's configuration as the CLI reads it: validated, or nullopt with why in `diags`.
std::optional<Value> action_config(lua_State* L, const Call& c, engine::Diagnostics& diags) {
  engine::ValidateRequest validate;
  validate.type_name = c.type_name;
  validate.config = pull_config(L, 3, c.type, c.type_name);
  diags.append(as_the_cli_validates(c.schema, validate.config, [&] {
    return c.handle.service->validate_action_config(validate);
  }));
  if (diags.has_errors()) return std::nullopt;
  return validate.config;
}

Call action_call(lua_State* L) {
  return call_on(L, &engine::ProviderSchema::actions, "action");
}

// PlanAction, after validation: { diagnostics }.
int plan_action(lua_State* L) {
  const Call c = action_call(L);
  engine::Diagnostics diags;
  if (auto config = action_config(L, c, diags)) {
    diags.append(c.handle.service->plan_action({c.type_name, *config}).diagnostics);
  }
  return push_result(L, diags, [] {});
}

// InvokeAction (the plan before it validated the configuration): { progress = { message ... },
// diagnostics }.
int invoke_action(lua_State* L) {
  const Call c = action_call(L);
  engine::Diagnostics diags;
  std::vector<std::string> progress;
  const engine::ActionRequest req{c.type_name, pull_config(L, 3, c.type, c.type_name)};
  c.handle.service->invoke_action(req, [&](const engine::ActionEvent& e) {
    if (e.completed) {
      diags.append(e.diagnostics);
    } else {
      progress.push_back(e.progress);
    }
  });
  return push_result(L, diags, [&] {
    lua_createtable(L, static_cast<int>(progress.size()), 0);
    lua_Integer i = 0;
    for (const auto& message : progress) {
      lua_pushlstring(L, message.data(), message.size());
      lua_rawseti(L, -2, ++i);
    }
    lua_setfield(L, -2, "progress");
  });
}

// ConfigureStateStore with the store's configuration (argument 3), validated first, as
// `terraform init` does: { chunk_size, diagnostics }.
int configure_store(lua_State* L) {
  const Call c = call_on(L, &engine::ProviderSchema::state_stores, "state store");
  engine::ValidateRequest validate;
  validate.type_name = c.type_name;
  validate.config = pull_config(L, 3, c.type, c.type_name);
  engine::Diagnostics diags = as_the_cli_validates(c.schema, validate.config, [&] {
    return c.handle.service->validate_state_store_config(validate);
  });
  engine::ConfigureStoreResponse resp;
  if (!diags.has_errors()) {
    resp = c.handle.service->configure_state_store(
        {c.type_name, validate.config, engine::kDefaultStateChunkSize});
    diags.append(resp.diagnostics);
  }
  return push_result(L, diags, [&] {
    lua_pushinteger(L, resp.chunk_size);
    lua_setfield(L, -2, "chunk_size");
  });
}

// One state RPC on a configured store (argument 3: "states", "read", "write", "delete", "lock"
// or "unlock"; 4: the state's name; 5: the state to write, the lock's operation or the lock id
// to release; 6: the chunk size a write streams in), made as the CLI makes it: a write goes in
// chunks and a read is joined from them. { states | state | lock_id, diagnostics }.
int store(lua_State* L) {
  const Call c = call_on(L, &engine::ProviderSchema::state_stores, "state store");
  const std::string op = luaL_checkstring(L, 3);
  const engine::StateRequest state{c.type_name, luaL_optstring(L, 4, "")};
  engine::ProviderService& service = *c.handle.service;
  if (op == "states") {
    const engine::GetStatesResponse resp = service.get_states(c.type_name);
    return push_result(L, resp.diagnostics, [&] {
      lua_createtable(L, static_cast<int>(resp.state_ids.size()), 0);
      lua_Integer i = 0;
      for (const std::string& id : resp.state_ids) {
        lua_pushlstring(L, id.data(), id.size());
        lua_rawseti(L, -2, ++i);
      }
      lua_setfield(L, -2, "states");
    });
  }
  if (op == "read") {
    const engine::ReadStateResponse resp = service.read_state_bytes(state);
    std::string joined;
    for (const engine::StateChunkRange& chunk : resp.chunks) {
      joined += resp.state.substr(static_cast<size_t>(chunk.start),
                                  static_cast<size_t>(chunk.end - chunk.start + 1));
    }
    return push_result(L, resp.diagnostics, [&] {
      if (!resp.chunks.empty()) set_string_field(L, "state", joined);
    });
  }
  if (op == "write") {
    size_t size = 0;
    const char* bytes = luaL_checklstring(L, 5, &size);
    const std::string written(bytes, size);
    engine::WriteStateRequest req{state, {}};
    for (const engine::StateChunkRange& range :
         engine::chunk_ranges(static_cast<int64_t>(size), luaL_checkinteger(L, 6))) {
      req.chunks.push_back({written.substr(static_cast<size_t>(range.start),
                                           static_cast<size_t>(range.end - range.start + 1)),
                            range});
    }
    return push_result(L, service.write_state_bytes(std::move(req)), [] {});
  }
  if (op == "delete") return push_result(L, service.delete_state(state), [] {});
  if (op == "lock") {
    const engine::LockStateResponse resp =
        service.lock_state({state, luaL_optstring(L, 5, "OperationTypeApply")});
    return push_result(L, resp.diagnostics, [&] {
      if (!resp.lock_id.empty()) set_string_field(L, "lock_id", resp.lock_id);
    });
  }
  if (op == "unlock") {
    return push_result(L, service.unlock_state({state, luaL_checkstring(L, 5)}), [] {});
  }
  return luaL_error(L, "store: unknown operation \"%s\"", op.c_str());
}

// The attributes of an imported object (argument 3) beside those of the applied one (argument
// 2), both of resource `type` (argument 1), as a plan would compare them: a value of the
// imported that the resource's diff_suppress or state_func counts as the same as the applied
// one (a set element whose element_state_func form is an applied element's), or that is only
// the other spelling of a zero value ("" for null), takes the applied spelling. Returns both as
// tables of the schema's types, or nothing when the provider has no such resource (a type of
// another provider). Loads the scripts without configuring them: diff_suppress and state_func never
// see the client.
int equivalent(lua_State* L) {
  const std::string type_name = luaL_checkstring(L, 1);
  auto logic = load_provider(scripts_of(L));
  engine::ProviderService service(logic);
  const auto served = service.get_provider_schema();
  if (served.schema == nullptr) return 0;
  const auto found = served.schema->resources.find(type_name);
  if (found == served.schema->resources.end()) return 0;
  const engine::Block& block = found->second.block;
  const Type type = block.implied_type();
  const Value applied = pull(L, 2, type, type_name);
  const Value read = pull(L, 3, type, type_name);
  engine::Session session(*logic);
  engine::Diagnostics diags;
  Value imported =
      engine::keep_equivalent(block, applied, read, session.equivalence(type_name, read, diags));
  imported = engine::keep_zero_spelling(block, applied, imported);
  // Computed values and blocks too: the plan never compares the first, and pairs a block left
  // out with an empty list, but here they are read back, and null is still the same as its
  // zero value.
  if (!applied.is_null() && !imported.is_null()) {
    for (const auto& [name, attribute_type] : type.attributes()) {
      const Value a = applied.get_attribute(name);
      if (engine::same_but_for_zero(a, imported.get_attribute(name))) {
        imported = imported.with_attribute(name, a);
      }
    }
  }
  if (diags.has_errors()) {
    std::string problems;
    for (const auto& d : diags.items()) problems += "\n" + d.summary + ": " + d.detail;
    throw std::runtime_error("comparing the imported " + type_name + " failed:" + problems);
  }
  push_value(L, applied, Unknowns::Marked);
  push_value(L, imported, Unknowns::Marked);
  return 2;
}

int write(lua_State* L) {
  size_t length = 0;
  const char* text = luaL_checklstring(L, 1, &length);
  std::cout.write(text, static_cast<std::streamsize>(length));
  std::cout.flush();
  return 0;
}

int environment(lua_State* L) {
  const ScriptSet& scripts = scripts_of(L);
  const fs::path host = platform::executable_path();
  if (host.empty()) throw std::runtime_error("cannot find the running binary");
  lua_createtable(L, 0, 3);
  set_string_field(L, "host", host.string());
  set_string_field(L, "directory", fs::absolute(scripts.directory).string());
  set_string_field(L, "name", scripts.provider_name);
  return 1;
}

int temp_dir(lua_State* L) {
  // create_directory is atomic: a name another process took is simply tried again.
  static thread_local std::mt19937_64 random{std::random_device{}()};
  const fs::path parent = fs::temp_directory_path();
  for (int attempt = 0; attempt < 100; ++attempt) {
    char name[32];
    std::snprintf(name, sizeof name, "luaform-test-%012llx",
                  static_cast<unsigned long long>(random() & 0xffffffffffffULL));
    std::error_code ec;
    if (fs::create_directory(parent / name, ec)) {
      fs::permissions(parent / name, fs::perms::owner_all, ec);
      lua_pushstring(L, (parent / name).string().c_str());
      return 1;
    }
  }
  throw std::runtime_error("cannot create a temporary directory in " + parent.string());
}

int remove_tree(lua_State* L) {
  std::error_code ec;
  fs::remove_all(luaL_checkstring(L, 1), ec);
  if (ec)
    throw std::runtime_error(std::string("cannot remove ") + lua_tostring(L, 1) + ": " +
                             ec.message());
  return 0;
}

int open_testing_module(lua_State* L) {
  if (luaL_newmetatable(L, kHandleMetatable) != 0) {
    const luaL_Reg methods[] = {
        {"validate", guarded<validate>},
        {"plan", guarded<plan>},
        {"apply", guarded<apply>},
        {"read", guarded<read>},
        {"import", guarded<import>},
        {"read_data", guarded<read_data>},
        {"list", guarded<list>},
        {"plan_action", guarded<plan_action>},
        {"invoke_action", guarded<invoke_action>},
        {"configure_store", guarded<configure_store>},
        {"store", guarded<store>},
        {nullptr, nullptr},
    };
    luaL_newlib(L, methods);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, guarded<handle_gc>);
    lua_setfield(L, -2, "__gc");
    seal_metatable(L, -1, kHandleMetatable);
  }
  lua_pop(L, 1);
  const luaL_Reg functions[] = {
      {"write", guarded<write>},
      {"temp_dir", guarded<temp_dir>},
      {"remove_tree", guarded<remove_tree>},
      {nullptr, nullptr},
  };
  luaL_newlib(L, functions);
  // The functions that need the scripts share the module's upvalue.
  const luaL_Reg with_scripts[] = {
      {"provider", guarded<provider>},
      {"environment", guarded<environment>},
      {"equivalent", guarded<equivalent>},
      {nullptr, nullptr},
  };
  lua_pushvalue(L, lua_upvalueindex(1));
  luaL_setfuncs(L, with_scripts, 1);
  return 1;
}

}  // namespace

void preload_testing_module(lua_State* L, const ScriptSet* scripts) {
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  lua_pushlightuserdata(L, const_cast<ScriptSet*>(scripts));
  lua_pushcclosure(L, guarded<open_testing_module>, 1);
  lua_setfield(L, -2, "luaform_testing_native");
  lua_pop(L, 1);
}

}  // namespace luaform::lua
