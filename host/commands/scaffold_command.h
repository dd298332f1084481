// `luaform --scaffold NAME [DIR]`: writes a new provider directory that works at once (a
// resource, a data source, a function, examples, a CLI configuration to try it) and shows where
// an author's own API calls go.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>

namespace luaform {

// Writes the skeleton of provider NAME into `dir` (created; it must not exist or be empty),
// with a copy of `host` there as terraform-provider-NAME. Names each file on `out`; returns false
// after printing the reason on `err`, having written nothing over an existing file.
bool scaffold_provider(const std::string& name, const std::filesystem::path& dir,
                       const std::filesystem::path& host, std::ostream& out, std::ostream& err);

}  // namespace luaform
