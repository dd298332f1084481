// diff_suppress and state_func: values the provider declares to be the same although they are
// spelled differently ("ABC" and "abc" for a case-insensitive name, two spellings of one JSON
// document), and element_state_func: sets whose elements are the same in their normal form.
// Where the protocol lets the provider keep the earlier spelling, it does, so the difference
// never shows as a change:
// - plan: when prior state and configuration both hold a value (the CLI's diff-suppression
//   escape), the plan keeps the prior one, and nothing is updated or replaced;
// - read: a value read back that is the same as the stored one keeps the stored spelling;
// - apply: a value the script sets that is the same as the planned one keeps the planned
//   spelling, so the plan's promise holds.
#pragma once

#include <functional>
#include <optional>

#include "host/engine/schema/schema.h"
#include "host/engine/value/diagnostics.h"
#include "host/engine/value/value.h"

namespace luaform::engine {

// same(path, earlier, later): true when the provider counts both values of the attribute at
// `path` as the same. Only asked for known, non-null, unequal values of attributes with
// has_equivalence.
using SameValue = std::function<bool(const AttributePath&, const Value&, const Value&)>;

// normal_forms(path, elements): the normal form of each of `elements` of the set at `path` (an
// attribute or nested object with has_element_normaliser), in order; two elements with equal
// normal forms are the same element. nullopt when the provider could not tell: the set is then
// left as it is. Asked only about elements that are not in both sets as they are.
using NormalForms =
    std::function<std::optional<Value::List>(const AttributePath&, const Value::List&)>;

// How far the earlier spelling may be kept. The CLI accepts a planned attribute that is the
// configured value or the prior one, nothing between: a plan keeps a set attribute's prior
// value only when every element pairs. Read and apply keep each element that pairs (blocks and
// nested attributes keep them element by element in a plan too: the CLI trusts the provider
// with sets of objects).
enum class Keeping { ByElement, WholeAttributes };

// How the provider tells spellings of one value apart.
struct Equivalence {
  SameValue same;
  NormalForms normal_forms = nullptr;
  Keeping keeping = Keeping::ByElement;
};

// `later` with every attribute that `equivalence.same` judges equal to its counterpart in
// `earlier` put back to the earlier value, at any depth: single blocks directly, lists by
// index, maps by key. Sets with an element normaliser pair their elements by normal form, and
// a paired element takes the earlier one's spelling; an element of objects keeps what the
// earlier element says of its arguments and takes what the later one computes. Other sets'
// elements have no address to pair them by, so values inside them are left alone.
Value keep_equivalent(const Block& block, const Value& earlier, const Value& later,
                      const Equivalence& equivalence, const AttributePath& path = {});

// True when some attribute of `block`, at any depth, has has_equivalence, or some set in it has
// an element normaliser.
bool has_equivalence(const Block& block);

}  // namespace luaform::engine
