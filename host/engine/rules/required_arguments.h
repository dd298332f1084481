// The check the CLI makes itself while it reads a configuration with the provider's schema,
// before it asks the provider to validate it (Terraform's and OpenTofu's decoding of a block):
// every required argument has a value. The provider's RPCs never see a configuration that
// fails it, so they do not check it again; the authors' testing kit, which calls them without
// a CLI, checks it where the CLI would.
#pragma once

#include "host/engine/schema/schema.h"
#include "host/engine/value/diagnostics.h"
#include "host/engine/value/value.h"

namespace luaform::engine {

// "Missing required argument" for each required attribute that `config` (an object of
// `block`'s type) leaves null, at any depth: in every element of its nested blocks and of its
// nested attributes that is there. A value not known yet counts as given.
Diagnostics check_required_arguments(const Block& block, const Value& config);

}  // namespace luaform::engine
