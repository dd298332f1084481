// Registry-style markdown documentation of a provider, written from its schema: the layout and
// sections documentation sites and the registry expect (index.md, resources/, data-sources/,
// functions/, list-resources/), so `terraform-provider-NAME --docs DIR` stands in for
// tfplugindocs.
#pragma once

#include <map>
#include <set>
#include <string>

#include "host/engine/schema/schema.h"

namespace luaform::engine {

// Example configurations by page: "provider", "resources/TYPE", "data-sources/TYPE",
// "functions/NAME", "list-resources/TYPE" (a query file) (TYPE is the full type name,
// "example_server"); "resources/TYPE/import" is a resource's import command (tfplugindocs'
// import.sh).
using DocExamples = std::map<std::string, std::string>;

// The pages, by path relative to the docs directory ("index.md", "resources/server.md",
// "data-sources/image.md", "functions/parse_arn.md", "list-resources/server.md"). `schema` is
// the schema as served (with "id" and the timeouts block). Importable resources get an Import
// section: the example's import command, else the import block and command by id (and by
// identity when the resource has one).
std::map<std::string, std::string> registry_docs(const std::string& provider_name,
                                                 const ProviderSchema& schema,
                                                 const DocExamples& examples);

}  // namespace luaform::engine
