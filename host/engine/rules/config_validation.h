// ValidateResourceConfig's schema rules, applied to a configuration at every depth: deprecated
// and removed arguments, conflicts_with / required_with / exactly_one_of / at_least_one_of,
// the number of nested blocks, and the logic's own validate functions.
#pragma once

#include <functional>

#include "host/engine/schema/schema.h"
#include "host/engine/value/diagnostics.h"
#include "host/engine/value/value.h"

namespace luaform::engine {

// Runs an attribute's validate functions on a known, non-null value (ProviderLogic).
using ValueValidator = std::function<Diagnostics(const AttributePath&, const Value&)>;

// Checks `config` (an object of `block`'s type) and returns what is wrong with it. Values that
// are unknown are not judged: they are checked again when they are known.
Diagnostics validate_config(const Block& block, const Value& config,
                            const ValueValidator& validate_value);

// The value at a dotted address ("disk.0.size", "tags.env") of a config object; a null of the
// dynamic type when the address leads nowhere.
Value value_at_address(const Value& root, const std::string& address);

}  // namespace luaform::engine
