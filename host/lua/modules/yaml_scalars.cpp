#include "host/lua/modules/yaml_scalars.h"

#include <charconv>
#include <cstdint>
#include <limits>
#include <system_error>
#include <utility>

#include "host/engine/value/number.h"

namespace luaform::lua::yaml {
namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

bool all_of(std::string_view text, bool (*accept)(char)) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!accept(c)) return false;
  }
  return true;
}

bool is_null(std::string_view text) {
  return text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL";
}

std::optional<bool> as_bool(std::string_view text) {
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  return std::nullopt;
}

// Digits too many for 64 bits still make a number, a float, the way JSON readers do:
// decimal ones rounded correctly, the rare octal and hexadecimal ones nearly so.
double digits_as_double(std::string_view digits, int base) {
  double value = 0;
  if (base == 10) {
    return engine::nearest_double(digits);
  }
  for (char c : digits) {
    const int digit = is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10;
    value = value * base + digit;
  }
  return value;
}

// [-+]?[0-9]+, 0o[0-7]+, 0x[0-9a-fA-F]+: non-negative values are unsigned, like JSON's.
std::optional<nlohmann::json> as_integer(std::string_view text) {
  int base = 10;
  std::string_view digits = text;
  bool negative = false;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'o' || text[1] == 'x')) {
    base = text[1] == 'o' ? 8 : 16;
    digits.remove_prefix(2);
    const bool valid = base == 8 ? all_of(digits, [](char c) { return c >= '0' && c <= '7'; })
                                 : all_of(digits, [](char c) {
                                     return is_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
                                   });
    if (!valid) return std::nullopt;
  } else {
    if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) {
      negative = digits[0] == '-';
      digits.remove_prefix(1);
    }
    if (!all_of(digits, is_digit)) return std::nullopt;
  }
  std::uint64_t magnitude = 0;
  const auto [end, error] =
      std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, base);
  if (error != std::errc() || end != digits.data() + digits.size()) {
    const double value = digits_as_double(digits, base);
    return nlohmann::json(negative ? -value : value);
  }
  if (!negative) return nlohmann::json(magnitude);
  constexpr auto kMostNegative =
      static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + 1;
  if (magnitude > kMostNegative) return nlohmann::json(-static_cast<double>(magnitude));
  // Negating in unsigned arithmetic is defined, and the cast back is exact for every value
  // up to 2^63 (C++20 integers are two's complement).
  return nlohmann::json(static_cast<std::int64_t>(0 - magnitude));
}

// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?, checked by hand before nearest_double,
// which would accept more ("inf", hex floats).
bool is_decimal_float(std::string_view text) {
  size_t i = 0;
  const auto digits = [&] {
    const size_t from = i;
    while (i < text.size() && is_digit(text[i])) ++i;
    return i - from;
  };
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
  const size_t whole = digits();
  size_t fraction = 0;
  if (i < text.size() && text[i] == '.') {
    ++i;
    fraction = digits();
  }
  if (whole == 0 && fraction == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
    if (digits() == 0) return false;
  }
  return i == text.size();
}

std::optional<double> as_float(std::string_view text) {
  std::string_view unsigned_text = text;
  const bool negative = !text.empty() && text[0] == '-';
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) unsigned_text.remove_prefix(1);
  if (unsigned_text == ".inf" || unsigned_text == ".Inf" || unsigned_text == ".INF") {
    const double infinity = std::numeric_limits<double>::infinity();
    return negative ? -infinity : infinity;
  }
  if (text == ".nan" || text == ".NaN" || text == ".NAN") {
    return std::numeric_limits<double>::quiet_NaN();
  }
  if (!is_decimal_float(text)) return std::nullopt;
  // nearest_double, like from_chars, takes a leading '-' but not a '+'.
  return engine::nearest_double(text[0] == '+' ? unsigned_text : text);
}

// The core schema, on plain scalars. Most text is neither null, a boolean nor a number: its
// first character settles that before any comparison.
nlohmann::json resolve_plain(std::string& text) {
  if (text.empty()) return nullptr;
  const char first = text[0];
  const bool maybe_number = is_digit(first) || first == '-' || first == '+' || first == '.';
  if (!maybe_number && first != '~' && first != 'n' && first != 'N' && first != 't' &&
      first != 'T' && first != 'f' && first != 'F') {
    return nlohmann::json(std::move(text));
  }
  if (is_null(text)) return nullptr;
  if (const auto boolean = as_bool(text)) return *boolean;
  if (maybe_number) {
    if (auto integer = as_integer(text)) return std::move(*integer);
    if (const auto number = as_float(text)) return *number;
  }
  return nlohmann::json(std::move(text));
}

}  // namespace

Tag classify_tag(std::string_view tag) {
  if (tag == "!") return Tag::non_specific;
  std::string_view name;
  if (tag.starts_with("!!")) {
    name = tag.substr(2);
  } else if (tag.starts_with("!<tag:yaml.org,2002:") && tag.ends_with(">")) {
    name = tag.substr(20, tag.size() - 21);
  } else {
    return Tag::other;
  }
  if (name == "str") return Tag::string;
  if (name == "int") return Tag::integer;
  if (name == "float") return Tag::floating;
  if (name == "bool") return Tag::boolean;
  if (name == "null") return Tag::null;
  return Tag::other;
}

std::optional<nlohmann::json> resolve_scalar(std::string& text, bool plain, Tag tag) {
  switch (tag) {
    case Tag::string:
    case Tag::non_specific:
      return nlohmann::json(std::move(text));
    case Tag::null:
      if (is_null(text)) return nlohmann::json(nullptr);
      return std::nullopt;
    case Tag::boolean:
      if (const auto boolean = as_bool(text)) return nlohmann::json(*boolean);
      return std::nullopt;
    case Tag::integer:
      return as_integer(text);
    case Tag::floating:
      if (const auto number = as_float(text)) return nlohmann::json(*number);
      if (const auto integer = as_integer(text)) return nlohmann::json(integer->get<double>());
      return std::nullopt;
    case Tag::none:
    case Tag::other:
      break;
  }
  if (!plain) return nlohmann::json(std::move(text));
  return resolve_plain(text);
}

void append_utf8(std::string& out, char32_t code_point) {
  if (code_point < 0x80) {
    out += static_cast<char>(code_point);
  } else if (code_point < 0x800) {
    out += static_cast<char>(0xC0 | (code_point >> 6));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else if (code_point < 0x10000) {
    out += static_cast<char>(0xE0 | (code_point >> 12));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code_point >> 18));
    out += static_cast<char>(0x80 | ((code_point >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code_point & 0x3F));
  }
}

}  // namespace luaform::lua::yaml
