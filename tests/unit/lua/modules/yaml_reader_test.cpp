// read_yaml: each construct OpenAPI descriptions use, the errors with their places, the bounds
// that hold a hostile document in check, and JSON read as a JSON reader reads it.
#include "host/lua/modules/yaml_reader.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "small_stack.h"

namespace {

using luaform::lua::read_yaml;
using luaform::lua::YamlError;
using nlohmann::json;

// What read_yaml throws for `text`, or "no error".
std::string error_of(std::string_view text) {
  try {
    read_yaml(text);
  } catch (const YamlError& e) {
    return e.what();
  }
  return "no error";
}

// `levels` block mappings, each the value of the one before: "a:\n  a:\n    a: 1".
std::string nested_block(int levels) {
  std::string text;
  for (int i = 0; i < levels - 1; ++i) text += std::string(2 * i, ' ') + "a:\n";
  return text + std::string(2 * (levels - 1), ' ') + "a: 1\n";
}

int depth_of(const json& value) {
  int depth = 0;
  const json* at = &value;
  while (at->is_array() || at->is_object()) {
    ++depth;
    if (at->empty()) break;
    at = at->is_array() ? &at->front() : &at->begin().value();
  }
  return depth;
}

}  // namespace

TEST_CASE("YAML comments are skipped wherever a line may end") {
  CHECK(read_yaml("# heading\n"
                  "a: 1 # after a value\n"
                  "  # an indented comment line\n"
                  "b: # before the value\n"
                  "  c: x#not a comment\n"
                  "d: [1, # inside a flow sequence\n"
                  "    2]\n"
                  "e: 'q' # after a quoted scalar\n"
                  "# at the end\n") ==
        json::parse(R"({"a": 1, "b": {"c": "x#not a comment"}, "d": [1, 2], "e": "q"})"));
  CHECK(read_yaml("# only a comment\n").is_null());
  CHECK(read_yaml("").is_null());
  CHECK(read_yaml("\n\n   \n").is_null());
}

TEST_CASE("YAML document markers and directives: one document, markers optional") {
  CHECK(read_yaml("---\na: 1\n") == json{{"a", 1}});
  CHECK(read_yaml("%YAML 1.2\n%TAG !e! tag:example.com,2000:\n---\na: 1\n...\n# done\n") ==
        json{{"a", 1}});
  CHECK(read_yaml("--- text\n") == "text");
  CHECK(read_yaml("---\n").is_null());
  CHECK(read_yaml("--- # a comment\n- x\n") == json::parse(R"(["x"])"));
  CHECK(read_yaml("--- |\n  block\n...\n") == "block\n");
  CHECK(error_of("a: 1\n---\nb: 2\n") ==
        "line 2, column 1: a second document ('---') is not supported: the text must hold one");
  CHECK(error_of("a: 1\n...\nb: 2\n") ==
        "line 3, column 1: only comments may follow the document end marker '...'");
  CHECK(error_of("%YAML 1.2\na: 1\n") ==
        "line 2, column 1: directives ('%') must be followed by a document start ('---')");
}

TEST_CASE("YAML block mappings nest by indentation") {
  CHECK(read_yaml("info:\n"
                  "  title: Pets\n"
                  "  contact:\n"
                  "      name: me\n"
                  "      url: http://pets.test:8080/a#b\n"
                  "  empty:\n"
                  "version: 2\n"
                  "a key with spaces: 12:30\n") ==
        json::parse(R"({"info": {"title": "Pets", "empty": null,
                                 "contact": {"name": "me", "url": "http://pets.test:8080/a#b"}},
                        "version": 2, "a key with spaces": "12:30"})"));
  // The whole document may be indented.
  CHECK(read_yaml("  a: 1\n  b: 2\n") == json{{"a", 1}, {"b", 2}});
}

TEST_CASE("YAML block sequences: compact mappings, nested entries, at their key's indentation") {
  CHECK(read_yaml("parameters:\n"
                  "- name: id\n"
                  "  in: path\n"
                  "-   name: q\n"
                  "    in: query\n"
                  "tags:\n"
                  "  - a\n"
                  "  - b\n"
                  "next: 1\n") ==
        json::parse(R"({"parameters": [{"name": "id", "in": "path"}, {"name": "q", "in": "query"}],
                        "tags": ["a", "b"], "next": 1})"));
  CHECK(read_yaml("- - a\n"
                  "  - b\n"
                  "- - - c\n"
                  "-\n"
                  "  k: v\n"
                  "-\n"
                  "- # a comment, then the entry\n"
                  "  x\n") == json::parse(R"([["a", "b"], [["c"]], {"k": "v"}, null, "x"])"));
}

TEST_CASE("YAML flow sequences and mappings, nested and across lines") {
  CHECK(read_yaml("a: [x, 'y', \"z\", 1, [2, 3], {k: v}, []]\n") ==
        json::parse(R"({"a": ["x", "y", "z", 1, [2, 3], {"k": "v"}, []]})"));
  CHECK(read_yaml("a: {b: 1,\n"
                  "  c: [x,\n"
                  "    y],\n"
                  "  d: {}, e: [],\n"
                  "}\n"
                  "f: 2\n") ==
        json::parse(R"({"a": {"b": 1, "c": ["x", "y"], "d": {}, "e": []}, "f": 2})"));
  // A key alone or with no value is null; a quoted key may touch its ':'.
  CHECK(read_yaml("{a, b: , \"c\":1, d:e}") ==
        json::parse(R"({"a": null, "b": null, "c": 1, "d:e": null})"));
  // A sequence's entry may be a single `key: value`; plain scalars fold across lines.
  CHECK(read_yaml("[a: 1, b, multi\n  word, -1]") ==
        json::parse(R"([{"a": 1}, "b", "multi word", -1])"));
}

TEST_CASE("YAML plain scalars fold their lines with spaces, blank lines with line breaks") {
  CHECK(read_yaml("description: This is\n"
                  "  a long\n"
                  "\n"
                  "  text\n"
                  "next: x\n") ==
        json::parse(R"({"description": "This is a long\ntext", "next": "x"})"));
  CHECK(read_yaml("- one\n  two - three\n- four   \n") ==
        json::parse(R"(["one two - three", "four"])"));
  CHECK(read_yaml("a: -x\nb: :x\nc: ?x\nd: a'b\"c\ne: 100%\n") ==
        json::parse(R"({"a": "-x", "b": ":x", "c": "?x", "d": "a'b\"c", "e": "100%"})"));
  CHECK(read_yaml("top level\nscalar\n") == "top level scalar");
}

TEST_CASE("YAML single-quoted scalars: '' is a quote, lines fold") {
  CHECK(read_yaml("a: 'it''s'\n"
                  "b: 'two\n"
                  "  lines\n"
                  "\n"
                  "  then a paragraph'\n"
                  "c: ''\n"
                  "d: '# not a comment: nor a key'\n"
                  "e: '\\n is no escape'\n") ==
        json::parse(R"({"a": "it's", "b": "two lines\nthen a paragraph", "c": "",
                        "d": "# not a comment: nor a key", "e": "\\n is no escape"})"));
}

TEST_CASE("YAML double-quoted scalars: escapes and line folding") {
  CHECK(read_yaml(R"(a: "t\tn\n q\" b\\ s\/ x\x41 u\u00e9 U\U0001F600 pair\ud83d\ude00")") ==
        json{{"a", "t\tn\n q\" b\\ s/ xA u\xc3\xa9 U\xf0\x9f\x98\x80 pair\xf0\x9f\x98\x80"}});
  CHECK(read_yaml(R"(a: "\0\a\b\v\f\r\e\ \N\_\L\P")") ==
        json{{"a", std::string("\0\a\b\v\f\r\x1b \xc2\x85\xc2\xa0\xe2\x80\xa8\xe2\x80\xa9", 18)}});
  CHECK(read_yaml("a: \"one\n  two \\\n  three\n\n  four\"\n") ==
        json{{"a", "one two three\nfour"}});
  CHECK(error_of(R"(a: "bad \q")") ==
        "line 1, column 9: unknown escape '\\q' in a double-quoted scalar");
  CHECK(error_of(R"(a: "\u12")") ==
        "line 1, column 5: the escape '\\u' needs 4 hexadecimal digits");
  CHECK(error_of(R"(a: "\ud800")") ==
        "line 1, column 5: the escape is not a Unicode character (a lone surrogate, or beyond "
        "U+10FFFF)");
}

TEST_CASE("YAML block scalars: literal, folded, chomping and indentation indicators") {
  const json doc = read_yaml(
      "literal: |\n"
      "  line 1\n"
      "    indented\n"
      "\n"
      "  line 3\n"
      "folded: >\n"
      "  one\n"
      "  two\n"
      "\n"
      "  three\n"
      "    kept\n"
      "  four\n"
      "strip: |-\n"
      "  text\n"
      "\n"
      "keep: |+\n"
      "  text\n"
      "\n"
      "clip: >\n"
      "  text\n"
      "\n"
      "\n"
      "indicator: |2\n"
      "    two more\n"
      "  base\n"
      "both: >-1\n"
      "  lead\n"
      "comment: | # a comment after the indicator\n"
      "  # not a comment\n"
      "empty: |\n"
      "last: x\n");
  CHECK(doc["literal"] == "line 1\n  indented\n\nline 3\n");
  CHECK(doc["folded"] == "one two\nthree\n  kept\nfour\n");
  CHECK(doc["strip"] == "text");
  CHECK(doc["keep"] == "text\n\n");
  CHECK(doc["clip"] == "text\n");
  CHECK(doc["indicator"] == "  two more\nbase\n");
  CHECK(doc["both"] == " lead");
  CHECK(doc["comment"] == "# not a comment\n");
  CHECK(doc["empty"] == "");
  CHECK(doc["last"] == "x");
  CHECK(read_yaml("- |\n  in a sequence\n- >-\n  folded\n  too\n") ==
        json::parse(R"(["in a sequence\n", "folded too"])"));
  CHECK(error_of("a: |0\n  x\n") ==
        "line 1, column 5: a block scalar's indentation indicator must be 1 to 9");
}

TEST_CASE("YAML explicit keys with scalars, as writers spell long keys") {
  // go-yaml and others write a key longer than a line allows as `? key`, then `: value`, whose
  // value may start on the ':' line.
  CHECK(read_yaml("paths:\n"
                  "  /short:\n"
                  "    get: {}\n"
                  "  ? /a/very/long/path/{with}/{parameters}\n"
                  "  : post:\n"
                  "      summary: Create\n"
                  "  ? \"/quoted\n"
                  "    across lines\"\n"
                  "  :\n"
                  "    x: 1\n"
                  "  ? /plain\n"
                  "    continued\n"
                  "  : - y\n"
                  "other: 1\n") == json::parse(R"({"paths": {"/short": {"get": {}},
                                  "/a/very/long/path/{with}/{parameters}": {"post": {"summary": "Create"}},
                                  "/quoted across lines": {"x": 1},
                                  "/plain continued": ["y"]},
                        "other": 1})"));
  CHECK(read_yaml("? a\n: 1\n? b\n:\n") == json::parse(R"({"a": 1, "b": null})"));
}

TEST_CASE("YAML anchors and aliases: an alias is a copy of the node its anchor names") {
  const json doc = read_yaml(
      "base: &b {type: string}\n"
      "name: &n widget\n"
      "list: &l\n"
      "  - 1\n"
      "  - 2\n"
      "map: &m\n"
      "  k: v\n"
      "use:\n"
      "  schema: *b\n"
      "  title: *n\n"
      "  items: [*l, *m]\n"
      "*n : an alias as a key\n");
  CHECK(doc["use"] == json::parse(R"({"schema": {"type": "string"}, "title": "widget",
                                      "items": [[1, 2], {"k": "v"}]})"));
  CHECK(doc["widget"] == "an alias as a key");
  CHECK(doc["list"] == json::parse("[1, 2]"));
  // A later anchor of the same name replaces the earlier one.
  CHECK(read_yaml("a: &x 1\nb: &x 2\nc: *x\n") == json{{"a", 1}, {"b", 2}, {"c", 2}});
  // An anchor before a key names the key; one on a line of its own names the node below.
  CHECK(read_yaml("&k key: v\nother: *k\n") == json{{"key", "v"}, {"other", "key"}});
  CHECK(read_yaml("a:\n  &m\n  !!map\n  k: v\nb: *m\n") ==
        json::parse(R"({"a": {"k": "v"}, "b": {"k": "v"}})"));
}

TEST_CASE("YAML merge keys: explicit keys win, then earlier merged mappings") {
  const json doc = read_yaml(
      "defaults: &defaults\n"
      "  a: 1\n"
      "  b: 2\n"
      "other: &other\n"
      "  b: 20\n"
      "  c: 30\n"
      "one:\n"
      "  a: 10\n"
      "  <<: *defaults\n"
      "many:\n"
      "  <<: [*defaults, *other]\n"
      "  c: 300\n"
      "inline: {<<: {x: 1}, y: 2}\n"
      "quoted:\n"
      "  '<<': not a merge\n");
  CHECK(doc["one"] == json{{"a", 10}, {"b", 2}});
  CHECK(doc["many"] == json{{"a", 1}, {"b", 2}, {"c", 300}});
  CHECK(doc["inline"] == json{{"x", 1}, {"y", 2}});
  CHECK(doc["quoted"] == json{{"<<", "not a merge"}});
  CHECK(error_of("a:\n  <<: 1\n") ==
        "line 2, column 3: the merge key '<<' takes a mapping or a list of mappings");
  CHECK(error_of("x: &x [1]\na:\n  <<: [*x]\n") ==
        "line 3, column 3: the merge key '<<' takes a mapping or a list of mappings");
}

TEST_CASE("YAML core tags are respected; other tags are ignored") {
  CHECK(read_yaml("s: !!str 123\n"
                  "t: !!str\n"
                  "i: !!int \"42\"\n"
                  "h: !!int 0x10\n"
                  "f: !!float 1\n"
                  "b: !!bool \"true\"\n"
                  "n: !!null ''\n"
                  "v: !<tag:yaml.org,2002:str> 5\n"
                  "e: ! 12\n"
                  "o: !custom 12\n"
                  "x: !!binary aGk=\n"
                  "m: !!map {a: 1}\n") ==
        json::parse(R"({"s": "123", "t": "", "i": 42, "h": 16, "f": 1.0, "b": true, "n": null,
                        "v": "5", "e": "12", "o": 12, "x": "aGk=", "m": {"a": 1}})"));
  CHECK(read_yaml("f: !!float 1")["f"].is_number_float());
  CHECK(error_of("a: !!int abc\n") ==
        "line 1, column 4: the value \"abc\" does not fit its tag !!int");
  CHECK(error_of("a: !!bool yes\n") ==
        "line 1, column 4: the value \"yes\" does not fit its tag !!bool");
}

TEST_CASE("YAML keys become strings, as OpenAPI's response codes need") {
  CHECK(read_yaml("200: ok\n"
                  "true: yes\n"
                  "~: tilde\n"
                  "null: n\n"
                  "1.5: f\n"
                  "0x1F: h\n"
                  "'q': 1\n") ==
        json::parse(R"({"200": "ok", "true": "yes", "~": "tilde", "null": "n", "1.5": "f",
                        "0x1F": "h", "q": 1})"));
  CHECK(read_yaml("responses: {404: missing, default: error}") ==
        json::parse(R"({"responses": {"404": "missing", "default": "error"}})"));
}

TEST_CASE("YAML scalars are resolved by the core schema; quoted ones stay strings") {
  const json doc = read_yaml(
      "[null, Null, NULL, ~, true, True, TRUE, false, False, FALSE,\n"
      " 0, -12, +7, 007, 0o17, 0x1F, 18446744073709551615, -9223372036854775808,\n"
      " 1.5, -0.25, .5, 1e3, 1.5E-2, 2., 18446744073709551616,\n"
      " yes, no, on, 1_000, 0b11, 0x, nULL, tRUE, 1.2.3, -., .,\n"
      " '1', \"true\", 'null', \"~\"]");
  for (int i = 0; i < 4; ++i) CHECK(doc[i].is_null());
  CHECK(doc[4] == true);
  CHECK(doc[5] == true);
  CHECK(doc[6] == true);
  CHECK(doc[7] == false);
  CHECK(doc[8] == false);
  CHECK(doc[9] == false);
  CHECK(doc[10] == 0);
  CHECK(doc[11] == -12);
  CHECK(doc[12] == 7);
  CHECK(doc[13] == 7);
  CHECK(doc[14] == 15);
  CHECK(doc[15] == 31);
  CHECK(doc[16] == std::numeric_limits<std::uint64_t>::max());
  CHECK(doc[17] == std::numeric_limits<std::int64_t>::min());
  for (int i = 10; i < 18; ++i) CHECK(doc[i].is_number_integer());
  CHECK(doc[18] == 1.5);
  CHECK(doc[19] == -0.25);
  CHECK(doc[20] == 0.5);
  CHECK(doc[21] == 1000.0);
  CHECK(doc[22] == 0.015);
  CHECK(doc[23] == 2.0);
  CHECK(doc[24] == 18446744073709551616.0);
  for (int i = 18; i < 25; ++i) CHECK(doc[i].is_number_float());
  const char* strings[] = {"yes",   "no", "on", "1_000", "0b11", "0x",   "nULL", "tRUE",
                           "1.2.3", "-.", ".",  "1",     "true", "null", "~"};
  for (int i = 0; i < 15; ++i) CHECK(doc[25 + i] == strings[i]);
  CHECK(doc.size() == 40);

  const json special = read_yaml("[.inf, -.Inf, +.INF, .nan, .NaN]");
  CHECK(special[0].get<double>() == std::numeric_limits<double>::infinity());
  CHECK(special[1].get<double>() == -std::numeric_limits<double>::infinity());
  CHECK(special[2].get<double>() == std::numeric_limits<double>::infinity());
  CHECK(std::isnan(special[3].get<double>()));
  CHECK(std::isnan(special[4].get<double>()));
  // Signed and out-of-range floats, which the release builds' standard library reads its own way.
  const json edges = read_yaml("[+1.5, +.5e1, 1e400, -1e400, 1e-400, -2.5e-3]");
  CHECK(edges[0] == 1.5);
  CHECK(edges[1] == 5.0);
  CHECK(edges[2].get<double>() == std::numeric_limits<double>::infinity());
  CHECK(edges[3].get<double>() == -std::numeric_limits<double>::infinity());
  CHECK(edges[4].get<double>() == 0.0);
  CHECK(edges[5] == -0.0025);
  CHECK(read_yaml("a:\nb: ''\n") == json::parse(R"({"a": null, "b": ""})"));
}

TEST_CASE("YAML duplicate keys are an error naming the key and its first line") {
  CHECK(error_of("a: 1\nb: 2\na: 3\n") ==
        "line 3, column 1: duplicate key \"a\" (first at line 1)");
  CHECK(error_of("{x: 1,\n \"x\": 2}") ==
        "line 2, column 2: duplicate key \"x\" (first at line 1)");
  CHECK(error_of("1: a\n'1': b\n") == "line 2, column 1: duplicate key \"1\" (first at line 1)");
  // A message stays on one line, and short.
  CHECK(error_of("{\"a\\nb\": 1, \"a\\nb\": 2}") ==
        "line 1, column 13: duplicate key \"a\\nb\" (first at line 1)");
  const std::string long_key(100, 'k');
  CHECK(error_of(long_key + ": 1\n" + long_key + ": 2\n") ==
        "line 2, column 1: duplicate key \"" + std::string(60, 'k') + "...\" (first at line 1)");
  CHECK(error_of("- a: 1\n  <<: {b: 2}\n  <<: {c: 3}\n") ==
        "line 3, column 3: duplicate key \"<<\"");
  // Past the first few keys, a mapping finds duplicates by an index.
  std::string many;
  for (int i = 0; i < 40; ++i) many += "key" + std::to_string(i) + ": " + std::to_string(i) + "\n";
  CHECK(read_yaml(many).size() == 40);
  CHECK(read_yaml(many)["key39"] == 39);
  CHECK(error_of(many + "key7: again\n") ==
        "line 41, column 1: duplicate key \"key7\" (first at line 8)");
}

TEST_CASE("YAML tabs cannot indent, but may separate") {
  CHECK(error_of("a:\n\tb: 1\n") ==
        "line 2, column 1: a tab indents this line; YAML indents with spaces only");
  CHECK(error_of("a:\n  \tb: 1\n") ==
        "line 2, column 3: a tab indents this line; YAML indents with spaces only");
  CHECK(read_yaml("a:\tb\t# comment\n\t\n\t# an indented comment\nc: 'x\ty'\nd: [1,\n\t2]\n") ==
        json::parse(R"({"a": "b", "c": "x\ty", "d": [1, 2]})"));
}

TEST_CASE("A JSON text reads as a JSON reader reads it") {
  const std::string text = R"({
  "swagger": "2.0",
  "info": {"title": "T\u00e9st \"quoted\"", "version": "1.0"},
  "numbers": [0, -1, 3.25, -2.5e-3, 1E5, 12345678901234567890, -9223372036854775808],
  "flags": [true, false, null],
  "empty": {"o": {}, "a": [], "s": ""},
  "escapes": "line\nbreak\ttab\\slash\/ \ud83d\ude00 \u0000",
  "nested": [[[{"k": [1, {"deep": "yes"}]}]]],
  "keys": {"200": "ok", "": "empty key", "a b": 1}
})";
  const json expected = json::parse(text);
  CHECK(read_yaml(text) == expected);
  CHECK(read_yaml(expected.dump()) == expected);
  CHECK(read_yaml(expected.dump(1, '\t')) == expected);
  CHECK(read_yaml(expected.dump(4)) == expected);
  CHECK(read_yaml("\"just a string\"") == "just a string");
  CHECK(read_yaml("-42.5e1") == -425.0);
  CHECK(read_yaml("[]") == json::array());
  CHECK(read_yaml("{}") == json::object());
  // JSON readers differ on numbers beyond a double; this reader makes them infinite.
  CHECK(read_yaml("[1e400, -1e400, 1e-400]") ==
        json::array({std::numeric_limits<double>::infinity(),
                     -std::numeric_limits<double>::infinity(), 0.0}));
}

TEST_CASE("YAML line breaks may be \\r\\n; a byte order mark is skipped") {
  CHECK(read_yaml("\xEF\xBB\xBF"
                  "a: 1\r\nb:\r\n  - x\r\n  - \"y\r\n  z\"\r\n") ==
        json::parse(R"({"a": 1, "b": ["x", "y z"]})"));
  CHECK(error_of("\xEF\xBB\xBF"
                 "a: 1\n a: 2\n") ==
        "line 2, column 3: a mapping value is not allowed here (check the line's indentation, "
        "and quote a value that contains ': ')");
}

TEST_CASE("YAML errors say where the text went wrong") {
  // Bad indentation.
  CHECK(error_of("a:\n  b: 1\n c: 2\n") ==
        "line 3, column 2: bad indentation: this mapping's keys are at column 1");
  CHECK(error_of("a: 1\n  b: 2\n") ==
        "line 2, column 4: a mapping value is not allowed here (check the line's indentation, "
        "and quote a value that contains ': ')");
  // More indented text continues a plain scalar, even text that looks like an entry.
  CHECK(read_yaml("a:\n  - x\n   - y\n") == json::parse(R"({"a": ["x - y"]})"));
  CHECK(error_of("a:\n  - [x]\n   - y\n") ==
        "line 3, column 4: bad indentation: this sequence's entries are at column 3");
  CHECK(error_of("a:\n  - x\n  b: 1\n") ==
        "line 3, column 3: expected a sequence entry ('- ') at this indentation");
  CHECK(error_of("a: 1\n- b\n") ==
        "line 2, column 1: expected a mapping key, found a sequence entry ('- ')");
  CHECK(error_of("a: 1\nb\nc: 2\n") ==
        "line 2, column 1: expected 'key: value' in this mapping, but no ':' follows \"b\"");
  CHECK(error_of("a: b: c\n") ==
        "line 1, column 5: a mapping value is not allowed here (a nested mapping starts on the "
        "next line; quote a value that contains ': ')");
  CHECK(error_of("a: - b\n") ==
        "line 1, column 4: a block sequence cannot start on the line of its key; start it on "
        "the next line");
  // Unterminated scalars and collections: where they open.
  CHECK(error_of("a: \"abc\nb: 1\n") ==
        "line 1, column 4: a double-quoted scalar is not closed (no matching '\"')");
  CHECK(error_of("x: 1\na: 'abc") ==
        "line 2, column 4: a single-quoted scalar is not closed (no matching \"'\")");
  CHECK(error_of("a: [x, y\nb: 1\n") ==
        "line 1, column 4: a flow sequence is not closed (no matching ']')");
  CHECK(error_of("a: {x: 1\n") ==
        "line 1, column 4: a flow mapping is not closed (no matching '}')");
  CHECK(error_of("a: [x y z}\n") == "line 1, column 10: expected ',' or ']' in this flow sequence");
  CHECK(error_of("a: [x, , y]\n") == "line 1, column 8: an empty entry in a flow collection");
  // Aliases.
  CHECK(error_of("a: 1\nb: *nope\n") ==
        "line 2, column 4: unknown alias '*nope' (no anchor '&nope' before it)");
  CHECK(error_of("a: &a [1, *a]\n") ==
        "line 1, column 11: the alias '*a' is inside the node its anchor names (recursive "
        "aliases are not supported)");
  CHECK(error_of("a: &x 1\nb: &y *x\n") ==
        "line 2, column 4: an alias cannot have an anchor or tag");
  // What is refused.
  CHECK(error_of("{? a: b}\n") ==
        "line 1, column 2: explicit keys ('? ') are not supported in flow collections");
  CHECK(error_of("? [a]\n: b\n") ==
        "line 1, column 3: a mapping key must be a scalar: collections and block scalars as "
        "keys are not supported");
  CHECK(error_of("? a\nb: c\n") ==
        "line 1, column 1: an explicit key ('? ') needs a ': ' line with its value, at its "
        "indentation");
  CHECK(error_of("[a, b]: c\n") ==
        "line 1, column 7: a mapping key must be a scalar: collections as keys are not supported");
  CHECK(error_of("a: {[x]: 1}\n") ==
        "line 1, column 5: a mapping key must be a scalar: collections as keys are not supported");
  CHECK(error_of("\"two\n  lines\": x\n") == "line 1, column 1: a mapping key must be on one line");
  CHECK(error_of("a: @x\n") ==
        "line 1, column 4: '@' cannot start a plain scalar; quote the value");
  CHECK(error_of("a: \"x\" y\n") == "line 1, column 8: unexpected text after the value");
}

TEST_CASE("YAML nesting deeper than 200 levels is an error, aliases expanded") {
  CHECK(depth_of(read_yaml(std::string(200, '[') + std::string(200, ']'))) == 200);
  CHECK(error_of(std::string(201, '[') + std::string(201, ']')) ==
        "line 1, column 201: nesting deeper than 200 levels");
  CHECK(depth_of(read_yaml(nested_block(200))) == 200);
  CHECK(error_of(nested_block(201)) == "line 201, column 401: nesting deeper than 200 levels");
  // Each alias is within the bound, the document they make is not.
  const std::string deep = "x: &x " + std::string(150, '[') + std::string(150, ']') + "\n";
  // 1 (the document) + 49 + 150 (the alias) is at the bound.
  CHECK(depth_of(read_yaml(deep + "y: " + std::string(49, '[') + "*x" +
                           std::string(49, ']'))["y"]) == 199);
  CHECK(error_of(deep + "y: " + std::string(60, '[') + "*x" + std::string(60, ']')) ==
        "line 2, column 64: nesting deeper than 200 levels (through the alias '*x')");
}

TEST_CASE("YAML aliases that would expand past the bound are an error, not a billion nodes") {
  // Each line is nine of the one before: 10, 91, 820, ... nodes; the eighth passes 10 million.
  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n";
  for (char name = 'b'; name <= 'j'; ++name) {
    const std::string previous(1, static_cast<char>(name - 1));
    bomb += std::string(1, name) + ": &" + name + " [";
    for (int i = 0; i < 9; ++i) bomb += (i == 0 ? "*" : ", *") + previous;
    bomb += "]\n";
  }
  CHECK(error_of(bomb) == "line 8, column 8: aliases expand to more than 10000000 nodes");
  // Below the bound, aliases are copies in full.
  const json small = read_yaml(bomb.substr(0, bomb.find("\nd:")));
  CHECK(small["c"].size() == 9);
  CHECK(small["c"][8][8][8] == "x");
}

TEST_CASE("YAML at the depth bound fits in a quarter of a musl thread's stack") {
  // The reader keeps its open collections on the heap, not in a recursion.
  std::string error = "did not run";
  luaform::lua::testing::run_on_small_stack(luaform::lua::testing::kQuarterOfMuslStack, [&] {
    const json flow = read_yaml(std::string(200, '[') + std::string(200, ']'));
    const json block = read_yaml(nested_block(200));
    error = depth_of(flow) == 200 && depth_of(block) == 200 ? "" : "wrong depth";
  });
  CHECK(error == "");
}

TEST_CASE("A Swagger 2.0 description with anchors and merges reads whole") {
  const json doc = read_yaml(R"(swagger: "2.0"
info:
  title: Pet Store
  version: 1.0.0
  description: >-
    A sample API that uses a pet store
    as an example.
host: petstore.test
basePath: /v1
schemes: [https]
x-common-responses: &errors
  "404":
    description: Not found
  default:
    description: Unexpected error
    schema: {$ref: '#/definitions/Error'}
parameters:
  limit: &limit
    name: limit
    in: query
    type: integer
    format: int32
    maximum: 100
paths:
  /pets:
    get:
      operationId: listPets
      tags: [pets]
      parameters:
        - *limit
        - <<: *limit
          name: offset
          maximum: 10000
      responses:
        200:
          description: A list of pets
          schema:
            type: array
            items: {$ref: '#/definitions/Pet'}
        <<: *errors
  /pets/{petId}:
    get:
      operationId: showPetById
      parameters:
        - name: petId
          in: path
          required: true
          type: string
      responses:
        200:
          description: |
            The pet
        <<: *errors
definitions:
  Pet: &pet
    type: object
    required: [id, name]
    properties:
      id: {type: integer, format: int64}
      name: {type: string}
      tag: {type: string, x-nullable: true}
  Pets:
    type: array
    items: *pet
  Error:
    type: object
    properties:
      code: {type: integer}
      message: {type: string}
)");
  CHECK(doc["swagger"] == "2.0");
  CHECK(doc["info"]["version"] == "1.0.0");
  CHECK(doc["info"]["description"] == "A sample API that uses a pet store as an example.");
  CHECK(doc["schemes"] == json::parse(R"(["https"])"));
  const json& list = doc["paths"]["/pets"]["get"];
  CHECK(list["parameters"] == json::parse(R"([
    {"name": "limit", "in": "query", "type": "integer", "format": "int32", "maximum": 100},
    {"name": "offset", "in": "query", "type": "integer", "format": "int32", "maximum": 10000}])"));
  CHECK(list["responses"] == json::parse(R"({
    "200": {"description": "A list of pets",
            "schema": {"type": "array", "items": {"$ref": "#/definitions/Pet"}}},
    "404": {"description": "Not found"},
    "default": {"description": "Unexpected error", "schema": {"$ref": "#/definitions/Error"}}})"));
  const json& show = doc["paths"]["/pets/{petId}"]["get"];
  CHECK(show["responses"]["200"]["description"] == "The pet\n");
  CHECK(show["responses"]["404"] == list["responses"]["404"]);
  CHECK(show["parameters"][0]["required"] == true);
  CHECK(doc["definitions"]["Pets"]["items"] == doc["definitions"]["Pet"]);
  CHECK(doc["definitions"]["Pet"]["properties"]["tag"]["x-nullable"] == true);
  CHECK(doc["definitions"]["Pet"]["required"] == json::parse(R"(["id", "name"])"));
}

TEST_CASE("A large YAML document reads whole") {
  // Many entries, long mappings and anchors shared across them: the reader's costs grow with
  // the text, not faster.
  std::string text = "shared: &shared {type: string, maxLength: 64}\npaths:\n";
  constexpr int kPaths = 5000;
  for (int i = 0; i < kPaths; ++i) {
    const std::string n = std::to_string(i);
    text += "  /items" + n + ":\n    get:\n      operationId: get" + n +
            "\n      description: |\n        Gets item " + n +
            ".\n      parameters:\n        - name: id\n          schema: *shared\n"
            "      responses:\n        200: {description: ok}\n";
  }
  const json doc = read_yaml(text);
  CHECK(doc["paths"].size() == kPaths);
  CHECK(doc["paths"]["/items4999"]["get"]["operationId"] == "get4999");
  CHECK(doc["paths"]["/items17"]["get"]["description"] == "Gets item 17.\n");
  CHECK(doc["paths"]["/items17"]["get"]["parameters"][0]["schema"]["maxLength"] == 64);
  CHECK(doc["paths"]["/items17"]["get"]["responses"]["200"]["description"] == "ok");
}
