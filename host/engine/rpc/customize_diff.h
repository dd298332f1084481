// customize_diff: the resource's own say in a plan, after the schema's rules. The logic sees the
// planned object and may give computed attributes a value or make them unknown, ask for a
// replacement when an attribute changes, or fail the plan.
#pragma once

#include <string>
#include <vector>

#include "host/engine/rpc/session.h"
#include "host/engine/schema/schema.h"
#include "host/engine/value/diagnostics.h"
#include "host/engine/value/value.h"

namespace luaform::engine {

// Runs the logic's customize_diff for `type_name` and returns the planned object with what it
// asked for applied; replacement paths are appended to `requires_replace`. Errors (its own, or
// an attempt to change an attribute the configuration decides) go to `diags`, and the plan is
// then returned unchanged. `private_data` holds the prior private data on entry and what the
// plan hands to apply on return (the function may change it, as the framework's ModifyPlan
// may).
Value customize_diff(Session& session, const std::string& type_name, const Schema& schema,
                     const Value& prior, const Value& config, const Value& planned,
                     std::vector<AttributePath>& requires_replace, std::string& private_data,
                     bool planned_private_kept, Diagnostics& diags);

}  // namespace luaform::engine
