// diff_suppress and state_func: values the provider declares to be the same although they are
// spelled differently ("ABC" and "abc" for a case-insensitive name, two spellings of one JSON
// document). Where the protocol lets the provider keep the earlier spelling, it does, so the
// difference never shows as a change:
// - plan: when prior state and configuration both hold a value (the CLI's diff-suppression
//   escape), the plan keeps the prior one, and nothing is updated or replaced;
// - read: a value read back that is the same as the stored one keeps the stored spelling;
// - apply: a value the script sets that is the same as the planned one keeps the planned
//   spelling, so the plan's promise holds.
#pragma once

#include <functional>

#include "host/engine/schema/schema.h"
#include "host/engine/value/diagnostics.h"
#include "host/engine/value/value.h"

namespace luaform::engine {

// same(path, earlier, later): true when the provider counts both values of the attribute at
// `path` as the same. Only asked for known, non-null, unequal values of attributes with
// has_equivalence.
using SameValue = std::function<bool(const AttributePath&, const Value&, const Value&)>;

// `later` with every attribute that `same` judges equal to its counterpart in `earlier` put
// back to the earlier value, at any depth: single blocks directly, lists by index, maps by key.
// Set elements have no address to pair them by, so values inside set blocks are left alone.
Value keep_equivalent(const Block& block, const Value& earlier, const Value& later,
                      const SameValue& same, const AttributePath& path = {});

// True when some attribute of `block`, at any depth, has has_equivalence.
bool has_equivalence(const Block& block);

}  // namespace luaform::engine
