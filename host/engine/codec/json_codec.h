// cty's JSON encodings: of types (as in schemas: "string", ["list","string"],
// ["object",{...}]) and of values (DynamicValue.json and raw resource state).
#pragma once

#include <optional>
#include <string>

#include "host/engine/value/diagnostics.h"
#include "host/engine/value/type.h"
#include "host/engine/value/value.h"

namespace luaform::engine {

std::string encode_type_json(const Type& type);
std::optional<Type> decode_type_json(const std::string& json, Diagnostics& diags);

// Values must be wholly known. Dynamic values are encoded as {"value":..,"type":..}.
std::string encode_value_json(const Value& value, const Type& type);
// With `drop_unknown_attributes`, object attributes the type lacks are ignored instead of
// being errors: stored state may hold attributes a newer schema has removed.
Value decode_value_json(const std::string& json, const Type& type, Diagnostics& diags,
                        bool drop_unknown_attributes = false);

}  // namespace luaform::engine
