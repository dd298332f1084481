// The native half of the authors' testing kit (`require("luaform_testing")`, lua-sdk): only
// test files run by `--test` can require it, never provider scripts. It runs a provider's
// RPCs the way the CLI would call them, on Lua tables instead of wire values:
//
//   provider(config)   loads the provider's scripts afresh, validates and configures the
//                      provider with `config` (a table, or nil); returns a handle, or nil, and
//                      the diagnostics
//   handle:plan(type, prior, config, private, identity)
//                      PlanResourceChange with the proposed new state the CLI would send;
//                      { planned, requires_replace = { "a.b", ... }, private, identity,
//                      diagnostics }
//   handle:apply(type, prior, planned, config, private, identity)
//                      ApplyResourceChange; { state, private, identity, diagnostics }
//   handle:read(type, state, private, identity)
//                      ReadResource; { state, private, identity, diagnostics }
//   handle:import(type, id, identity)
//                      ImportResourceState, by id or (an import block's) identity;
//                      { imported = { { type, state, private, identity } }, diagnostics }
//   handle:read_data(type, config)
//                      ValidateDataResourceConfig then ReadDataSource; { state, diagnostics }
//   handle:validate(type, config)
//                      ValidateResourceConfig; the diagnostics
//   handle:list(type, config, limit, include_resource)
//                      ValidateListResourceConfig then ListResource; { events = { { identity,
//                      display_name, object, diagnostics } ... }, diagnostics }
//   handle:plan_action(type, config)
//                      ValidateActionConfig then PlanAction; { diagnostics }
//   handle:invoke_action(type, config)
//                      InvokeAction (validated by the plan before); { progress = { message ... },
//                      diagnostics }
//   equivalent(type, applied, imported)
//                      both objects, the imported one with the spellings the resource counts
//                      as the applied ones' (diff_suppress, state_func, zero values) put back
//   write(text)        to standard output
//   environment()      { host = the running binary, directory = the provider's scripts,
//                        name = the provider's name }
//   temp_dir()         a new private directory; remove_tree(path) removes one
//
// Every configuration is checked as the CLI checks it before it is sent (every required
// argument given), then validated by the provider, before it is used; nil for a provider,
// data source, list or action configuration is an empty block. Values are plain tables as the
// scripts' `d:get` gives them: null is nil (absent), an unknown value is tf.unknown.
// Diagnostics are { severity = "error" | "warning", summary, detail, attribute = "disk[0].size" }.
#pragma once

#include <lua.hpp>

#include "host/lua/core/script_set.h"

namespace luaform::lua {

// Makes the module requirable in `L`; `scripts` must outlive the state.
void preload_testing_module(lua_State* L, const ScriptSet* scripts);

}  // namespace luaform::lua
