// Builds engine schemas from the tables the SDK's tf.resource / tf.data_source / tf.provider
// return: { kind = ..., description = ..., schema = { name = <attribute spec>, ... }, ... }.
#pragma once

#include <lua.hpp>

#include "host/engine/schema/schema.h"

namespace luaform::lua {

// Reads the definition table at `index`. `with_id` adds the computed "id" string attribute
// every resource and data source has (declaring "id" is then an error). Runs inside a
// protected call; throws std::runtime_error naming the attribute at fault.
engine::Schema read_schema(lua_State* L, int index, bool with_id);

// Reads the definition table tf.func returns (at `index`): parameters, variadic parameter,
// return type, summary, description. Runs inside a protected call; throws
// std::runtime_error naming the parameter at fault.
engine::Function read_function(lua_State* L, int index);

}  // namespace luaform::lua
