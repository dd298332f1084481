// Whole-value transformations shared by the plan and apply rules.
#pragma once

#include "host/engine/value.h"

namespace luaform::engine {

// The value with every unknown, at any depth, replaced by a null of the same type. A saved
// state may hold no unknowns, so whatever a CRUD function left unset ends as null.
Value unknowns_to_null(const Value& v);

}  // namespace luaform::engine
