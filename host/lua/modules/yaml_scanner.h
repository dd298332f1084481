// The YAML reader's view of the text (yaml_reader.cpp): where it is, what it may skip
// (spaces, comments, blank lines), and the pieces that have no structure of their own, read
// whole: plain, quoted and block scalars, anchor names and tags. It knows lines and
// indentation but not collections; the reader decides what the pieces make up. Every
// failure is a YamlError at a place in the text.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace luaform::lua::yaml {

class Scanner {
 public:
  // The text must outlive the scanner. A leading byte order mark is skipped; line breaks
  // must be "\n" (the reader turns "\r\n" into them first).
  explicit Scanner(std::string_view text);

  [[noreturn]] void fail(size_t at, const std::string& message) const;
  int line_of(size_t at) const;

  size_t pos() const { return pos_; }
  void advance(size_t count = 1) { pos_ += count; }
  bool eof() const { return pos_ >= text_.size(); }
  char cur() const { return at(pos_); }
  char at(size_t offset) const { return offset < text_.size() ? text_[offset] : '\0'; }

  // Columns are 0-based bytes from the line's start: indentation is spaces, so bytes are
  // columns where it matters.
  int column(size_t at) const;
  // Whether only spaces are before `at` on its line.
  bool first_on_line(size_t at) const;
  // A space, tab, line break or the end: what ends an indicator such as "-" or ":".
  bool ends_token(size_t at) const;
  // "---" or "..." at a line's start: '-' or '.', else 0.
  char marker_at(size_t at) const;
  // Not at the end, nor at a document marker.
  bool at_content() const { return !eof() && marker_at(pos_) == 0; }
  // Only a comment or nothing is left on the line (after skip_blanks).
  bool at_line_end() const { return eof() || cur() == '\n' || cur() == '#'; }
  bool at_sequence_entry() const { return cur() == '-' && ends_token(pos_ + 1); }
  bool at_flow_end() const;

  // Spaces and tabs on this line.
  void skip_blanks();
  // From a line's start: blank and comment lines, then the next line's indentation; tabs in
  // the indentation of a line with content are an error.
  void skip_blank_lines();
  // Spaces, tabs, line breaks and comments inside a flow collection.
  void skip_flow_space();
  // The rest of the line must be blank or a comment: past its line break.
  void finish_line(std::string_view after);
  // finish_line, then skip_blank_lines: at the next content.
  void end_line(std::string_view after);

  // An anchor's or alias's name, after its '&' or '*'.
  std::string_view name(bool flow);
  // A tag at its '!', as written.
  std::string_view tag(bool flow);
  // A single- or double-quoted scalar at its quote; `multiline` tells whether it spanned lines.
  std::string quoted(bool& multiline);
  // Refuses what cannot start a plain scalar (indicators, reserved characters).
  void check_plain_start(bool flow);
  // A plain scalar's text up to the end of its line, a ": " or a " #" (in flow, also a flow
  // indicator), without trailing spaces.
  std::string_view plain_line(bool flow);
  // Appends the plain scalar's continuation lines, folded: lines indented more than
  // `parent_indent` (any, in flow), until a blank-only end, a comment or a less indented line.
  void continue_plain(std::string& text, int parent_indent, bool flow);
  // A literal ('|') or folded ('>') block scalar at its indicator, for a node inside a
  // collection at `parent_indent`; ends at the start of the first line after it.
  std::string block_scalar(int parent_indent);

 private:
  void fold_quoted_space(std::string& out, size_t open, bool& multiline);
  void escape(std::string& out, size_t open);
  char32_t hex_escape(int digits, size_t escape_at);
  [[noreturn]] void unterminated(size_t open) const;

  std::string_view text_;
  size_t start_ = 0;  // past a byte order mark
  size_t pos_ = 0;
};

}  // namespace luaform::lua::yaml
