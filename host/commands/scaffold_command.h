// `luaform --scaffold NAME [DIR]`: writes a new provider directory that works at once (a
// resource, a data source, a function, examples, a CLI configuration to try it) and shows where
// an author's own API calls go. `--from FILE` starts it from an OpenAPI description instead:
// the description (and the files beside it its `$ref`s name) copied in, a provider.lua that
// serves it, and the editor and lint files.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>

namespace luaform {

// Writes the skeleton of provider NAME into `dir` (created; it must not exist or be empty),
// with a copy of `host` there as terraform-provider-NAME. Names each file on `out`; returns false
// after printing the reason on `err`, having written nothing over an existing file.
// With `description` (an OpenAPI description's file), the provider is served from a copy of
// it; a description that cannot be read is refused before anything is written.
bool scaffold_provider(const std::string& name, const std::filesystem::path& dir,
                       const std::filesystem::path& host, std::ostream& out, std::ostream& err,
                       const std::filesystem::path& description = {});

}  // namespace luaform
