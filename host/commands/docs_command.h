// `terraform-provider-NAME --docs DIR`: writes the provider's registry-style documentation,
// with the example configurations found in the provider directory's examples/ (tfplugindocs'
// layout: examples/provider/provider.tf, examples/resources/TYPE/resource.tf and import.sh,
// examples/data-sources/TYPE/data-source.tf, examples/functions/NAME/function.tf).
#pragma once

#include <filesystem>
#include <ostream>
#include <set>
#include <string>

#include "host/engine/schema/schema.h"
#include "host/lua/core/script_set.h"

namespace luaform {

// Writes every page under `dir` (created when missing), naming each on `out`; importable
// resource types get an Import section. Returns false after printing the reason on `err` when a
// file cannot be written.
bool write_docs(const lua::ScriptSet& scripts, const engine::ProviderSchema& schema,
                const std::filesystem::path& dir, std::ostream& out, std::ostream& err);

}  // namespace luaform
