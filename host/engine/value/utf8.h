// Text on its way to the CLI: protobuf's strings must be UTF-8 (the CLI refuses a whole message
// over one bad byte), and a name printed on a result line must stay on that line.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace luaform::engine {

// True when `text` is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
// past U+10FFFF).
bool is_valid_utf8(std::string_view text);

// `text` as well-formed UTF-8: each maximal part of an ill-formed sequence becomes one U+FFFD,
// as Unicode recommends and as the value codec's JSON does ("caf\xC3" -> "caf\uFFFD",
// "\xE9t\xE9" -> "\uFFFDt\uFFFD"). Well-formed text comes back as it is.
std::string valid_utf8(std::string_view text);

// The longest start of `text` of at most `max_bytes` bytes that does not end inside a
// character: a cut through a well-formed character moves back to the character's first byte.
// Ill-formed bytes are cut where they are (valid_utf8 makes them U+FFFD).
std::string_view utf8_prefix(std::string_view text, size_t max_bytes);

// An excerpt of `text` to quote in a message: valid_utf8 of its utf8_prefix of `max_bytes`,
// followed by `marker` when that cut something off.
std::string utf8_excerpt(std::string_view text, size_t max_bytes, std::string_view marker);

// `text` for one line of a terminal: valid_utf8, with every control character (Unicode's Cc:
// C0, DEL and C1, which some terminals obey too) escaped in the form Go's %q gives it: \a \b
// \f \n \r \t \v, else \x1b below U+0080 and \u009b above. A newline or an ANSI escape
// then shows as text instead of starting a line or a colour. Escaped rather than replaced, so
// the reader sees what was sent; other characters, backslashes included, are kept as they are.
std::string one_line_text(std::string_view text);

}  // namespace luaform::engine
