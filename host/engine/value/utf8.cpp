#include "host/engine/value/utf8.h"

#include <cstdint>

namespace luaform::engine {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

struct Sequence {
  size_t length;  // of the well-formed character at the position; 0 when there is none
  size_t taken;   // bytes that belong to it, or to its ill-formed start (at least 1)
};

// The character starting at `at` (which is inside `text`), by Unicode's table of well-formed
// byte sequences (Table 3-7): the second byte's range depends on the first, the others are
// 80..BF. An ill-formed start takes the bytes that could still have begun a character.
Sequence sequence_at(std::string_view text, size_t at) {
  const auto byte = [&](size_t i) { return static_cast<uint8_t>(text[i]); };
  const uint8_t first = byte(at);
  if (first < 0x80) return {1, 1};
  size_t need = 0;
  uint8_t low = 0x80;
  uint8_t high = 0xBF;
  if (first >= 0xC2 && first <= 0xDF) {
    need = 1;
  } else if (first == 0xE0) {
    need = 2;
    low = 0xA0;
  } else if (first == 0xED) {
    need = 2;
    high = 0x9F;  // not the surrogates
  } else if (first >= 0xE1 && first <= 0xEF) {
    need = 2;
  } else if (first == 0xF0) {
    need = 3;
    low = 0x90;
  } else if (first == 0xF4) {
    need = 3;
    high = 0x8F;  // nothing past U+10FFFF
  } else if (first >= 0xF1 && first <= 0xF3) {
    need = 3;
  } else {
    return {0, 1};  // a continuation byte alone, C0, C1 (overlong), F5..FF
  }
  size_t next = at + 1;
  for (size_t got = 0; got < need; ++got, ++next) {
    if (next >= text.size() || byte(next) < low || byte(next) > high) return {0, next - at};
    low = 0x80;
    high = 0xBF;
  }
  return {need + 1, need + 1};
}

void append_escaped(std::string& out, uint32_t code) {
  static constexpr char kHex[] = "0123456789abcdef";
  switch (code) {
    case '\a':
      out += "\\a";
      return;
    case '\b':
      out += "\\b";
      return;
    case '\f':
      out += "\\f";
      return;
    case '\n':
      out += "\\n";
      return;
    case '\r':
      out += "\\r";
      return;
    case '\t':
      out += "\\t";
      return;
    case '\v':
      out += "\\v";
      return;
    default:
      break;
  }
  out += code < 0x80 ? "\\x" : "\\u00";
  out += kHex[(code >> 4) & 0xF];
  out += kHex[code & 0xF];
}

}  // namespace

bool is_valid_utf8(std::string_view text) {
  for (size_t at = 0; at < text.size();) {
    const Sequence s = sequence_at(text, at);
    if (s.length == 0) return false;
    at += s.length;
  }
  return true;
}

std::string valid_utf8(std::string_view text) {
  if (is_valid_utf8(text)) return std::string(text);  // nearly always: one pass, one copy
  std::string out;
  out.reserve(text.size());
  for (size_t at = 0; at < text.size();) {
    const Sequence s = sequence_at(text, at);
    if (s.length == 0) {
      out += kReplacement;
    } else {
      out += text.substr(at, s.length);
    }
    at += s.taken;
  }
  return out;
}

std::string_view utf8_prefix(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  // A character is at most four bytes: its first byte is at most three before the cut.
  for (size_t back = 1; back <= 3 && back <= max_bytes; ++back) {
    const size_t start = max_bytes - back;
    const auto first = static_cast<uint8_t>(text[start]);
    if (first < 0x80) break;               // ASCII: the cut is after a whole character
    if ((first & 0xC0) == 0x80) continue;  // a continuation byte: look further back
    if (sequence_at(text, start).length > back) return text.substr(0, start);
    break;
  }
  return text.substr(0, max_bytes);
}

std::string utf8_excerpt(std::string_view text, size_t max_bytes, std::string_view marker) {
  const std::string_view cut = utf8_prefix(text, max_bytes);
  std::string excerpt = valid_utf8(cut);
  if (cut.size() < text.size()) excerpt += marker;
  return excerpt;
}

std::string one_line_text(std::string_view text) {
  const std::string valid = valid_utf8(text);
  std::string out;
  out.reserve(valid.size());
  for (size_t at = 0; at < valid.size(); ++at) {
    const auto c = static_cast<uint8_t>(valid[at]);
    if (c < 0x20 || c == 0x7F) {
      append_escaped(out, c);
    } else if (c == 0xC2 && at + 1 < valid.size() && static_cast<uint8_t>(valid[at + 1]) < 0xA0) {
      append_escaped(out, static_cast<uint8_t>(valid[++at]));  // U+0080..U+009F
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace luaform::engine
