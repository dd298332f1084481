// cty's msgpack encoding of values (the DynamicValue.msgpack wire form): unknown as
// extension type 0, dynamically-typed values as [type-json, value], numbers as int, float or
// decimal string, sets and lists as arrays, maps and objects as maps.
#pragma once

#include <string>

#include "host/engine/value/diagnostics.h"
#include "host/engine/value/type.h"
#include "host/engine/value/value.h"

namespace luaform::engine {

std::string encode_msgpack(const Value& value, const Type& type);
// Decodes `bytes` as a value of `type`; errors go to `diags` and a null value is returned.
Value decode_msgpack(const std::string& bytes, const Type& type, Diagnostics& diags);

}  // namespace luaform::engine
