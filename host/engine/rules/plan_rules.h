// The per-object rules of PlanResourceChange, applied to the resource and, element by element,
// to every nested block in it: which values become unknown and which changes force a
// replacement.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "host/engine/schema/schema.h"
#include "host/engine/value/diagnostics.h"
#include "host/engine/value/value.h"

namespace luaform::engine {

// True when `planned` differs from `prior` in something the state stores: write-only values
// are left out (never stored, so never compared), and an argument that is null on one side and
// its zero value on the other is no difference (see zero_values.h).
bool changes_object(const Block& block, const Value& prior, const Value& planned);

// Computed blocks (protocol 6.11) the configuration has none of: an existing object keeps the
// stored blocks, a new one (or a new element of an enclosing block) gets them from the
// provider, so they are unknown in its plan. Applied first, so that no other rule sees the
// stored blocks as removed.
Value plan_computed_blocks(const Block& block, const Value& planned, const Value& prior,
                           const Value& config);

// The first computed block the configuration has none of, at any depth (its path), or nothing:
// a client that does not plan computed blocks (protocol 5, OpenTofu, Terraform before 1.16)
// would plan such a block empty and never settle, so the plan is refused there.
std::optional<AttributePath> unconfigured_computed_block(const Block& block, const Value& config,
                                                         const AttributePath& path = {});

// The computed attributes the configuration leaves null: a new object (or a new element of a
// nested block) gets them from the provider, so they are unknown in its plan. An existing
// object keeps its stored values, as helper/schema plans them, except those declared
// changes_on_update, which are unknown in the plan of an object that changes (the id is
// always kept: it names the object being updated). An unchanged object plans no unknowns.
Value mark_computed_unknown(const Block& block, const Value& planned, const Value& prior,
                            const Value& config);

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
