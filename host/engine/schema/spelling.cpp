#include "host/engine/schema/spelling.h"

#include <atomic>

namespace luaform::engine {
namespace {

std::atomic<Spelling> installed{nullptr};

}  // namespace

void install_spelling(Spelling spelling) {
  installed.store(spelling);
}

std::string spelled(Hint hint, std::string_view subject) {
  const Spelling spelling = installed.load();
  return spelling == nullptr ? std::string() : spelling(hint, subject);
}

std::string written_as(Hint hint, std::string_view subject) {
  const std::string text = spelled(hint, subject);
  return text.empty() ? text : " (" + text + ")";
}

std::string for_example(Hint hint, std::string_view subject) {
  const std::string text = spelled(hint, subject);
  return text.empty() ? text : " (for example " + text + ")";
}

}  // namespace luaform::engine
