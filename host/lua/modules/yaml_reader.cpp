#include "host/lua/modules/yaml_reader.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "host/lua/modules/yaml_nodes.h"
#include "host/lua/modules/yaml_scalars.h"
#include "host/lua/modules/yaml_scanner.h"

namespace luaform::lua {

YamlError::YamlError(int line, int column, const std::string& message)
    : std::runtime_error("line " + std::to_string(line) + ", column " + std::to_string(column) +
                         ": " + message),
      line_(line),
      column_(column) {}

namespace {

using yaml::Entry;
using yaml::Kind;
using yaml::Node;
using yaml::Scanner;
using yaml::Tag;

// An anchor and a tag, either of which a node may have.
struct Props {
  std::string_view anchor;
  size_t anchor_at = 0;
  std::string_view tag_text;
  Tag tag = Tag::none;
  size_t tag_at = 0;
  bool empty() const { return anchor.empty() && tag_text.empty(); }
};

struct Key {
  std::string text;
  size_t pos = 0;
  bool merge = false;      // a plain `<<`
  bool explicit_ = false;  // `? key` then `: value`, whose value may start on the ':' line
};

// What starts a scalar or an alias, before a ':' after it tells whether it is a key.
struct Head {
  enum class Style : std::uint8_t { plain, quoted, alias } style = Style::plain;
  std::string text;  // an alias's name
  size_t pos = 0;
  bool multiline = false;
};

// Where a block node is: a collection may start on the line of a "- " or of an explicit
// key's ": ", but not on a "key: " line.
enum class Place : std::uint8_t { root, map_value, seq_entry, explicit_value };

enum class FrameKind : std::uint8_t {
  block_mapping,
  block_sequence,
  flow_sequence,
  flow_mapping,
  flow_pair,  // `[a: b]`: a sequence's entry that is a mapping of one pair
};

// A collection being read. Open collections are a stack on the heap, not frames of a
// recursion: a document at the depth bound takes no more of the thread's stack than a flat one.
struct Frame {
  FrameKind kind = FrameKind::block_mapping;
  int indent = 0;              // block: the column of its keys or of its '-'
  bool at_key_indent = false;  // block sequence: a mapping's value at the indentation of its key
  bool in_block = false;       // flow: in block context, so its line must end after it
  bool merged = false;         // mapping: has a `<<`
  size_t start = 0;
  Props props;
  Key key;  // mapping: the key whose value is being read
  std::vector<Node*> items;
  yaml::MappingEntries entries;
};

// What the reader reads next: a node in block context, or one in a flow collection.
struct Want {
  bool flow = false;
  bool seq_entry = false;  // flow: a sequence's entry, which may be a `key: value` pair
  int parent_indent = -1;  // block: the indentation of the collection it is in
  Place place = Place::root;

  static Want block(int parent_indent, Place place) { return {false, false, parent_indent, place}; }
  static Want flow_node(bool seq_entry) { return {true, seq_entry, -1, Place::root}; }
};

// A key or value in a message: quoted, on one line, and cut when long (not inside a
// character).
std::string quoted_text(std::string_view text) {
  constexpr size_t kShown = 60;
  std::string out = "\"";
  size_t end = std::min(text.size(), kShown);
  while (end < text.size() && end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) {
    --end;
  }
  for (const char c : text.substr(0, end)) {
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out + (end < text.size() ? "...\"" : "\"");
}

// The structure of a document: block collections by their indentation, flow collections by
// their brackets, anchors and aliases, keys and merges. The scanner reads the pieces; the
// nodes hold what they make.
class Reader {
 public:
  explicit Reader(std::string_view text) : in_(text) { frames_.reserve(32); }

  nlohmann::json document();

 private:
  Node* root();
  Node* begin_block(int parent_indent, Place place);
  Node* begin_flow(bool seq_entry);
  Node* add_to_top(Node* node);
  Node* flow_next(bool after_entry);
  Node* close_top();
  void open(FrameKind kind, size_t start, const Props& props);

  Props properties(bool flow);
  Props merged(const Props& outer, const Props& inner) const;
  Head head(bool flow);
  Key key_of(Head head, const Props& props);
  Key block_key();
  Key explicit_key(int indent);
  Key flow_key();
  Node* value_of(Head head, const Props& props);
  Node* named(const Head& alias) const;
  Node* alias(const Head& head);
  Node* scalar(std::string text, bool plain, const Props& props);
  Node* empty(const Props& props) { return scalar(std::string(), true, props); }
  Node* finish(Node* node, const Props& props);

  void add_entry(Frame& frame, Key key, Node* value);

  Scanner in_;
  yaml::Nodes nodes_;
  std::vector<Frame> frames_;
  std::unordered_map<std::string_view, Node*> anchors_;  // null while its node is being read
  std::unordered_map<const Node*, std::string> anchored_texts_;  // for aliases used as keys
  std::uint64_t expanded_ = 0;                                   // nodes aliases have added
  Want want_;
};

nlohmann::json Reader::document() {
  in_.skip_blank_lines();
  bool directives = false;
  while (in_.cur() == '%' && in_.column(in_.pos()) == 0) {
    // %YAML and %TAG change nothing this reader does.
    directives = true;
    while (!in_.eof() && in_.cur() != '\n') in_.advance();
    in_.end_line("a directive");
  }
  Node* node = nullptr;
  if (in_.marker_at(in_.pos()) == '-') {
    in_.advance(3);
    node = root();
  } else {
    if (directives) {
      in_.fail(in_.pos(), "directives ('%') must be followed by a document start ('---')");
    }
    if (in_.at_content()) node = root();
  }
  bool ended = false;
  if (in_.marker_at(in_.pos()) == '.') {
    in_.advance(3);
    in_.end_line("the document end marker '...'");
    ended = true;
  }
  if (!in_.eof()) {
    if (in_.marker_at(in_.pos()) == '-') {
      in_.fail(in_.pos(), "a second document ('---') is not supported: the text must hold one");
    }
    in_.fail(in_.pos(), ended ? "only comments may follow the document end marker '...'"
                              : "unexpected text after the document (check its indentation)");
  }
  if (node == nullptr) return nullptr;
  return yaml::to_json(node);
}

// The loop that replaces recursion: a node either is complete, and goes to the collection it
// is in, or opens a collection, whose entries come next.
Node* Reader::root() {
  Node* node = begin_block(-1, Place::root);
  for (;;) {
    while (node != nullptr) {
      if (frames_.empty()) return node;
      node = add_to_top(node);
    }
    node = want_.flow ? begin_flow(want_.seq_entry) : begin_block(want_.parent_indent, want_.place);
  }
}

// A node in block context, just after its "-", its "key:" or the document's start.
Node* Reader::begin_block(int parent_indent, Place place) {
  in_.skip_blanks();
  size_t start = in_.pos();
  Props outer;  // properties on lines of their own, for the node on the lines below
  Props inner = properties(false);
  bool line_start = in_.first_on_line(start);
  while (in_.at_line_end()) {
    outer = merged(outer, inner);
    in_.end_line("the node's anchor or tag");
    if (!in_.at_content()) return empty(outer);
    const int column = in_.column(in_.pos());
    // A mapping's value may be a sequence at the indentation of its key.
    const bool below =
        column > parent_indent ||
        (column == parent_indent && place == Place::map_value && in_.at_sequence_entry());
    if (!below) return empty(outer);
    start = in_.pos();
    inner = properties(false);
    line_start = true;
  }
  const int indent = in_.column(start);
  const bool collection_here =
      line_start || place == Place::seq_entry || place == Place::explicit_value;

  if (in_.at_sequence_entry()) {
    if (!inner.empty()) {
      in_.fail(in_.pos(),
               "a block sequence cannot follow an anchor or tag on its line; start its entries "
               "on the next line");
    }
    if (!collection_here) {
      in_.fail(in_.pos(),
               "a block sequence cannot start on the line of its key; start it on the next line");
    }
    open(FrameKind::block_sequence, start, outer);
    frames_.back().indent = indent;
    frames_.back().at_key_indent = indent == parent_indent;
    in_.advance();
    want_ = Want::block(indent, Place::seq_entry);
    return nullptr;
  }
  const char c = in_.cur();
  if (c == '?' && in_.ends_token(in_.pos() + 1)) {
    if (!inner.empty()) in_.fail(in_.pos(), "an anchor or tag cannot be before '? '");
    if (!collection_here) {
      in_.fail(in_.pos(), "an explicit key ('? ') cannot be on the line of another key");
    }
    open(FrameKind::block_mapping, start, outer);
    frames_.back().indent = indent;
    frames_.back().key = explicit_key(indent);
    want_ = Want::block(indent, Place::explicit_value);
    return nullptr;
  }
  if (c == '|' || c == '>') {
    const Props props = merged(outer, inner);
    std::string text = in_.block_scalar(parent_indent);
    in_.skip_blank_lines();
    return scalar(std::move(text), false, props);
  }
  if (c == '[' || c == '{') {
    open(c == '[' ? FrameKind::flow_sequence : FrameKind::flow_mapping, in_.pos(),
         merged(outer, inner));
    frames_.back().in_block = true;
    in_.advance();
    return flow_next(false);
  }
  Head first = head(false);
  in_.skip_blanks();
  if (in_.cur() == ':') {
    if (!collection_here) {
      in_.fail(in_.pos(),
               "a mapping value is not allowed here (a nested mapping starts on the next line; "
               "quote a value that contains ': ')");
    }
    open(FrameKind::block_mapping, start, outer);
    frames_.back().indent = indent;
    frames_.back().key = key_of(std::move(first), inner);
    in_.advance();
    want_ = Want::block(indent, Place::map_value);
    return nullptr;
  }
  if (first.style == Head::Style::plain) in_.continue_plain(first.text, parent_indent, false);
  Node* node = value_of(std::move(first), merged(outer, inner));
  in_.end_line("the value");
  return node;
}

// A node in a flow collection, at its first character.
Node* Reader::begin_flow(bool seq_entry) {
  const size_t start = in_.pos();
  if (in_.cur() == '?' && in_.ends_token(in_.pos() + 1)) {
    in_.fail(in_.pos(), "explicit keys ('? ') are not supported in flow collections");
  }
  const Props props = properties(true);
  const char c = in_.cur();
  if (c == '[' || c == '{') {
    open(c == '[' ? FrameKind::flow_sequence : FrameKind::flow_mapping, in_.pos(), props);
    in_.advance();
    return flow_next(false);
  }
  if (in_.at_flow_end()) return empty(props);
  Head first = head(true);
  if (first.style == Head::Style::plain) in_.continue_plain(first.text, -1, true);
  if (seq_entry) {
    in_.skip_flow_space();
    if (in_.cur() == ':') {
      open(FrameKind::flow_pair, start, Props{});
      frames_.back().key = key_of(std::move(first), props);
      in_.advance();
      in_.skip_flow_space();
      if (in_.at_flow_end()) return add_to_top(empty(Props{}));
      want_ = Want::flow_node(false);
      return nullptr;
    }
  }
  return value_of(std::move(first), props);
}

// Gives a complete node to the innermost open collection, then reads on: the collection's
// next entry (nothing is returned; want_ says what comes), or its end (it is returned).
Node* Reader::add_to_top(Node* node) {
  Frame& frame = frames_.back();
  switch (frame.kind) {
    case FrameKind::block_mapping: {
      add_entry(frame, std::move(frame.key), node);
      if (!in_.at_content() || in_.column(in_.pos()) < frame.indent) return close_top();
      if (in_.column(in_.pos()) > frame.indent) {
        in_.fail(in_.pos(), "bad indentation: this mapping's keys are at column " +
                                std::to_string(frame.indent + 1));
      }
      frame.key = block_key();
      want_ =
          Want::block(frame.indent, frame.key.explicit_ ? Place::explicit_value : Place::map_value);
      return nullptr;
    }
    case FrameKind::block_sequence: {
      frame.items.push_back(node);
      if (!in_.at_content() || in_.column(in_.pos()) < frame.indent) return close_top();
      if (in_.column(in_.pos()) > frame.indent) {
        in_.fail(in_.pos(), "bad indentation: this sequence's entries are at column " +
                                std::to_string(frame.indent + 1));
      }
      if (!in_.at_sequence_entry()) {
        if (frame.at_key_indent) return close_top();  // the mapping's next key
        in_.fail(in_.pos(), "expected a sequence entry ('- ') at this indentation");
      }
      in_.advance();
      want_ = Want::block(frame.indent, Place::seq_entry);
      return nullptr;
    }
    case FrameKind::flow_sequence:
      frame.items.push_back(node);
      in_.skip_flow_space();
      if (in_.cur() == ':') {
        in_.fail(in_.pos(),
                 "unexpected ':' (keys must be scalars, and a flow sequence's entry holds one "
                 "'key: value' at most)");
      }
      return flow_next(true);
    case FrameKind::flow_mapping:
      add_entry(frame, std::move(frame.key), node);
      return flow_next(true);
    case FrameKind::flow_pair:
      add_entry(frame, std::move(frame.key), node);
      return close_top();
  }
  return nullptr;
}

// In a flow collection, after its opening bracket or an entry: the next entry, or the end.
Node* Reader::flow_next(bool after_entry) {
  for (;;) {
    Frame& frame = frames_.back();
    const bool sequence = frame.kind == FrameKind::flow_sequence;
    const char close = sequence ? ']' : '}';
    const auto check_open = [&] {
      in_.skip_flow_space();
      if (in_.eof() || in_.marker_at(in_.pos()) != 0) {
        in_.fail(frame.start, sequence ? "a flow sequence is not closed (no matching ']')"
                                       : "a flow mapping is not closed (no matching '}')");
      }
    };
    check_open();
    if (after_entry) {
      if (in_.cur() == ',') {
        in_.advance();
        check_open();
      } else if (in_.cur() != close) {
        in_.fail(in_.pos(), std::string("expected ',' or '") + close + "' in this flow " +
                                (sequence ? "sequence" : "mapping"));
      }
    }
    if (in_.cur() == close) {
      in_.advance();
      return close_top();
    }
    if (in_.cur() == ',') in_.fail(in_.pos(), "an empty entry in a flow collection");
    if (sequence) {
      want_ = Want::flow_node(true);
      return nullptr;
    }
    frame.key = flow_key();
    in_.skip_flow_space();
    if (in_.cur() == ':') {
      in_.advance();
      in_.skip_flow_space();
      if (!in_.at_flow_end()) {
        want_ = Want::flow_node(false);
        return nullptr;
      }
    }
    add_entry(frame, std::move(frame.key), empty(Props{}));  // `{a}` and `{a: }` are nulls
    after_entry = true;
  }
}

Node* Reader::close_top() {
  Frame& frame = frames_.back();
  Node* node = frame.kind == FrameKind::block_sequence || frame.kind == FrameKind::flow_sequence
                   ? nodes_.sequence(std::move(frame.items))
                   : nodes_.mapping(frame.entries.take());
  node = finish(node, frame.props);
  const bool in_block = frame.in_block;
  frames_.pop_back();
  if (in_block) {
    in_.skip_blanks();
    if (in_.cur() == ':') {
      in_.fail(in_.pos(), "a mapping key must be a scalar: collections as keys are not supported");
    }
    in_.end_line("the flow collection");
  }
  return node;
}

void Reader::open(FrameKind kind, size_t start, const Props& props) {
  if (frames_.size() >= kMaxYamlDepth) {
    in_.fail(start, "nesting deeper than " + std::to_string(kMaxYamlDepth) + " levels");
  }
  Frame& frame = frames_.emplace_back();
  // Most sequences are short: one allocation instead of growing by 1, 2, 4.
  if (kind == FrameKind::block_sequence || kind == FrameKind::flow_sequence) {
    frame.items.reserve(8);
  }
  frame.kind = kind;
  frame.start = start;
  frame.props = props;
}

Props Reader::properties(bool flow) {
  Props props;
  for (;;) {
    const char c = in_.cur();
    if (c == '&') {
      if (!props.anchor.empty()) in_.fail(in_.pos(), "a node can have only one anchor");
      props.anchor_at = in_.pos();
      in_.advance();
      props.anchor = in_.name(flow);
      if (props.anchor.empty()) in_.fail(props.anchor_at, "an anchor needs a name after '&'");
      anchors_[props.anchor] = nullptr;  // until its node is complete: no alias may be in it
    } else if (c == '!') {
      if (!props.tag_text.empty()) in_.fail(in_.pos(), "a node can have only one tag");
      props.tag_at = in_.pos();
      props.tag_text = in_.tag(flow);
      props.tag = yaml::classify_tag(props.tag_text);
    } else {
      return props;
    }
    if (flow) {
      in_.skip_flow_space();
    } else {
      in_.skip_blanks();
    }
  }
}

Props Reader::merged(const Props& outer, const Props& inner) const {
  Props props = outer;
  if (!inner.anchor.empty()) {
    if (!outer.anchor.empty()) in_.fail(inner.anchor_at, "a node can have only one anchor");
    props.anchor = inner.anchor;
    props.anchor_at = inner.anchor_at;
  }
  if (!inner.tag_text.empty()) {
    if (!outer.tag_text.empty()) in_.fail(inner.tag_at, "a node can have only one tag");
    props.tag_text = inner.tag_text;
    props.tag = inner.tag;
    props.tag_at = inner.tag_at;
  }
  return props;
}

Head Reader::head(bool flow) {
  Head head;
  head.pos = in_.pos();
  const char c = in_.cur();
  if (c == '*') {
    in_.advance();
    head.style = Head::Style::alias;
    head.text = std::string(in_.name(flow));
    if (head.text.empty()) in_.fail(head.pos, "an alias needs a name after '*'");
  } else if (c == '"' || c == '\'') {
    head.style = Head::Style::quoted;
    head.text = in_.quoted(head.multiline);
  } else {
    in_.check_plain_start(flow);
    head.text = std::string(in_.plain_line(flow));
  }
  return head;
}

// Keys are strings whatever they look like: OpenAPI's `200:` is "200".
Key Reader::key_of(Head head, const Props& props) {
  if (head.multiline) in_.fail(head.pos, "a mapping key must be on one line");
  Key key;
  key.pos = head.pos;
  if (head.style == Head::Style::alias) {
    if (!props.empty()) in_.fail(head.pos, "an alias cannot have an anchor or tag");
    const Node* target = named(head);
    if (target->kind != Kind::scalar) {
      in_.fail(head.pos, "the alias '*" + head.text + "' is a key but names a collection");
    }
    key.text = anchored_texts_[target];
    return key;
  }
  key.merge = head.style == Head::Style::plain && head.text == "<<" && props.tag_text.empty();
  if (!props.anchor.empty()) scalar(head.text, head.style == Head::Style::plain, props);
  key.text = std::move(head.text);
  return key;
}

// A block mapping's next key, at its indentation; the ':' after it is consumed.
Key Reader::block_key() {
  const size_t start = in_.pos();
  if (in_.at_sequence_entry()) {
    in_.fail(start, "expected a mapping key, found a sequence entry ('- ')");
  }
  if (in_.cur() == '?' && in_.ends_token(start + 1)) return explicit_key(in_.column(start));
  const Props props = properties(false);
  if (in_.cur() == '[' || in_.cur() == '{') {
    in_.fail(in_.pos(), "a mapping key must be a scalar: collections as keys are not supported");
  }
  if (in_.at_line_end()) in_.fail(start, "expected a mapping key after the anchor or tag");
  Head first = head(false);
  in_.skip_blanks();
  if (in_.cur() != ':') {
    in_.fail(first.pos, "expected 'key: value' in this mapping, but no ':' follows " +
                            quoted_text(first.text));
  }
  Key key = key_of(std::move(first), props);
  in_.advance();
  return key;
}

// `? key` and, at the same indentation, `: value`: how writers spell keys too long for a line
// of their own (YAML limits implicit keys to 1024 characters). Only scalars are keys here.
Key Reader::explicit_key(int indent) {
  const size_t start = in_.pos();
  in_.advance();
  in_.skip_blanks();
  const Props props = properties(false);
  const char c = in_.cur();
  if (in_.at_line_end()) {
    in_.fail(start, "an explicit key ('? ') must have its key on the same line");
  }
  if (c == '[' || c == '{' || c == '|' || c == '>' || in_.at_sequence_entry()) {
    in_.fail(in_.pos(),
             "a mapping key must be a scalar: collections and block scalars as keys "
             "are not supported");
  }
  Head first = head(false);
  if (first.style == Head::Style::plain) in_.continue_plain(first.text, indent, false);
  first.multiline = false;  // an explicit key may span lines
  Key key = key_of(std::move(first), props);
  key.explicit_ = true;
  in_.end_line("the explicit key");
  if (!in_.at_content() || in_.column(in_.pos()) != indent || in_.cur() != ':' ||
      !in_.ends_token(in_.pos() + 1)) {
    in_.fail(start,
             "an explicit key ('? ') needs a ': ' line with its value, at its "
             "indentation");
  }
  in_.advance();
  return key;
}

// A flow mapping's key, at its first character; the ':' after it is left to the caller.
Key Reader::flow_key() {
  if (in_.cur() == '?' && in_.ends_token(in_.pos() + 1)) {
    in_.fail(in_.pos(), "explicit keys ('? ') are not supported in flow collections");
  }
  const Props props = properties(true);
  if (in_.cur() == '[' || in_.cur() == '{') {
    in_.fail(in_.pos(), "a mapping key must be a scalar: collections as keys are not supported");
  }
  if (in_.at_flow_end()) in_.fail(in_.pos(), "expected a mapping key");
  Head first = head(true);
  if (first.style == Head::Style::plain) in_.continue_plain(first.text, -1, true);
  return key_of(std::move(first), props);
}

Node* Reader::value_of(Head head, const Props& props) {
  if (head.style == Head::Style::alias) {
    if (!props.empty()) {
      in_.fail(props.anchor.empty() ? props.tag_at : props.anchor_at,
               "an alias cannot have an anchor or tag");
    }
    return alias(head);
  }
  return scalar(std::move(head.text), head.style == Head::Style::plain, props);
}

Node* Reader::named(const Head& alias) const {
  const auto found = anchors_.find(alias.text);
  if (found == anchors_.end()) {
    in_.fail(alias.pos,
             "unknown alias '*" + alias.text + "' (no anchor '&" + alias.text + "' before it)");
  }
  if (found->second == nullptr) {
    in_.fail(alias.pos, "the alias '*" + alias.text +
                            "' is inside the node its anchor names (recursive aliases are not "
                            "supported)");
  }
  return found->second;
}

// An alias used as a value: the node it names, counted as the copy the JSON will hold.
Node* Reader::alias(const Head& head) {
  Node* target = named(head);
  if (frames_.size() + static_cast<size_t>(target->height) > kMaxYamlDepth) {
    in_.fail(head.pos, "nesting deeper than " + std::to_string(kMaxYamlDepth) +
                           " levels (through the alias '*" + head.text + "')");
  }
  expanded_ += target->size;
  if (expanded_ > kMaxYamlAliasNodes) {
    in_.fail(head.pos,
             "aliases expand to more than " + std::to_string(kMaxYamlAliasNodes) + " nodes");
  }
  target->shared = true;
  return target;
}

Node* Reader::scalar(std::string text, bool plain, const Props& props) {
  std::string anchored_text = props.anchor.empty() ? std::string() : text;
  auto value = yaml::resolve_scalar(text, plain, props.tag);
  if (!value) {
    in_.fail(props.tag_at, "the value " + quoted_text(text) + " does not fit its tag " +
                               std::string(props.tag_text));
  }
  Node* node = nodes_.scalar(std::move(*value));
  if (!props.anchor.empty()) anchored_texts_[node] = std::move(anchored_text);
  return finish(node, props);
}

Node* Reader::finish(Node* node, const Props& props) {
  if (!props.anchor.empty()) anchors_[props.anchor] = node;
  return node;
}

void Reader::add_entry(Frame& frame, Key key, Node* value) {
  if (key.merge) {
    if (frame.merged) in_.fail(key.pos, "duplicate key \"<<\"");
    frame.merged = true;
    const auto take = [&](Node* source) {
      if (source->kind != Kind::mapping) {
        in_.fail(key.pos, "the merge key '<<' takes a mapping or a list of mappings");
      }
      frame.entries.merge(source);
    };
    if (value->kind == Kind::sequence) {
      for (Node* source : value->items) take(source);
    } else {
      take(value);
    }
    return;
  }
  if (const Entry* first = frame.entries.find(key.text)) {
    in_.fail(key.pos, "duplicate key " + quoted_text(key.text) + " (first at line " +
                          std::to_string(in_.line_of(first->pos)) + ")");
  }
  frame.entries.add(Entry{std::move(key.text), value, key.pos});
}

}  // namespace

nlohmann::json read_yaml(std::string_view text) {
  // "\r\n" and a lone "\r" break lines too; the scanner knows only "\n".
  std::string normalized;
  if (text.find('\r') != std::string_view::npos) {
    normalized.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] != '\r') {
        normalized += text[i];
        continue;
      }
      normalized += '\n';
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
    }
    text = normalized;
  }
  return Reader(text).document();
}

}  // namespace luaform::lua
