// A YAML reader for the subset OpenAPI and Swagger descriptions use, into JSON values: one
// document; block and flow collections; plain, quoted and block scalars; anchors, aliases
// and merge keys (`<<`); the core tags. Keys become strings (`200:` is "200"), as OpenAPI's
// response codes need; scalars are resolved by the YAML 1.2 core schema. Keys that are
// collections are refused, and so are explicit keys (`? `) but for scalar keys in block
// mappings, which writers use for long paths. A JSON text reads as a JSON reader reads it.
//
// The reader holds untrusted text in check: nesting (aliases expanded) is bounded at
// kMaxYamlDepth levels, the nodes aliases add at kMaxYamlAliasNodes, and it never recurses,
// so a hostile document costs neither the stack nor unbounded memory.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>

namespace luaform::lua {

inline constexpr int kMaxYamlDepth = 200;
inline constexpr std::uint64_t kMaxYamlAliasNodes = 10'000'000;

// What the text did wrong, and where: what() is "line L, column C: message" (1-based; the
// column counts characters, not bytes).
class YamlError : public std::runtime_error {
 public:
  YamlError(int line, int column, const std::string& message);
  int line() const noexcept { return line_; }
  int column() const noexcept { return column_; }

 private:
  int line_;
  int column_;
};

// Reads one YAML document (empty text is null); throws YamlError when it is not one.
nlohmann::json read_yaml(std::string_view text);

}  // namespace luaform::lua
