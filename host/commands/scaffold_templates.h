// The files `--scaffold` writes, as they are in host/commands/scaffold/ (compiled into the host
// by embed_scaffold.cmake), so that the host writes a skeleton without a source tree.
#pragma once

#include <span>
#include <string_view>

namespace luaform {

struct ScaffoldTemplate {
  std::string_view path;  // relative to the new directory, "NAME" standing for the name
  std::string_view text;  // with the placeholders scaffold_command.cpp fills in
};

// Every template, ordered by path.
std::span<const ScaffoldTemplate> scaffold_templates();

}  // namespace luaform
