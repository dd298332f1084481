// ProviderServices over the engine's scripted test double, so protocol tests exercise real engine
// answers without Lua: a small one (one resource, one data source), and a logic with a type of
// every kind for the tests that reach each RPC.
#pragma once

#include <memory>

#include "host/engine/rpc/provider_service.h"
#include "tests/unit/engine/scripted_logic.h"

namespace luaform::protocol::testing {

inline std::shared_ptr<engine::ProviderService> file_provider() {
  auto logic = std::make_shared<engine::testing::ScriptedLogic>();
  logic->declared.resources["test_file"] = engine::testing::file_schema();
  engine::Schema data;
  data.block.attributes = {
      engine::testing::attribute("path", engine::Type::string(), true, false, false)};
  logic->declared.data_sources["test_stat"] = data;
  return std::make_shared<engine::ProviderService>(logic);
}

// A logic declaring one type of every kind, whose callbacks each test sets:
// - the provider block: `endpoint` (optional), which has validate functions;
// - resource test_file (file_schema()) with an identity of its path, able to take the states
//   of other types (a `moved` block);
// - data source test_stat: `path` (required), `size` (computed number);
// - ephemeral resource test_token: `scope` (required), `value` (computed);
// - the list resource of test_file: `prefix` (optional);
// - action test_notify: `message` (required);
// - state store test_store, with no arguments;
// - function double(n number) number.
inline std::shared_ptr<engine::testing::ScriptedLogic> every_kind_logic() {
  using engine::Type;
  using engine::testing::attribute;
  auto logic = std::make_shared<engine::testing::ScriptedLogic>();
  engine::ProviderSchema& declared = logic->declared;

  engine::Attribute endpoint = attribute("endpoint", Type::string(), false, true, false);
  endpoint.has_validate = true;
  declared.provider.block.attributes = {endpoint};

  engine::Schema file = engine::testing::file_schema();
  engine::IdentityAttribute path;
  path.name = "path";
  path.type = Type::string();
  path.required_for_import = true;
  file.identity = engine::ResourceIdentity{0, {path}, false};
  file.moves_state = true;
  declared.resources["test_file"] = file;

  engine::Schema stat;
  stat.block.attributes = {attribute("path", Type::string(), true, false, false),
                           attribute("size", Type::number(), false, false, true)};
  declared.data_sources["test_stat"] = stat;

  engine::Schema token;
  token.block.attributes = {attribute("scope", Type::string(), true, false, false),
                            attribute("value", Type::string(), false, false, true)};
  declared.ephemeral_resources["test_token"] = token;

  engine::Schema filters;
  filters.block.attributes = {attribute("prefix", Type::string(), false, true, false)};
  declared.list_resources["test_file"] = filters;

  engine::Schema notify;
  notify.block.attributes = {attribute("message", Type::string(), true, false, false)};
  declared.actions["test_notify"] = notify;

  declared.state_stores["test_store"] = engine::Schema{};

  engine::Function twice;
  engine::FunctionParameter n;
  n.name = "n";
  n.type = Type::number();
  twice.parameters = {n};
  twice.returns = Type::number();
  twice.summary = "Doubles a number";
  declared.functions["double"] = twice;
  return logic;
}

}  // namespace luaform::protocol::testing
