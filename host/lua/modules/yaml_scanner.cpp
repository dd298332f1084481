#include "host/lua/modules/yaml_scanner.h"

#include <algorithm>

#include "host/lua/modules/yaml_reader.h"
#include "host/lua/modules/yaml_scalars.h"

namespace luaform::lua::yaml {
namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t';
}

bool is_flow_indicator(char c) {
  return c == ',' || c == '[' || c == ']' || c == '{' || c == '}';
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') return (c | 0x20) - 'a' + 10;
  return -1;
}

// Quoted text in messages: short, and on one line.
std::string shown(char c) {
  if (c == '\0') return "the end of the text";
  return std::string("'") + c + "'";
}

}  // namespace

Scanner::Scanner(std::string_view text) : text_(text) {
  if (text_.starts_with("\xEF\xBB\xBF")) start_ = pos_ = 3;
}

void Scanner::fail(size_t at, const std::string& message) const {
  at = std::min(at, text_.size());
  size_t line_start = text_.substr(0, at).rfind('\n');
  line_start = line_start == std::string_view::npos ? start_ : line_start + 1;
  int column = 1;
  for (size_t i = line_start; i < at; ++i) {
    // UTF-8 continuation bytes are not characters of their own.
    if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80) ++column;
  }
  throw YamlError(line_of(at), column, message);
}

int Scanner::line_of(size_t at) const {
  const auto end = text_.begin() + static_cast<std::ptrdiff_t>(std::min(at, text_.size()));
  return 1 + static_cast<int>(std::count(text_.begin(), end, '\n'));
}

int Scanner::column(size_t at) const {
  size_t start = at;
  while (start > start_ && text_[start - 1] != '\n') --start;
  return static_cast<int>(at - start);
}

bool Scanner::first_on_line(size_t at) const {
  while (at > start_ && text_[at - 1] == ' ') --at;
  return at == start_ || text_[at - 1] == '\n';
}

bool Scanner::ends_token(size_t at) const {
  const char c = this->at(at);
  return at >= text_.size() || is_blank(c) || c == '\n';
}

char Scanner::marker_at(size_t at) const {
  if (at != start_ && this->at(at - 1) != '\n') return 0;
  const std::string_view head = text_.substr(std::min(at, text_.size()), 3);
  if ((head == "---" || head == "...") && ends_token(at + 3)) return head[0];
  return 0;
}

bool Scanner::at_flow_end() const {
  const char c = cur();
  return eof() || c == ',' || c == ']' || c == '}';
}

void Scanner::skip_blanks() {
  while (is_blank(cur())) ++pos_;
}

void Scanner::skip_blank_lines() {
  while (!eof()) {
    size_t at = pos_;
    size_t tab = std::string_view::npos;
    while (is_blank(this->at(at))) {
      if (text_[at] == '\t' && tab == std::string_view::npos) tab = at;
      ++at;
    }
    if (at >= text_.size()) {
      pos_ = at;
      return;
    }
    if (text_[at] == '#') at = std::min(text_.find('\n', at), text_.size());
    if (at >= text_.size()) {
      pos_ = at;
      return;
    }
    if (text_[at] == '\n') {
      pos_ = at + 1;
      continue;
    }
    // Tabs cannot indent: how far they reach depends on the editor, and so would the structure.
    if (tab != std::string_view::npos) {
      fail(tab, "a tab indents this line; YAML indents with spaces only");
    }
    pos_ = at;
    return;
  }
}

void Scanner::skip_flow_space() {
  for (;;) {
    const char c = cur();
    if (is_blank(c) || c == '\n') {
      ++pos_;
    } else if (c == '#' && (is_blank(at(pos_ - 1)) || at(pos_ - 1) == '\n')) {
      pos_ = std::min(text_.find('\n', pos_), text_.size());
    } else {
      return;
    }
  }
}

void Scanner::finish_line(std::string_view after) {
  skip_blanks();
  if (cur() == '#') pos_ = std::min(text_.find('\n', pos_), text_.size());
  if (eof()) return;
  if (cur() != '\n') {
    if (cur() == ':') {
      fail(pos_,
           "a mapping value is not allowed here (check the line's indentation, and quote a "
           "value that contains ': ')");
    }
    fail(pos_, "unexpected text after " + std::string(after));
  }
  ++pos_;
}

void Scanner::end_line(std::string_view after) {
  finish_line(after);
  skip_blank_lines();
}

std::string_view Scanner::name(bool flow) {
  const size_t start = pos_;
  while (!ends_token(pos_)) {
    const char c = cur();
    if (is_flow_indicator(c)) break;
    // "*a: b" uses the alias as a key; a ':' inside a name needs no space after it.
    if (c == ':' && (ends_token(pos_ + 1) || (flow && is_flow_indicator(at(pos_ + 1))))) break;
    ++pos_;
  }
  return text_.substr(start, pos_ - start);
}

std::string_view Scanner::tag(bool flow) {
  const size_t start = pos_;
  if (at(pos_ + 1) == '<') {
    const size_t close = text_.find_first_of(">\n", pos_);
    if (close == std::string_view::npos || text_[close] != '>') {
      fail(start, "a verbatim tag '!<' has no closing '>'");
    }
    pos_ = close + 1;
  } else {
    ++pos_;
    while (!ends_token(pos_) && !(flow && is_flow_indicator(cur()))) ++pos_;
  }
  return text_.substr(start, pos_ - start);
}

void Scanner::unterminated(size_t open) const {
  fail(open, text_[open] == '"' ? "a double-quoted scalar is not closed (no matching '\"')"
                                : "a single-quoted scalar is not closed (no matching \"'\")");
}

std::string Scanner::quoted(bool& multiline) {
  const size_t open = pos_;
  const char quote = cur();
  ++pos_;
  multiline = false;
  std::string out;
  for (;;) {
    if (eof()) unterminated(open);
    const char c = cur();
    if (c == quote) {
      if (quote == '\'' && at(pos_ + 1) == '\'') {
        out += '\'';
        pos_ += 2;
        continue;
      }
      ++pos_;
      return out;
    }
    if (c == '\\' && quote == '"') {
      escape(out, open);
    } else if (is_blank(c) || c == '\n') {
      fold_quoted_space(out, open, multiline);
    } else {
      // A run of ordinary characters, appended at once.
      size_t end = pos_ + 1;
      while (end < text_.size() && text_[end] != quote && text_[end] != '\\' &&
             !is_blank(text_[end]) && text_[end] != '\n') {
        ++end;
      }
      out.append(text_.substr(pos_, end - pos_));
      pos_ = end;
    }
  }
}

// Spaces inside a line stay; at a line break, the spaces around it go, one break becomes a
// space and each further (empty) line a "\n".
void Scanner::fold_quoted_space(std::string& out, size_t open, bool& multiline) {
  size_t end = pos_;
  while (is_blank(at(end))) ++end;
  if (at(end) != '\n') {
    out.append(text_.substr(pos_, end - pos_));
    pos_ = end;
    return;
  }
  multiline = true;
  int breaks = 0;
  while (at(end) == '\n') {
    ++end;
    ++breaks;
    // A document marker cannot be inside a scalar: the quote was never closed.
    if (marker_at(end) != 0) unterminated(open);
    while (is_blank(at(end))) ++end;
  }
  if (breaks == 1) {
    out += ' ';
  } else {
    out.append(static_cast<size_t>(breaks - 1), '\n');
  }
  pos_ = end;
}

char32_t Scanner::hex_escape(int digits, size_t escape_at) {
  char32_t value = 0;
  for (int i = 0; i < digits; ++i) {
    const int digit = hex_value(cur());
    if (digit < 0) {
      fail(escape_at, "the escape '\\" + std::string(1, text_[escape_at + 1]) + "' needs " +
                          std::to_string(digits) + " hexadecimal digits");
    }
    value = value * 16 + static_cast<char32_t>(digit);
    ++pos_;
  }
  return value;
}

void Scanner::escape(std::string& out, size_t open) {
  const size_t escape_at = pos_;
  ++pos_;
  if (eof()) unterminated(open);
  const char c = cur();
  ++pos_;
  switch (c) {
    case '0':
      out += '\0';
      return;
    case 'a':
      out += '\a';
      return;
    case 'b':
      out += '\b';
      return;
    case 't':
    case '\t':
      out += '\t';
      return;
    case 'n':
      out += '\n';
      return;
    case 'v':
      out += '\v';
      return;
    case 'f':
      out += '\f';
      return;
    case 'r':
      out += '\r';
      return;
    case 'e':
      out += '\x1b';
      return;
    case ' ':
    case '"':
    case '/':
    case '\\':
      out += c;
      return;
    case 'N':
      append_utf8(out, 0x85);
      return;
    case '_':
      append_utf8(out, 0xA0);
      return;
    case 'L':
      append_utf8(out, 0x2028);
      return;
    case 'P':
      append_utf8(out, 0x2029);
      return;
    case 'x':
      append_utf8(out, hex_escape(2, escape_at));
      return;
    case '\n':
      // An escaped line break joins the lines without a space.
      skip_blanks();
      return;
    case 'u':
    case 'U': {
      char32_t code_point = hex_escape(c == 'u' ? 4 : 8, escape_at);
      // JSON writes characters beyond U+FFFF as a pair of UTF-16 escapes.
      if (c == 'u' && code_point >= 0xD800 && code_point < 0xDC00 && cur() == '\\' &&
          at(pos_ + 1) == 'u') {
        const size_t low_at = pos_;
        pos_ += 2;
        const char32_t low = hex_escape(4, low_at);
        if (low < 0xDC00 || low > 0xDFFF) {
          fail(low_at, "'\\u' after a high surrogate must be a low surrogate (DC00 to DFFF)");
        }
        code_point = 0x10000 + ((code_point - 0xD800) << 10) + (low - 0xDC00);
      }
      if ((code_point >= 0xD800 && code_point <= 0xDFFF) || code_point > 0x10FFFF) {
        fail(escape_at,
             "the escape is not a Unicode character (a lone surrogate, or beyond "
             "U+10FFFF)");
      }
      append_utf8(out, code_point);
      return;
    }
    default:
      fail(escape_at, "unknown escape '\\" + std::string(1, c) + "' in a double-quoted scalar");
  }
}

void Scanner::check_plain_start(bool flow) {
  const char c = cur();
  switch (c) {
    case '@':
    case '`':
    case '%':
      fail(pos_, shown(c) + " cannot start a plain scalar; quote the value");
    case '#':
      fail(pos_, "a comment's '#' must follow a space; quote a value that starts with '#'");
    case '|':
    case '>':
      fail(pos_, flow ? "a block scalar ('|' or '>') cannot be inside a flow collection"
                      : "a block scalar ('|' or '>') cannot be a mapping key");
    case ',':
    case '[':
    case ']':
    case '{':
    case '}':
      fail(pos_, "unexpected " + shown(c));
    case '-':
    case '?':
    case ':':
      if (ends_token(pos_ + 1) || (flow && is_flow_indicator(at(pos_ + 1)))) {
        fail(pos_,
             c == ':' ? "a mapping entry has no key before its ':'" : "unexpected " + shown(c));
      }
      return;
    case '\0':
      if (eof()) fail(pos_, "unexpected end of the text");
      return;
    default:
      return;
  }
}

std::string_view Scanner::plain_line(bool flow) {
  const size_t start = pos_;
  size_t end = pos_;
  while (end < text_.size()) {
    const char c = text_[end];
    if (c == '\n') break;
    if (c == ':' && (ends_token(end + 1) || (flow && is_flow_indicator(at(end + 1))))) {
      break;
    }
    if (c == '#' && end > start && is_blank(text_[end - 1])) break;
    if (flow && is_flow_indicator(c)) break;
    ++end;
  }
  while (end > start && is_blank(text_[end - 1])) --end;
  pos_ = end;
  return text_.substr(start, end - start);
}

void Scanner::continue_plain(std::string& text, int parent_indent, bool flow) {
  for (;;) {
    size_t at = pos_;
    while (is_blank(this->at(at))) ++at;
    // A comment, a ':' or the end stops the scalar; only a line break may continue it.
    if (this->at(at) != '\n') return;
    int breaks = 0;
    size_t line = at;
    while (this->at(at) == '\n') {
      ++at;
      ++breaks;
      line = at;
      while (this->at(at) == ' ') ++at;
      const size_t indented = at;
      while (is_blank(this->at(at))) ++at;
      if (this->at(at) != '\n') at = indented;  // the indentation is the spaces alone
    }
    const int indent = static_cast<int>(at - line);
    while (is_blank(this->at(at))) ++at;
    if (at >= text_.size() || text_[at] == '#' || marker_at(line) != 0) return;
    if (!flow && indent <= parent_indent) return;
    const size_t before = pos_;
    pos_ = at;
    const std::string_view more = flow && is_flow_indicator(cur()) ? "" : plain_line(flow);
    if (more.empty()) {
      pos_ = before;
      return;
    }
    if (breaks == 1) {
      text += ' ';
    } else {
      text.append(static_cast<size_t>(breaks - 1), '\n');
    }
    text += more;
  }
}

std::string Scanner::block_scalar(int parent_indent) {
  const bool literal = cur() == '|';
  ++pos_;
  enum class Chomp { clip, strip, keep } chomp = Chomp::clip;
  int indent = 0;
  for (int i = 0; i < 2; ++i) {
    const char c = cur();
    if ((c == '-' || c == '+') && chomp == Chomp::clip) {
      chomp = c == '-' ? Chomp::strip : Chomp::keep;
    } else if (c >= '1' && c <= '9' && indent == 0) {
      indent = std::max(parent_indent, 0) + (c - '0');
    } else if (c == '0') {
      fail(pos_, "a block scalar's indentation indicator must be 1 to 9");
    } else {
      break;
    }
    ++pos_;
  }
  if (!ends_token(pos_) && cur() != '#') {
    fail(pos_, "unexpected text after the block scalar's indicator");
  }
  finish_line("the block scalar's indicator");

  if (indent == 0) {
    // Without an indicator, the first line with text sets the indentation.
    size_t at = pos_;
    for (;;) {
      const size_t line = at;
      while (this->at(at) == ' ') ++at;
      if (this->at(at) == '\n') {
        ++at;
        continue;
      }
      indent = std::max(static_cast<int>(at - line), parent_indent + 1);
      break;
    }
  }

  std::string out;
  int blanks = 0;  // empty lines since the last line with text
  bool any = false;
  bool more_indented = false;  // the last line with text (folded scalars keep its breaks)
  bool last_break = false;     // whether the last line with text ends in a line break
  while (!eof()) {
    const size_t line = pos_;
    if (marker_at(line) != 0) break;
    size_t at = line;
    while (static_cast<int>(at - line) < indent && this->at(at) == ' ') ++at;
    if (static_cast<int>(at - line) < indent) {
      if (at >= text_.size()) {
        pos_ = at;  // spaces without a line break: not a line of the scalar
        break;
      }
      if (text_[at] != '\n') break;  // less indented text: the end
      ++blanks;
      pos_ = at + 1;
      continue;
    }
    const size_t end = std::min(text_.find('\n', at), text_.size());
    const std::string_view content = text_.substr(at, end - at);
    const bool has_break = end < text_.size();
    pos_ = has_break ? end + 1 : end;
    // Lines of spaces alone before the first text are empty lines, however long.
    if (content.empty() || (!any && content.find_first_not_of(' ') == std::string_view::npos)) {
      if (has_break) ++blanks;
      continue;
    }
    const bool more = !literal && is_blank(content[0]);
    if (any && (literal || more || more_indented)) {
      out.append(static_cast<size_t>(blanks) + 1, '\n');  // the break kept, and the empty lines
    } else if (any && blanks == 0) {
      out += ' ';  // folding: a single break between lines of text is a space
    } else {
      // Empty lines before the text, or those a folded break leaves (the break itself goes).
      out.append(static_cast<size_t>(blanks), '\n');
    }
    out += content;
    any = true;
    more_indented = more;
    last_break = has_break;
    blanks = 0;
  }
  // The text's last line break is kept unless stripped (a text that ends the file may have
  // none); the empty lines after it only when kept.
  const bool final_break = any && last_break;
  if (chomp == Chomp::keep) {
    out.append(static_cast<size_t>(blanks) + (final_break ? 1 : 0), '\n');
  } else if (chomp == Chomp::clip && final_break) {
    out += '\n';
  }
  return out;
}

}  // namespace luaform::lua::yaml
