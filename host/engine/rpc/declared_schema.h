// InternalValidate over a whole provider: every definition's declarations checked by the schema's
// rules (schema_rules.h: options and their combinations, addresses, identities, functions, a
// list resource's resource). One definition's problems must not take the provider down: a
// definition with errors is left out, standing in the served schema as an empty one whose
// configurations are refused with why (ProviderSchema::left_out), and a warning says so; every
// other type serves. Problems of the provider block stay errors: without it nothing can be
// configured.
#pragma once

#include "host/engine/schema/schema.h"
#include "host/engine/value/diagnostics.h"

namespace luaform::engine {

// `declared` with each definition that fails the checks left out; the problems go to `diags`.
ProviderSchema with_problems_left_out(const ProviderSchema& declared, Diagnostics& diags);

}  // namespace luaform::engine
