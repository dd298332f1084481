// helper/schema's rule for arguments the configuration leaves unset: a script reads them as the
// zero value of their type ("", 0, false, an empty list, set or map) and often sends that to its
// API, which then reads back the same zero value. Null and the zero value are the same value
// then, so neither spelling may show as a change:
// - read: a value read back that is the zero spelling of the stored null (or the other way
//   round) keeps the stored spelling;
// - apply: a value the script sets that is the zero spelling of the planned one keeps the
//   planned spelling, so the plan's promise holds;
// - plan: a difference of spelling alone replaces nothing, and is not a change that makes
//   computed values unknown.
// A configuration that writes the zero value (`nickname = ""`) keeps it: the stored spelling
// follows the configuration, and a real change from or to the zero value still shows.
#pragma once

#include "host/engine/schema/schema.h"
#include "host/engine/value/value.h"

namespace luaform::engine {

// True for "", 0, false and a known empty list, set or map.
bool is_zero_value(const Value& v);

// `v` with every zero value made null, at any depth inside objects and collections of objects
// (the elements of a collection of primitives are kept as they are).
Value zero_as_null(const Value& v);

// True when `a` and `b` are equal, or differ only where one holds null and the other the zero
// value of its type.
bool same_but_for_zero(const Value& a, const Value& b);

// `later` (an object of `block`'s type) with every argument, at any depth, that differs from
// its counterpart in `earlier` only by the zero spelling put back to the earlier value. Nested
// blocks and nested attributes are paired as the CLI pairs them: single objects directly, lists
// by index, maps by key, set elements by equality up to zero spellings. Computed attributes are
// left alone: the CLI proposes their stored value whenever the configuration leaves them unset.
Value keep_zero_spelling(const Block& block, const Value& earlier, const Value& later);

}  // namespace luaform::engine
