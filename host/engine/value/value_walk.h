// Whole-value transformations shared by the plan and apply rules.
#pragma once

#include <string>
#include <vector>

#include "host/engine/value/diagnostics.h"
#include "host/engine/value/value.h"

namespace luaform::engine {

// The value with every unknown, at any depth, replaced by a null of the same type. A saved
// state may hold no unknowns, so whatever a CRUD function left unset ends as null.
Value unknowns_to_null(const Value& v);

// The value with every unknown replaced by the value at the same place in `prior` (lists and
// tuples by index, maps and objects by key), or by null where `prior` has none there. Set
// elements have no place to pair them by: their unknowns become null.
Value unknowns_from(const Value& v, const Value& prior);

// The parts of a dotted address: "disk.0.size" -> {"disk", "0", "size"}.
std::vector<std::string> split_address(const std::string& address);

// The value reached by following parts[from..] into `v`: list, set and tuple elements by
// index, map and object members by key. Unknown where the walk meets an unknown value; a null
// of the dynamic type where it leads nowhere (a null, a missing member, a bad index).
Value value_at_parts(Value v, const std::vector<std::string>& parts, size_t from);

// The value at `path` in `v`: attributes and map keys by name, list, set and tuple elements
// by position. Unknown where the walk meets an unknown value; null where it leads nowhere.
Value value_at_path(Value v, const AttributePath& path);

// The elements of a known list, set or tuple; null for any other value. Lets the codecs
// write a value that does not match its declared type as null instead of failing.
const Value::List* list_data(const Value& v);
// The attributes of a known map or object; null for any other value.
const Value::Object* object_data(const Value& v);

}  // namespace luaform::engine
