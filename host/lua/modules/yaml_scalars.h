// What a YAML scalar's text means: the YAML 1.2 core schema (null, booleans, integers, floats,
// else a string) and the few core tags that override it (!!str, !!int, !!float, !!bool,
// !!null). The reader (yaml_reader.cpp) finds the text and reports where; this file only
// decides the value.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace luaform::lua::yaml {

enum class Tag : std::uint8_t {
  none,          // no tag: the core schema resolves plain scalars, quoted ones are strings
  non_specific,  // "!": a string, whatever it looks like
  string,
  integer,
  floating,
  boolean,
  null,
  other,  // any other tag (!!binary, !custom, ...): ignored, as if there were none
};

// The tag as written: "!!str", "!<tag:yaml.org,2002:str>", "!", "!foo".
Tag classify_tag(std::string_view tag);

// The value of a scalar: `plain` scalars are resolved by the core schema, quoted and block
// scalars are strings, unless a core tag says otherwise. Nothing when the text does not fit
// its tag (`!!int abc`). A string value takes the text (moved from, not copied); otherwise
// the text is left as it was, for the caller's message.
std::optional<nlohmann::json> resolve_scalar(std::string& text, bool plain, Tag tag);

// Appends a code point (at most U+10FFFF, no surrogates: the caller checks) as UTF-8.
void append_utf8(std::string& out, char32_t code_point);

}  // namespace luaform::lua::yaml
