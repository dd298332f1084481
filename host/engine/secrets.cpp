#include "host/engine/secrets.h"

#include <algorithm>
#include <cctype>

#include "host/engine/value_walk.h"

namespace luaform::engine {
namespace {

// Every string and number leaf of `v`.
void collect_leaves(const Value& v, std::vector<std::string>& out) {
  if (!v.is_known()) return;
  if (const Value::List* elements = list_data(v)) {
    for (const auto& element : *elements) collect_leaves(element, out);
  } else if (const Value::Object* members = object_data(v)) {
    for (const auto& [name, member] : *members) collect_leaves(member, out);
  } else if (v.type().kind() == TypeKind::String) {
    out.push_back(v.as_string());
  } else if (v.type().kind() == TypeKind::Number) {
    out.push_back(v.as_number().text());
  }
}

// Values marked sensitive anywhere inside `v` (a value of an attribute not declared so).
void collect_marked(const Value& v, std::vector<std::string>& out) {
  if (!v.is_known()) return;
  if (v.is_sensitive()) {
    collect_leaves(v, out);
  } else if (const Value::List* elements = list_data(v)) {
    for (const auto& element : *elements) collect_marked(element, out);
  } else if (const Value::Object* members = object_data(v)) {
    for (const auto& [name, member] : *members) collect_marked(member, out);
  }
}

void collect_block(const Block& block, const Value& object, std::vector<std::string>& out);

// The objects held by a nested block's or nested attribute's value, whatever its nesting.
void collect_nested(const NestedBlock& nested, const Value& v, std::vector<std::string>& out) {
  if (!v.is_known()) return;
  if (nested.nesting == NestingMode::Single || nested.nesting == NestingMode::Group) {
    collect_block(nested.block, v, out);
  } else if (const Value::List* elements = list_data(v)) {
    for (const auto& element : *elements) collect_block(nested.block, element, out);
  } else if (const Value::Object* members = object_data(v)) {
    for (const auto& [key, element] : *members) collect_block(nested.block, element, out);
  }
}

void collect_block(const Block& block, const Value& object, std::vector<std::string>& out) {
  if (!object.is_known() || object_data(object) == nullptr) return;
  for (const auto& attribute : block.attributes) {
    const Value v = object.get_attribute(attribute.name);
    if (attribute.sensitive) {
      collect_leaves(v, out);
    } else if (attribute.nested) {
      collect_nested(*attribute.nested, v, out);
    } else {
      collect_marked(v, out);
    }
  }
  for (const auto& nested : block.blocks) {
    collect_nested(nested, object.get_attribute(nested.type_name), out);
  }
}

// Secrets shorter than this are hidden only where they stand alone (see redact).
constexpr size_t kShortSecret = 4;

bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// Whether the occurrence of a `length`-byte secret at `at` stands alone in `text`.
bool whole_word(const std::string& text, size_t at, size_t length) {
  return (at == 0 || !word_char(text[at - 1])) &&
         (at + length >= text.size() || !word_char(text[at + length]));
}

}  // namespace

std::vector<std::string> sensitive_texts(const Block& block, const Value& object) {
  std::vector<std::string> out;
  collect_block(block, object, out);
  return out;
}

std::string redact(std::string text, std::vector<std::string> secrets) {
  std::sort(secrets.begin(), secrets.end(),
            [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  for (const auto& secret : secrets) {
    if (secret.empty()) continue;
    // A secret of a few characters ("t", "42") is hidden where it stands alone: hiding it
    // inside every word would leave no message to read.
    const bool short_secret = secret.size() < kShortSecret;
    for (size_t at = text.find(secret); at != std::string::npos;) {
      if (short_secret && !whole_word(text, at, secret.size())) {
        at = text.find(secret, at + 1);
        continue;
      }
      text.replace(at, secret.size(), "***");
      at = text.find(secret, at + 3);
    }
  }
  return text;
}

Diagnostics redact(const Diagnostics& diags, const std::vector<std::string>& secrets) {
  if (secrets.empty() || diags.empty()) return diags;
  Diagnostics hidden;
  for (Diagnostic d : diags.items()) {
    d.summary = redact(std::move(d.summary), secrets);
    d.detail = redact(std::move(d.detail), secrets);
    hidden.add(std::move(d));
  }
  return hidden;
}

}  // namespace luaform::engine
