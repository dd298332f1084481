// The per-object rules of PlanResourceChange, applied to the resource and, element by element,
// to every nested block in it: which values become unknown and which changes force a
// replacement.
#pragma once

#include <functional>
#include <vector>

#include "host/engine/diagnostics.h"
#include "host/engine/schema.h"
#include "host/engine/value.h"

namespace luaform::engine {

// An object that is new or changed may have its computed attributes recomputed by the
// provider, so those the configuration leaves null become unknown (the framework's rule;
// helper/schema relied on the legacy type system's leniency instead). An unchanged object,
// and an unchanged element of a nested block, keeps its values. The id of an existing
// resource is kept: it identifies the object being updated, and so is the stored value of an
// attribute with use_state_for_unknown.
Value mark_computed_unknown(const Block& block, const Value& planned, const Value& prior,
                            const Value& config, bool is_resource);

// The resource's requires_replace_if for the attribute at `path`: true when changing it from
// `before` to `after` (either may be null, for an element added or removed) replaces it.
using ReplaceCheck =
    std::function<bool(const AttributePath& path, const Value& before, const Value& after)>;

// Appends the path of every change between `prior` and `planned` that can only be made by
// replacing the resource: a force_new attribute or block that changed, an attribute whose
// requires_replace_if says so (asked through `ask`, at any depth outside sets), or, when the
// resource has no update function, any change to an argument.
void find_replacements(const Block& block, const Value& prior, const Value& planned,
                       bool has_update, const AttributePath& path,
                       std::vector<AttributePath>& replacements, const ReplaceCheck& ask = {});

}  // namespace luaform::engine
