// Errors and warnings on their way back to the CLI, each optionally pointing at an attribute.
#pragma once

#include <string>
#include <variant>
#include <vector>

namespace luaform::engine {

// One step of an attribute path: an attribute name, a map key, or a list/tuple index.
struct AttributeName {
  std::string name;
  bool operator==(const AttributeName& o) const { return name == o.name; }
};
struct ElementKey {
  std::string key;
  bool operator==(const ElementKey& o) const { return key == o.key; }
};
struct ElementIndex {
  int64_t index;
  bool operator==(const ElementIndex& o) const { return index == o.index; }
};
using PathStep = std::variant<AttributeName, ElementKey, ElementIndex>;
using AttributePath = std::vector<PathStep>;

// "disk[0].size" style rendering for messages.
std::string path_to_string(const AttributePath& path);
// "disk.0.size": the dotted address scripts and conflicts_with and its kin use.
std::string path_to_address(const AttributePath& path);
// `path` followed by one more step.
AttributePath child_path(const AttributePath& path, PathStep step);

enum class Severity { Error, Warning };

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string summary;
  std::string detail;
  AttributePath path;  // empty when the diagnostic is not about one attribute
};

class Diagnostics {
 public:
  void error(std::string summary, std::string detail = {}, AttributePath path = {});
  void warning(std::string summary, std::string detail = {}, AttributePath path = {});
  void add(Diagnostic d) { items_.push_back(std::move(d)); }
  void append(const Diagnostics& other);
  bool has_errors() const;
  // The first error (else the first warning) as one line, "summary: detail", for replies that
  // carry a single text (a function's failure); "failed" when there is none.
  std::string first_text() const;
  bool empty() const { return items_.empty(); }
  const std::vector<Diagnostic>& items() const { return items_; }

 private:
  std::vector<Diagnostic> items_;
};

}  // namespace luaform::engine
