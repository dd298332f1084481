#include "host/engine/rules/secrets.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>
#include <string_view>

#include "host/engine/value/value_walk.h"

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

void collect_attribute(const Attribute& attribute, const Value& v, std::vector<std::string>& out) {
  // A write-only value (a password sent once) is kept nowhere, and shown nowhere either.
  if (attribute.sensitive || attribute.write_only) {
    collect_leaves(v, out);
  } else if (attribute.nested) {
    collect_nested(*attribute.nested, v, out);
  } else {
    collect_marked(v, out);
  }
}

void collect_block(const Block& block, const Value& object, std::vector<std::string>& out) {
  if (!object.is_known() || object_data(object) == nullptr) return;
  for (const auto& attribute : block.attributes) {
    collect_attribute(attribute, object.get_attribute(attribute.name), out);
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

// --- the spellings of a secret that scripts and the host produce without meaning to -------

// As a JSON string's content: the escapes every encoder makes, then with "/" escaped too.
void json_escaped(const std::string& secret, std::vector<std::string>& out) {
  std::string text;
  for (const char c : secret) {
    switch (c) {
      case '"':
        text += "\\\"";
        break;
      case '\\':
        text += "\\\\";
        break;
      case '\b':
        text += "\\b";
        break;
      case '\f':
        text += "\\f";
        break;
      case '\n':
        text += "\\n";
        break;
      case '\r':
        text += "\\r";
        break;
      case '\t':
        text += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escape[8];
          std::snprintf(escape, sizeof escape, "\\u%04x", static_cast<unsigned char>(c));
          text += escape;
        } else {
          text += c;
        }
    }
  }
  out.push_back(text);
  std::string slashed;
  for (const char c : text) slashed += c == '/' ? std::string("\\/") : std::string(1, c);
  out.push_back(std::move(slashed));
}

// As Lua's string.format("%q") writes it (between the quotes).
void lua_quoted(const std::string& secret, std::vector<std::string>& out) {
  std::string text;
  for (size_t i = 0; i < secret.size(); ++i) {
    const auto c = static_cast<unsigned char>(secret[i]);
    if (c == '"' || c == '\\' || c == '\n') {
      text += '\\';
      text += static_cast<char>(c);
    } else if (std::iscntrl(c) != 0) {
      const bool digit_follows =
          i + 1 < secret.size() && std::isdigit(static_cast<unsigned char>(secret[i + 1])) != 0;
      char escape[8];
      std::snprintf(escape, sizeof escape, digit_follows ? "\\%03d" : "\\%d", c);
      text += escape;
    } else {
      text += static_cast<char>(c);
    }
  }
  out.push_back(std::move(text));
}

// Percent-encoded, in upper and lower case hex: as a query or form value (only RFC 3986's
// unreserved characters kept; a space also as "+"), and as a path segment, where Go's
// url.PathEscape and the SDK's tf.http.escape keep the sub-delimiters "$&+,:;=@" too.
void url_encoded(const std::string& secret, std::vector<std::string>& out) {
  static constexpr std::string_view kPathKept = "$&+,:;=@";
  for (const char* digits : {"0123456789ABCDEF", "0123456789abcdef"}) {
    std::string percent;
    std::string form;
    std::string segment;
    for (const char c : secret) {
      const auto byte = static_cast<unsigned char>(c);
      if (std::isalnum(byte) != 0 || c == '-' || c == '.' || c == '_' || c == '~') {
        percent += c;
        form += c;
        segment += c;
        continue;
      }
      const std::string escape = {'%', digits[byte >> 4], digits[byte & 15]};
      percent += escape;
      form += c == ' ' ? std::string("+") : escape;
      segment += kPathKept.find(c) != std::string_view::npos ? std::string(1, c) : escape;
    }
    out.push_back(std::move(percent));
    out.push_back(std::move(form));
    out.push_back(std::move(segment));
  }
}

// Secrets shorter than this have no base64 spelling of their own: too few characters would
// be hidden inside unrelated base64 text.
constexpr size_t kBase64Secret = 6;

// The secret's base64 wherever it sits in a longer encoded text (an Authorization header holds
// base64 of "user:password"): for each of the three byte offsets modulo 3, the characters
// that only the secret's own bits decide, in the standard and the URL-safe alphabet.
void base64_cores(const std::string& secret, std::vector<std::string>& out) {
  if (secret.size() < kBase64Secret) return;
  static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (size_t offset = 0; offset < 3; ++offset) {
    const std::string bytes = std::string(offset, '\0') + secret;
    const size_t first_bit = 8 * offset;
    const size_t end_bit = 8 * bytes.size();
    std::string core;
    for (size_t sextet = (first_bit + 5) / 6; 6 * sextet + 6 <= end_bit; ++sextet) {
      unsigned value = 0;
      for (size_t bit = 6 * sextet; bit < 6 * sextet + 6; ++bit) {
        value = value << 1 | ((static_cast<unsigned char>(bytes[bit / 8]) >> (7 - bit % 8)) & 1);
      }
      core += alphabet[value];
    }
    std::string url_safe = core;
    std::replace(url_safe.begin(), url_safe.end(), '+', '-');
    std::replace(url_safe.begin(), url_safe.end(), '/', '_');
    out.push_back(std::move(core));
    out.push_back(std::move(url_safe));
  }
}

// Every spelling of `secret` to hide: itself, without its trailing newline (as file() reads
// it), and JSON-escaped, %q-quoted, URL-encoded and base64.
std::vector<std::string> spellings_of(const std::vector<std::string>& secrets) {
  std::vector<std::string> out;
  for (const auto& secret : secrets) {
    if (secret.empty()) continue;
    std::vector<std::string> forms = {secret};
    std::string trimmed = secret;
    while (!trimmed.empty() && (trimmed.back() == '\n' || trimmed.back() == '\r'))
      trimmed.pop_back();
    if (!trimmed.empty() && trimmed != secret) forms.push_back(trimmed);
    const size_t plain = forms.size();
    for (size_t i = 0; i < plain; ++i) {
      const std::string form = forms[i];
      json_escaped(form, forms);
      lua_quoted(form, forms);
      url_encoded(form, forms);
      base64_cores(form, forms);
    }
    out.insert(out.end(), forms.begin(), forms.end());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

std::vector<std::string> sensitive_texts(const Block& block, const Value& object) {
  std::vector<std::string> out;
  collect_block(block, object, out);
  return out;
}

void add_sensitive_texts(const Block& block, const std::string& name, const Value& value,
                         std::vector<std::string>& out) {
  if (const Attribute* attribute = block.find_attribute(name)) {
    collect_attribute(*attribute, value, out);
  } else if (const NestedBlock* nested = block.find_block(name)) {
    collect_nested(*nested, value, out);
  }
}

std::string redact(std::string text, const std::vector<std::string>& given) {
  std::vector<std::string> secrets = spellings_of(given);
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
