// How an error raised in a script reads in the CLI. Lua puts "file.lua:12: " before an error's
// words (once more each time a handler raises it again); users read the words, authors need the
// place. So the words are the diagnostic's summary, as a Go provider's error reads, and the
// place closes its detail.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "host/engine/value/diagnostics.h"

namespace luaform::lua {

struct ScriptError {
  std::string message;                 // the words, without the places before them
  std::vector<std::string> locations;  // "lib/x.lua:60", where it was raised first, then again
};

// Takes the leading "chunk.lua:N: " places off an error message.
ScriptError split_script_error(std::string_view raw);

// "at lib/x.lua:60 (raised again at resource_x.lua:9)", or "in `script`" when the error names
// no place (a message of the host's own, an error object).
std::string where_raised(const ScriptError& error, const std::string& script);

// What failed, for the detail's closing sentence: the call ("example_server: create failed"),
// the script that defines it, and what follows from the failure, if anything worth saying.
struct FailedCall {
  std::string what;
  std::string script;
  std::string outcome = {};
};

// The error diagnostic of a call that a script ended with `raw`: the message's first line as
// the summary; its further lines, then "WHAT at PLACE; OUTCOME.", as the detail.
engine::Diagnostic script_error_diagnostic(std::string_view raw, const FailedCall& call,
                                           engine::AttributePath path = {});

// The same for a diagnostic the script made itself (tf.fail): its summary and detail stay the
// author's, the place is added to the detail, and a diagnostic with only a detail takes that
// as its summary.
engine::Diagnostic with_place(engine::Diagnostic made, std::string_view raw,
                              const FailedCall& call);

// One line, for the places that carry a single text (a function's error): "MESSAGE (at PLACE)".
std::string one_line(std::string_view raw, const std::string& script);

}  // namespace luaform::lua
