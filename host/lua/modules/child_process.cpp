// What finding a program takes on every platform; each platform's file supplies the few
// spellings that differ (child_process.h, namespace detail).
#include "host/lua/modules/child_process.h"

namespace luaform::lua::process {

std::optional<std::string> find_program(const std::string& program,
                                        const std::string& search_path) {
  if (program.empty()) return std::nullopt;
  if (detail::names_a_path(program)) return detail::runnable(program);
  const char separator = path_list_separator();
  size_t start = 0;
  while (start <= search_path.size()) {
    size_t end = search_path.find(separator, start);
    if (end == std::string::npos) end = search_path.size();
    // An empty entry means the working directory in a shell; a provider's lookups do not
    // depend on where the CLI was started, so it is skipped.
    if (end > start) {
      std::string candidate = search_path.substr(start, end - start);
      candidate += detail::directory_separator();
      candidate += program;
      if (auto found = detail::runnable(candidate)) return found;
    }
    start = end + 1;
  }
  return std::nullopt;
}

namespace detail {

std::string program_path(const Command& command) {
  if (command.arguments.empty() || command.arguments[0].empty()) {
    throw RunError("no program to run: the first argument names it");
  }
  const std::string& name = command.arguments[0];
  if (std::optional<std::string> path = find_program(name, command.search_path)) return *path;
  if (names_a_path(name)) {
    throw RunError("program " + name + " does not exist or is not executable");
  }
  throw RunError("program \"" + name + "\" not found in PATH (" + command.search_path + ")");
}

}  // namespace detail
}  // namespace luaform::lua::process
