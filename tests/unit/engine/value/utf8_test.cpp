#include "host/engine/value/utf8.h"

#include <doctest/doctest.h>

#include <string>

#include "host/engine/codec/json_codec.h"
#include "host/engine/value/value.h"

using namespace luaform::engine;

namespace {

const std::string kFFFD = "\xEF\xBF\xBD";

// What the value codec writes for a string, without its quotes: JSON escapes aside, the text.
std::string through_json_codec(const std::string& text) {
  const std::string json = encode_value_json(Value::string(text), Type::string());
  return json.substr(1, json.size() - 2);
}

}  // namespace

TEST_CASE("well-formed UTF-8 is recognised, and every kind of ill-formed byte is not") {
  CHECK(is_valid_utf8(""));
  CHECK(is_valid_utf8("plain ASCII"));
  CHECK(is_valid_utf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"));  // é, €, an emoji
  CHECK(is_valid_utf8("\xF4\x8F\xBF\xBF"));                           // U+10FFFF, the last
  CHECK_FALSE(is_valid_utf8("caf\xC3"));                              // cut after the first byte
  CHECK_FALSE(is_valid_utf8("caf\xE9"));                              // Latin-1
  CHECK_FALSE(is_valid_utf8("\xA9"));                                 // a continuation byte alone
  CHECK_FALSE(is_valid_utf8("\xC0\xAF"));                             // overlong "/"
  CHECK_FALSE(is_valid_utf8("\xE0\x80\xAF"));                         // overlong, three bytes
  CHECK_FALSE(is_valid_utf8("\xED\xA0\x80"));                         // a surrogate, U+D800
  CHECK_FALSE(is_valid_utf8("\xF4\x90\x80\x80"));                     // past U+10FFFF
  CHECK_FALSE(is_valid_utf8("\xFF"));
}

TEST_CASE("ill-formed bytes become U+FFFD, one per maximal ill-formed part") {
  CHECK(valid_utf8("caf\xC3\xA9") == "caf\xC3\xA9");  // well-formed: as it is
  CHECK(valid_utf8("caf\xC3") == "caf" + kFFFD);      // a character cut at the end
  CHECK(valid_utf8("caf\xE9!") == "caf" + kFFFD + "!");
  CHECK(valid_utf8("\xE9t\xE9") == kFFFD + "t" + kFFFD);  // Latin-1 "été"
  // The start of a three-byte character, then ASCII: one replacement, and the ASCII kept.
  CHECK(valid_utf8("\xE2\x82(") == kFFFD + "(");
  // A byte that cannot continue the sequence starts again on its own.
  CHECK(valid_utf8("\xC3\xC3\xA9") == kFFFD + "\xC3\xA9");
  CHECK(valid_utf8("\xE0\x80") == kFFFD + kFFFD);  // E0 needs A0..BF next
  CHECK(valid_utf8("\xED\xA0\x80") == kFFFD + kFFFD + kFFFD);
  CHECK(valid_utf8("\xF0\x9F\x98") == kFFFD);  // an emoji's first three bytes
  CHECK(valid_utf8("\xFF\xFE") == kFFFD + kFFFD);
  CHECK(std::string(valid_utf8(std::string("a\0b", 3))) == std::string("a\0b", 3));
  for (const char* bad : {"caf\xC3", "\xE9t\xE9", "\xE2\x82(", "\xC3\xC3\xA9", "\xE0\x80",
                          "\xED\xA0\x80", "\xF0\x9F\x98", "\xFF\xFE", "\xF4\x90\x80\x80"}) {
    CAPTURE(bad);
    CHECK(is_valid_utf8(valid_utf8(bad)));
    // The same replacements as the value codec makes in the JSON it writes.
    CHECK(valid_utf8(bad) == through_json_codec(bad));
  }
}

TEST_CASE("a cut at a byte count moves back to the start of the character it would split") {
  const std::string text =
      "ab\xC3\xA9"     // é at bytes 2 and 3
      "\xE2\x82\xAC";  // € at bytes 4 to 6
  CHECK(utf8_prefix(text, 100) == text);
  CHECK(utf8_prefix(text, 7) == text);
  CHECK(utf8_prefix(text, 2) == "ab");
  CHECK(utf8_prefix(text, 3) == "ab");  // inside é
  CHECK(utf8_prefix(text, 4) == "ab\xC3\xA9");
  CHECK(utf8_prefix(text, 5) == "ab\xC3\xA9");  // inside €
  CHECK(utf8_prefix(text, 6) == "ab\xC3\xA9");
  CHECK(utf8_prefix(text, 0) == "");
  CHECK(utf8_prefix("\xF0\x9F\x98\x80!", 3) == "");  // an emoji cut anywhere goes whole
  // Bytes that are not UTF-8 are cut where the count says (they become U+FFFD later).
  CHECK(utf8_prefix("caf\xE9s", 4) == "caf\xE9");
  CHECK(utf8_prefix("\xA9\xA9\xA9\xA9\xA9", 3) == "\xA9\xA9\xA9");
  // 511 bytes of ASCII and an é across byte 512, as an HTTP error body quoted at 512 bytes.
  const std::string body = std::string(511, 'x') + "\xC3\xA9" + "tail";
  CHECK(utf8_prefix(body, 512) == std::string(511, 'x'));
  CHECK(is_valid_utf8(utf8_prefix(body, 512)));
}

TEST_CASE("an excerpt to quote is cut on a character, valid, and marked only when cut") {
  CHECK(utf8_excerpt("short", 100, " [...]") == "short");
  CHECK(utf8_excerpt("ab\xC3\xA9tail", 3, "...") == "ab...");       // not inside é
  CHECK(utf8_excerpt("caf\xE9", 100, "...") == "caf\xEF\xBF\xBD");  // Latin-1 é: U+FFFD
  CHECK(utf8_excerpt("caf\xE9s", 4, " [...]") == "caf\xEF\xBF\xBD [...]");
  CHECK(utf8_excerpt("", 0, "...") == "");
}

TEST_CASE("text for one line has its control characters escaped and stays valid UTF-8") {
  CHECK(one_line_text("Dune") == "Dune");
  CHECK(one_line_text("caf\xC3\xA9 \xE2\x82\xAC") == "caf\xC3\xA9 \xE2\x82\xAC");
  CHECK(one_line_text("a\nb\r\tc") == "a\\nb\\r\\tc");
  CHECK(one_line_text("\x1b[31mred\x1b[0m") == "\\x1b[31mred\\x1b[0m");
  CHECK(one_line_text("\a\b\f\v\x7f") == "\\a\\b\\f\\v\\x7f");
  CHECK(one_line_text(std::string("nul\0", 4)) == "nul\\x00");
  CHECK(one_line_text("\xC2\x9B"
                      "31m") == "\\u009b31m");     // C1's CSI
  CHECK(one_line_text("\xC2\xA0") == "\xC2\xA0");  // U+00A0 is no control
  CHECK(one_line_text("back\\slash") == "back\\slash");
  CHECK(one_line_text("caf\xE9\n") == "caf" + kFFFD + "\\n");
}
