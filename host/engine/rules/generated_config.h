// The configuration a user would write for an object the provider already manages, as Terraform
// 1.14's -generate-config-out asks for it after an import (or a `terraform query`).
#pragma once

#include "host/engine/schema/schema.h"
#include "host/engine/value/value.h"

namespace luaform::engine {

// `state` (an object of `block`'s type) as configuration: the arguments that are set and
// differ from what leaving them out gives (the default, or the zero value, which helper/schema
// reads for an unset argument); null for computed-only, write-only and deprecated attributes,
// for the reserved `id` at the top, and for operational blocks (`timeouts`). Nested blocks and
// nested attributes are generated element by element. A plan of the result against `state`
// has nothing to change.
Value config_from_state(const Block& block, const Value& state);

}  // namespace luaform::engine
