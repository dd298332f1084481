// Plan functions (`plan = fn(p, client)`): computed attributes whose value the resource works
// out at plan time, at the top of the resource or inside blocks and nested attributes (not
// sets, whose elements have no address). Run after the schema's plan rules and before
// customize_diff.
#pragma once

#include <string>

#include "host/engine/rpc/session.h"
#include "host/engine/schema/schema.h"
#include "host/engine/value/diagnostics.h"
#include "host/engine/value/value.h"

namespace luaform::engine {

// `planned` with the value of every attribute that has a plan function, asked element by
// element. A value the configuration sets is the user's, so a function may not change it. On
// an error (in `diags`) the plan is returned unchanged.
Value plan_with_functions(Session& session, const std::string& type_name, const Block& block,
                          const Value& prior, const Value& config, const Value& planned,
                          Diagnostics& diags);

}  // namespace luaform::engine
