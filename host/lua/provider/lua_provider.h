// Builds the engine's ProviderLogic from a provider's Lua scripts.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>

#include "host/engine/rpc/provider_logic.h"
#include "host/lua/core/script_set.h"

namespace luaform::lua {

struct LoadOptions {
  // Counts StopProvider calls. Shared with whoever must stop the provider before it has
  // finished loading (the server, for a StopProvider that arrives meanwhile): a stop then ends
  // the scripts still loading too. Null: the provider keeps a counter of its own.
  std::shared_ptr<std::atomic<uint64_t>> stops;
  // How long the scripts of one Lua state may take to load (a top level that never returns
  // is ended and reported); LUAFORM_LOAD_TIMEOUT in the environment of a served provider.
  std::chrono::milliseconds load_timeout = kDefaultLoadTimeout;

  static constexpr std::chrono::milliseconds kDefaultLoadTimeout{10000};
};

// Never throws and never fails: scripts that cannot be loaded are reported through
// load_diagnostics() (naming file and line), and the rest of the provider still works.
std::shared_ptr<engine::ProviderLogic> load_provider(const ScriptSet& scripts,
                                                     LoadOptions options = {});

}  // namespace luaform::lua
