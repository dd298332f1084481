#include "host/engine/codec/json_codec.h"

#include <nlohmann/json.hpp>

#include <utility>
#include <vector>

#include "host/engine/value/value_walk.h"

namespace luaform::engine {
namespace {

using nlohmann::json;

// Far deeper than any schema; bounds recursion on hostile input.
constexpr size_t kMaxDepth = 256;

// A parsed JSON document that keeps every number as its source text: nlohmann's own DOM
// would turn 0.1 or a 30-digit integer into a double and lose exactness.
struct Node {
  enum class Kind { Null, Bool, Number, String, Array, Object };
  Kind kind = Kind::Null;
  bool boolean = false;
  std::string text;         // a string's value or a number's text
  std::string key;          // this node's key in its parent object
  std::vector<Node> items;  // an array's elements or an object's members, in document order
  std::string pending_key;  // only while parsing
};

class TreeBuilder : public nlohmann::json_sax<json> {
 public:
  std::optional<Node> root;
  std::string error;

  bool null() override { return add(Node{}); }
  bool boolean(bool v) override {
    Node n;
    n.kind = Node::Kind::Bool;
    n.boolean = v;
    return add(std::move(n));
  }
  bool number_integer(number_integer_t v) override { return number(std::to_string(v)); }
  bool number_unsigned(number_unsigned_t v) override { return number(std::to_string(v)); }
  bool number_float(number_float_t, const string_t& text) override { return number(text); }
  bool string(string_t& v) override {
    Node n;
    n.kind = Node::Kind::String;
    n.text = std::move(v);
    return add(std::move(n));
  }
  bool binary(binary_t&) override {
    error = "binary values are not JSON";
    return false;
  }
  bool start_object(std::size_t) override { return open(Node::Kind::Object); }
  bool key(string_t& k) override {
    stack_.back().pending_key = std::move(k);
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(Node::Kind::Array); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    error = e.what();
    return false;
  }

 private:
  bool number(std::string text) {
    Node n;
    n.kind = Node::Kind::Number;
    n.text = std::move(text);
    return add(std::move(n));
  }
  bool open(Node::Kind kind) {
    if (stack_.size() >= kMaxDepth) {
      error = "the document is nested too deeply";
      return false;
    }
    Node n;
    n.kind = kind;
    stack_.push_back(std::move(n));
    return true;
  }
  bool close() {
    Node n = std::move(stack_.back());
    stack_.pop_back();
    return add(std::move(n));
  }
  bool add(Node n) {
    if (stack_.empty()) {
      root = std::move(n);
    } else {
      Node& parent = stack_.back();
      if (parent.kind == Node::Kind::Object) n.key = std::move(parent.pending_key);
      parent.items.push_back(std::move(n));
    }
    return true;
  }

  std::vector<Node> stack_;
};

std::optional<Node> parse_tree(const std::string& text, std::string& error) {
  TreeBuilder builder;
  bool ok = false;
  try {
    ok = json::sax_parse(text, &builder);
  } catch (const std::exception& e) {
    builder.error = e.what();
  }
  if (!ok || !builder.root) {
    error = builder.error.empty() ? "not valid JSON" : builder.error;
    return std::nullopt;
  }
  return std::move(builder.root);
}

const Node* member(const Node& object, const std::string& name) {
  const Node* found = nullptr;
  for (const Node& m : object.items) {
    if (m.key == name) found = &m;  // the last duplicate wins, as in Go's decoder
  }
  return found;
}

// ---- type JSON ----

json type_to_json(const Type& t) {
  switch (t.kind()) {
    case TypeKind::String:
      return "string";
    case TypeKind::Number:
      return "number";
    case TypeKind::Bool:
      return "bool";
    case TypeKind::Dynamic:
      return "dynamic";
    case TypeKind::List:
      return json::array({"list", type_to_json(t.element())});
    case TypeKind::Set:
      return json::array({"set", type_to_json(t.element())});
    case TypeKind::Map:
      return json::array({"map", type_to_json(t.element())});
    case TypeKind::Object: {
      json attrs = json::object();
      for (const auto& [name, attribute_type] : t.attributes()) {
        attrs[name] = type_to_json(attribute_type);
      }
      json out = json::array({"object", std::move(attrs)});
      if (!t.optional_attributes().empty()) {
        json optional = json::array();
        for (const auto& name : t.optional_attributes()) optional.push_back(name);
        out.push_back(std::move(optional));
      }
      return out;
    }
    case TypeKind::Tuple: {
      json elements = json::array();
      for (const auto& element : t.tuple_elements()) elements.push_back(type_to_json(element));
      return json::array({"tuple", std::move(elements)});
    }
  }
  return "dynamic";
}

std::optional<Type> type_from_tree(const Node& n, std::string& error) {
  if (n.kind == Node::Kind::String) {
    if (n.text == "string") return Type::string();
    if (n.text == "number") return Type::number();
    if (n.text == "bool") return Type::boolean();
    if (n.text == "dynamic") return Type::dynamic();
    error = "unsupported type \"" + n.text + "\"";
    return std::nullopt;
  }
  if (n.kind != Node::Kind::Array || n.items.empty() || n.items[0].kind != Node::Kind::String) {
    error = "a type must be a string or an array starting with a type kind";
    return std::nullopt;
  }
  const std::string& kind = n.items[0].text;
  if (kind == "list" || kind == "set" || kind == "map") {
    if (n.items.size() != 2) {
      error = "\"" + kind + "\" needs exactly one element type";
      return std::nullopt;
    }
    auto element = type_from_tree(n.items[1], error);
    if (!element) return std::nullopt;
    if (kind == "list") return Type::list(std::move(*element));
    if (kind == "set") return Type::set(std::move(*element));
    return Type::map(std::move(*element));
  }
  if (kind == "object") {
    if ((n.items.size() != 2 && n.items.size() != 3) || n.items[1].kind != Node::Kind::Object) {
      error = "\"object\" needs an object of attribute types";
      return std::nullopt;
    }
    std::map<std::string, Type> attrs;
    for (const Node& attribute : n.items[1].items) {
      auto attribute_type = type_from_tree(attribute, error);
      if (!attribute_type) return std::nullopt;
      attrs[attribute.key] = std::move(*attribute_type);
    }
    std::set<std::string> optional;
    if (n.items.size() == 3) {
      if (n.items[2].kind != Node::Kind::Array) {
        error = "the optional attributes of an object must be an array of names";
        return std::nullopt;
      }
      for (const Node& name : n.items[2].items) {
        if (name.kind != Node::Kind::String || !attrs.count(name.text)) {
          error = "an optional attribute must name an attribute of the object";
          return std::nullopt;
        }
        optional.insert(name.text);
      }
    }
    return Type::object(std::move(attrs), std::move(optional));
  }
  if (kind == "tuple") {
    if (n.items.size() != 2 || n.items[1].kind != Node::Kind::Array) {
      error = "\"tuple\" needs an array of element types";
      return std::nullopt;
    }
    std::vector<Type> elements;
    for (const Node& element : n.items[1].items) {
      auto element_type = type_from_tree(element, error);
      if (!element_type) return std::nullopt;
      elements.push_back(std::move(*element_type));
    }
    return Type::tuple(std::move(elements));
  }
  error = "unsupported type kind \"" + kind + "\"";
  return std::nullopt;
}

// ---- value JSON ----

void write_string(std::string& out, const std::string& s) {
  // Invalid UTF-8 becomes U+FFFD, as Go's encoder does, rather than failing the whole value.
  std::string quoted = json(s).dump(-1, ' ', false, json::error_handler_t::replace);
  // Go's encoder also escapes <, > and & (and U+2028/U+2029); doing the same keeps our JSON
  // byte-identical to what Terraform itself writes.
  for (size_t i = 0; i < quoted.size(); ++i) {
    char c = quoted[i];
    if (c == '<') {
      out += "\\u003c";
    } else if (c == '>') {
      out += "\\u003e";
    } else if (c == '&') {
      out += "\\u0026";
    } else if (c == '\xe2' && i + 2 < quoted.size() && quoted[i + 1] == '\x80' &&
               (quoted[i + 2] == '\xa8' || quoted[i + 2] == '\xa9')) {
      out += quoted[i + 2] == '\xa8' ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out += c;
    }
  }
}

// Writes `v` as `t` says; primitives of another kind are converted as cty would, and what
// cannot be written (unknowns, mismatched structures) becomes null.
void write_value(std::string& out, const Value& v, const Type& t) {
  if (t.is_dynamic() && !v.type().is_dynamic()) {
    out += "{\"value\":";
    write_value(out, v, v.type());
    out += ",\"type\":" + encode_type_json(v.type()) + "}";
    return;
  }
  if (!v.is_known()) {
    out += "null";
    return;
  }
  const TypeKind have = v.type().kind();
  switch (t.kind()) {
    case TypeKind::String:
      if (have == TypeKind::String) return write_string(out, v.as_string());
      if (have == TypeKind::Number) return write_string(out, v.as_number().text());
      if (have == TypeKind::Bool) return write_string(out, v.as_bool() ? "true" : "false");
      break;
    case TypeKind::Number:
      if (have == TypeKind::Number) {
        out += v.as_number().text();
        return;
      }
      if (have == TypeKind::String) {
        if (auto n = Number::parse(v.as_string())) {
          out += n->text();
          return;
        }
      }
      break;
    case TypeKind::Bool:
      if (have == TypeKind::Bool) {
        out += v.as_bool() ? "true" : "false";
        return;
      }
      break;
    case TypeKind::List:
    case TypeKind::Set:
    case TypeKind::Tuple:
      if (const auto* items = list_data(v)) {
        out += '[';
        for (size_t i = 0; i < items->size(); ++i) {
          if (i) out += ',';
          const Type& item_type =
              t.kind() == TypeKind::Tuple
                  ? (i < t.tuple_elements().size() ? t.tuple_elements()[i] : Type::dynamic())
                  : t.element();
          write_value(out, (*items)[i], item_type);
        }
        out += ']';
        return;
      }
      break;
    case TypeKind::Map:
      if (const auto* entries = object_data(v)) {
        out += '{';
        bool first = true;
        for (const auto& [key, item] : *entries) {
          if (!first) out += ',';
          first = false;
          write_string(out, key);
          out += ':';
          write_value(out, item, t.element());
        }
        out += '}';
        return;
      }
      break;
    case TypeKind::Object:
      if (const auto* attrs = object_data(v)) {
        out += '{';
        bool first = true;
        for (const auto& [name, attribute_type] : t.attributes()) {
          if (!first) out += ',';
          first = false;
          write_string(out, name);
          out += ':';
          auto it = attrs->find(name);
          write_value(out, it == attrs->end() ? Value::null(attribute_type) : it->second,
                      attribute_type);
        }
        out += '}';
        return;
      }
      break;
    case TypeKind::Dynamic:
      break;
  }
  out += "null";
}

class ValueReader {
 public:
  ValueReader(Diagnostics& diags, bool drop_unknown_attributes)
      : diags_(diags), drop_unknown_attributes_(drop_unknown_attributes) {}

  std::optional<Value> read(const Node& n, const Type& t) {
    if (n.kind == Node::Kind::Null) return Value::null(t);
    switch (t.kind()) {
      case TypeKind::Dynamic:
        return read_dynamic(n);
      case TypeKind::String:
        if (n.kind == Node::Kind::String || n.kind == Node::Kind::Number) {
          return Value::string(n.text);
        }
        if (n.kind == Node::Kind::Bool) return Value::string(n.boolean ? "true" : "false");
        return fail("a string is required");
      case TypeKind::Number:
        if (n.kind == Node::Kind::Number || n.kind == Node::Kind::String) {
          if (auto number = Number::parse(n.text)) return Value::number(std::move(*number));
        }
        return fail("a number is required");
      case TypeKind::Bool:
        if (n.kind == Node::Kind::Bool) return Value::boolean(n.boolean);
        // cty converts the strings a bool prints as back into a bool.
        if (n.kind == Node::Kind::String && (n.text == "true" || n.text == "false")) {
          return Value::boolean(n.text == "true");
        }
        return fail("a bool is required");
      case TypeKind::List:
      case TypeKind::Set: {
        if (n.kind != Node::Kind::Array) return fail("a JSON array is required");
        auto items = read_items(n, [&](size_t) { return t.element(); });
        if (!items) return std::nullopt;
        if (t.kind() == TypeKind::List) return Value::list(t.element(), std::move(*items));
        return Value::set(t.element(), std::move(*items));
      }
      case TypeKind::Tuple: {
        const auto& types = t.tuple_elements();
        if (n.kind != Node::Kind::Array) return fail("a JSON array is required");
        if (n.items.size() != types.size()) {
          return fail("a tuple of " + std::to_string(types.size()) + " elements is required");
        }
        auto items = read_items(n, [&](size_t i) { return types[i]; });
        if (!items) return std::nullopt;
        return Value::tuple(t, std::move(*items));
      }
      case TypeKind::Map:
      case TypeKind::Object:
        return read_object(n, t);
    }
    return fail("unsupported type " + t.friendly_name());
  }

  std::optional<Type> read_type(const Node& n) {
    std::string error;
    auto t = type_from_tree(n, error);
    if (!t) diags_.error("Invalid type JSON", "The type is not valid: " + error + ".", path_);
    return t;
  }

 private:
  std::optional<Value> fail(const std::string& what) {
    std::string where = path_.empty() ? "" : " at " + path_to_string(path_);
    diags_.error("Invalid JSON value" + where, what + ".", path_);
    return std::nullopt;
  }

  std::optional<Value> read_dynamic(const Node& n) {
    if (n.kind != Node::Kind::Object) {
      return fail("a dynamically-typed value must be an object with \"value\" and \"type\"");
    }
    const Node* type_node = member(n, "type");
    const Node* value_node = member(n, "value");
    for (const Node& m : n.items) {
      if (m.key != "type" && m.key != "value") {
        return fail("invalid key \"" + m.key + "\" in a dynamically-typed value");
      }
    }
    if (!type_node) return fail("a dynamically-typed value needs a \"type\"");
    if (!value_node) return fail("a dynamically-typed value needs a \"value\"");
    auto t = read_type(*type_node);
    if (!t) return std::nullopt;
    if (t->is_dynamic()) return fail("a dynamically-typed value cannot have the type \"dynamic\"");
    return read(*value_node, *t);
  }

  template <typename TypeOf>
  std::optional<Value::List> read_items(const Node& n, TypeOf type_of) {
    Value::List items;
    items.reserve(n.items.size());
    for (size_t i = 0; i < n.items.size(); ++i) {
      path_.push_back(ElementIndex{static_cast<int64_t>(i)});
      auto item = read(n.items[i], type_of(i));
      path_.pop_back();
      if (!item) return std::nullopt;
      items.push_back(std::move(*item));
    }
    return items;
  }

  std::optional<Value> read_object(const Node& n, const Type& t) {
    const bool is_object = t.kind() == TypeKind::Object;
    if (n.kind != Node::Kind::Object) return fail("a JSON object is required");
    Value::Object entries;
    for (const Node& item_node : n.items) {
      const std::string& key = item_node.key;
      Type item_type;
      if (is_object) {
        auto it = t.attributes().find(key);
        if (it == t.attributes().end()) {
          if (drop_unknown_attributes_) continue;
          return fail("unsupported attribute \"" + key + "\"");
        }
        item_type = it->second;
        path_.push_back(AttributeName{key});
      } else {
        item_type = t.element();
        path_.push_back(ElementKey{key});
      }
      auto item = read(item_node, item_type);
      path_.pop_back();
      if (!item) return std::nullopt;
      entries[key] = std::move(*item);
    }
    if (is_object) return Value::object(t, std::move(entries));
    return Value::map(t.element(), std::move(entries));
  }

  Diagnostics& diags_;
  bool drop_unknown_attributes_;
  AttributePath path_;
};

}  // namespace

std::string encode_type_json(const Type& type) {
  return type_to_json(type).dump();
}

std::optional<Type> decode_type_json(const std::string& text, Diagnostics& diags) {
  std::string error;
  auto tree = parse_tree(text, error);
  if (!tree) {
    diags.error("Invalid type JSON", "The type is not valid JSON: " + error);
    return std::nullopt;
  }
  return ValueReader(diags, false).read_type(*tree);
}

std::string encode_value_json(const Value& value, const Type& type) {
  std::string out;
  write_value(out, value, type);
  return out;
}

Value decode_value_json(const std::string& text, const Type& type, Diagnostics& diags,
                        bool drop_unknown_attributes) {
  std::string error;
  auto tree = parse_tree(text, error);
  if (!tree) {
    diags.error("Invalid JSON value", "The value is not valid JSON: " + error);
    return Value::null(type);
  }
  auto value = ValueReader(diags, drop_unknown_attributes).read(*tree, type);
  return value ? std::move(*value) : Value::null(type);
}

}  // namespace luaform::engine
