// engine::Value <-> plain Lua values. Lists and sets become arrays, maps and objects
// string-keyed tables; Lua values are converted towards a declared engine::Type, with the
// weak typing helper/schema allows (a number for a string attribute becomes its text).
#pragma once

#include <lua.hpp>

#include <stdexcept>
#include <string>

#include "host/engine/value/type.h"
#include "host/engine/value/value.h"

namespace luaform::lua {

// A Lua value that does not fit the declared type; the message names the attribute.
class ConversionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// How push_value shows values that are not known yet.
enum class Unknowns {
  Nil,     // as nil, like null (resources: d:get of an unknown value gives the zero value)
  Marked,  // as tf.unknown, at any depth (functions declared with allow_unknown)
};

// Pushes `v`. Null pushes nil, and null elements inside collections are left out; unknown
// values as `unknowns` says. Numbers that are integers fitting 64 bits become Lua integers,
// others floats.
void push_value(lua_State* L, const engine::Value& v, Unknowns unknowns = Unknowns::Nil);

// tf.unknown: one table per state, standing for a value not known until apply. to_value turns
// it into an unknown value of the declared type.
void push_unknown_marker(lua_State* L);
bool is_unknown_marker(lua_State* L, int index);
// The module `require("luaform_values")` returns: { unknown = tf.unknown }.
int open_values_module(lua_State* L);

// Pushes the zero value of `t`: "", 0, false, or an empty table (nil for the dynamic and
// object types).
void push_zero(lua_State* L, const engine::Type& t);

// True when `v` is null, unknown, or the zero value of its type (what get_ok reports as unset).
bool is_zero(const engine::Value& v);

// What to do with a key of a table converted to an object type that has no such attribute.
enum class ExtraKeys {
  Reject,  // an error: a script set something the schema does not have
  Drop,    // ignored: an upgraded state may still carry attributes the schema dropped
};

// Converts the Lua value at `index` to a Value of type `t`; nil becomes null, tf.unknown an
// unknown value. `name` is the
// attribute's name for messages such as: attribute "x": expected string, got table.
// Throws ConversionError.
engine::Value to_value(lua_State* L, int index, const engine::Type& t, const std::string& name,
                       ExtraKeys extra_keys = ExtraKeys::Reject);

}  // namespace luaform::lua
