// The files `--scaffold` writes: the templates in host/commands/scaffold/, and the files of
// luaform's a scaffold carries in .luaform/ (the SDK's type definitions, the packaging script),
// compiled into the host by embed_scaffold.cmake, so that the host writes a skeleton without a
// source tree or an installation.
#pragma once

#include <span>
#include <string_view>

namespace luaform {

struct ScaffoldTemplate {
  std::string_view path;  // relative to the new directory, "NAME" standing for the name
  std::string_view text;  // with the placeholders scaffold_command.cpp fills in
  bool copied;            // a file of luaform's, written as it is: no placeholders
};

// Every template, ordered by path.
std::span<const ScaffoldTemplate> scaffold_templates();

}  // namespace luaform
