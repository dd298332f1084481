// What must never be written to a log: the texts of a resource's or provider's sensitive
// values, found through the schema (attributes declared sensitive, at any depth) and through
// the values' own sensitive marks.
#pragma once

#include <string>
#include <vector>

#include "host/engine/schema.h"
#include "host/engine/value.h"

namespace luaform::engine {

// The strings and numbers (as text) inside the sensitive parts of `object`, a value of
// `block`'s implied type. Nulls, unknowns and booleans hold nothing to hide.
std::vector<std::string> sensitive_texts(const Block& block, const Value& object);

}  // namespace luaform::engine
