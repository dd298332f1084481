// A ProviderService over the engine's scripted test double, with one resource and one data
// source, so protocol tests exercise real engine answers without Lua.
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

}  // namespace luaform::protocol::testing
