// The CLI's half of planning, for running a resource's plan outside the CLI (the authors'
// testing kit): the "proposed new state" Terraform sends with PlanResourceChange.
#pragma once

#include "host/engine/schema/schema.h"
#include "host/engine/value/value.h"

namespace luaform::engine {

// What Terraform proposes for an object of `block` given its stored value `prior` (null for a
// new object) and its configuration `config`: the configuration, except that a computed
// attribute the configuration leaves null keeps its stored value. Nested blocks are paired with
// their stored counterparts as the CLI pairs them (lists by index, maps by key, a set element
// with a stored element that agrees on everything the configuration decides). A null config
// (the object is being destroyed) proposes null.
Value proposed_new_state(const Block& block, const Value& prior, const Value& config);

}  // namespace luaform::engine
