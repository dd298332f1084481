#include "host/lua/core/script_error.h"

#include <algorithm>
#include <cctype>
#include <optional>

namespace luaform::lua {
namespace {

// A chunk name as Lua's messages show it: a script's path ("lib/x.lua", or "...x.lua" when Lua
// shortened a long one) or a string chunk ([string "..."]).
bool looks_like_chunk(std::string_view name) {
  if (name.empty() || name.find('\n') != std::string_view::npos ||
      name.find(": ") != std::string_view::npos) {
    return false;
  }
  return name.ends_with(".lua") || (name.starts_with("[string ") && name.ends_with("]"));
}

// The length of a leading "chunk:N: " in `text`, or nullopt.
std::optional<size_t> leading_place(std::string_view text) {
  for (size_t colon = text.find(':'); colon != std::string_view::npos;
       colon = text.find(':', colon + 1)) {
    size_t end = colon + 1;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])) != 0) ++end;
    if (end == colon + 1 || !text.substr(end).starts_with(": ")) continue;
    if (!looks_like_chunk(text.substr(0, colon))) return std::nullopt;
    return end + 2;
  }
  return std::nullopt;
}

std::string_view trim_end(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) {
    text.remove_suffix(1);
  }
  return text;
}

// "WHAT at PLACE; OUTCOME." for the end of a detail.
std::string closing_sentence(const ScriptError& error, const FailedCall& call) {
  std::string sentence = call.what;
  const std::string where = where_raised(error, call.script);
  if (!where.empty()) sentence += " " + where;
  if (!call.outcome.empty()) sentence += "; " + call.outcome;
  return sentence + ".";
}

std::string joined(std::string_view first, std::string_view second) {
  first = trim_end(first);
  if (first.empty()) return std::string(second);
  return std::string(first) + "\n\n" + std::string(second);
}

}  // namespace

ScriptError split_script_error(std::string_view raw) {
  ScriptError error;
  while (const auto length = leading_place(raw)) {
    // A place twice in a row says nothing new: a native error names the script's line, and
    // the handler that sees it leave names the same line when an SDK helper stood between.
    const std::string_view place = raw.substr(0, *length - 2);
    if (error.locations.empty() || error.locations.back() != place) {
      error.locations.emplace_back(place);
    }
    raw.remove_prefix(*length);
  }
  // The outermost place comes first in the text; the first raise is the innermost.
  std::reverse(error.locations.begin(), error.locations.end());
  error.message = std::string(trim_end(raw));
  return error;
}

std::string where_raised(const ScriptError& error, const std::string& script) {
  if (error.locations.empty()) return script.empty() ? "" : "in " + script;
  std::string text = "at " + error.locations.front();
  for (size_t i = 1; i < error.locations.size(); ++i) {
    text += (i == 1 ? " (raised again at " : ", then at ") + error.locations[i];
  }
  if (error.locations.size() > 1) text += ")";
  return text;
}

engine::Diagnostic script_error_diagnostic(std::string_view raw, const FailedCall& call,
                                           engine::AttributePath path) {
  const ScriptError error = split_script_error(raw);
  engine::Diagnostic d;
  d.path = std::move(path);
  std::string_view message = error.message;
  const size_t newline = message.find('\n');
  d.summary = std::string(trim_end(message.substr(0, newline)));
  const std::string_view rest =
      newline == std::string_view::npos ? std::string_view{} : message.substr(newline + 1);
  // An error with no words (error(""), an error object without __tostring) still says what
  // failed.
  if (d.summary.empty()) d.summary = call.what;
  d.detail = joined(rest, closing_sentence(error, call));
  return d;
}

engine::Diagnostic with_place(engine::Diagnostic made, std::string_view raw,
                              const FailedCall& call) {
  if (made.summary.empty()) {
    made.summary = std::move(made.detail);
    made.detail.clear();
  }
  made.detail = joined(made.detail, closing_sentence(split_script_error(raw), call));
  return made;
}

std::string one_line(std::string_view raw, const std::string& script) {
  const ScriptError error = split_script_error(raw);
  // The host's own messages about a script start with its name already.
  if (error.locations.empty() && error.message.starts_with(script + ":")) return error.message;
  const std::string where = where_raised(error, script);
  return where.empty() ? error.message : error.message + " (" + where + ")";
}

}  // namespace luaform::lua
