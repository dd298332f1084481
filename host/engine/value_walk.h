// Whole-value transformations shared by the plan and apply rules.
#pragma once

#include "host/engine/value.h"

namespace luaform::engine {

// The value with every unknown, at any depth, replaced by a null of the same type. A saved
// state may hold no unknowns, so whatever a CRUD function left unset ends as null.
Value unknowns_to_null(const Value& v);

// The elements of a known list, set or tuple; null for any other value. Lets the codecs
// write a value that does not match its declared type as null instead of failing.
const Value::List* list_data(const Value& v);
// The attributes of a known map or object; null for any other value.
const Value::Object* object_data(const Value& v);

}  // namespace luaform::engine
