#include "host/engine/value/diagnostics.h"

#include <algorithm>

namespace luaform::engine {

std::string path_to_string(const AttributePath& path) {
  std::string out;
  for (const PathStep& step : path) {
    if (const auto* attr = std::get_if<AttributeName>(&step)) {
      if (!out.empty()) out += '.';
      out += attr->name;
    } else if (const auto* key = std::get_if<ElementKey>(&step)) {
      out += "[\"";
      for (char c : key->key) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
      }
      out += "\"]";
    } else {
      out += '[' + std::to_string(std::get<ElementIndex>(step).index) + ']';
    }
  }
  return out;
}

void Diagnostics::error(std::string summary, std::string detail, AttributePath path) {
  items_.push_back({Severity::Error, std::move(summary), std::move(detail), std::move(path)});
}

void Diagnostics::warning(std::string summary, std::string detail, AttributePath path) {
  items_.push_back({Severity::Warning, std::move(summary), std::move(detail), std::move(path)});
}

void Diagnostics::append(const Diagnostics& other) {
  items_.insert(items_.end(), other.items_.begin(), other.items_.end());
}

bool Diagnostics::has_errors() const {
  return std::any_of(items_.begin(), items_.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

std::string Diagnostics::first_text() const {
  for (const bool errors : {true, false}) {
    for (const Diagnostic& d : items_) {
      if ((d.severity == Severity::Error) != errors) continue;
      return d.detail.empty() ? d.summary : d.summary + ": " + d.detail;
    }
  }
  return "failed";
}

std::string path_to_address(const AttributePath& path) {
  std::string out;
  for (const auto& step : path) {
    if (!out.empty()) out += '.';
    if (const auto* name = std::get_if<AttributeName>(&step)) {
      out += name->name;
    } else if (const auto* key = std::get_if<ElementKey>(&step)) {
      out += key->key;
    } else {
      out += std::to_string(std::get<ElementIndex>(step).index);
    }
  }
  return out;
}

AttributePath child_path(const AttributePath& path, PathStep step) {
  AttributePath out = path;
  out.push_back(std::move(step));
  return out;
}

}  // namespace luaform::engine
