// customize_diff: the resource's own say in a plan, after the schema's rules. The logic sees the
// planned object and may give computed attributes a value or make them unknown, ask for a
// replacement when an attribute changes, or fail the plan.
#pragma once

#include <string>
#include <vector>

#include "host/engine/rpc/messages.h"
#include "host/engine/rpc/session.h"
#include "host/engine/schema/schema.h"
#include "host/engine/value/diagnostics.h"
#include "host/engine/value/value.h"

namespace luaform::engine {

// Runs the logic's customize_diff for the resource of `req` and returns `planned` with what it
// asked for applied; replacement paths are appended to resp.requires_replace. Errors (its own,
// or an attempt to change an attribute the configuration decides) go to resp.diagnostics, and
// the plan is then returned unchanged. resp.planned_private holds the private data the plan
// starts from on entry and what it hands to apply on return (the function may change it, as
// the framework's ModifyPlan may). A deferral it asks for (where the CLI allows one) is
// resp.deferred, with `planned` returned as it was.
Value customize_diff(Session& session, const PlanRequest& req, const Schema& schema,
                     const Value& planned, PlanResponse& resp);

}  // namespace luaform::engine
