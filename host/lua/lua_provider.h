// Builds the engine's ProviderLogic from a provider's Lua scripts.
#pragma once

#include <memory>

#include "host/engine/provider_logic.h"
#include "host/lua/script_set.h"

namespace luaform::lua {

// Never throws and never fails: scripts that cannot be loaded are reported through
// load_diagnostics() (naming file and line), and the rest of the provider still works.
std::shared_ptr<engine::ProviderLogic> load_provider(const ScriptSet& scripts);

}  // namespace luaform::lua
