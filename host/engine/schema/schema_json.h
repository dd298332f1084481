// The provider schema as JSON, in the shape `tofu providers schema -json` prints it, so that
// `luaform --schema` can be read by the same tools (documentation generators, editors).
#pragma once

#include <string>

#include "host/engine/schema/schema.h"

namespace luaform::engine {

// The whole document for one provider: {"format_version":"1.0","provider_schemas":{ADDRESS:
// {...}}}, where ADDRESS is the provider's source address ("registry.opentofu.org/luaform/x").
std::string provider_schema_json(const std::string& address, const ProviderSchema& schema);

}  // namespace luaform::engine
