#include "host/engine/value/value.h"

#include <algorithm>
#include <stdexcept>

namespace luaform::engine {
namespace {

int sign(int c) {
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

// A total order on types, so that a set of dynamically-typed elements still sorts.
int compare_types(const Type& a, const Type& b) {
  if (a.is_same_instance(b)) return 0;
  if (a.kind() != b.kind()) return a.kind() < b.kind() ? -1 : 1;
  switch (a.kind()) {
    case TypeKind::List:
    case TypeKind::Set:
    case TypeKind::Map:
      return compare_types(a.element(), b.element());
    case TypeKind::Tuple: {
      const auto& x = a.tuple_elements();
      const auto& y = b.tuple_elements();
      for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
        if (int c = compare_types(x[i], y[i]); c != 0) return c;
      }
      return sign(static_cast<int>(x.size()) - static_cast<int>(y.size()));
    }
    case TypeKind::Object: {
      const auto& x = a.attributes();
      const auto& y = b.attributes();
      auto i = x.begin();
      auto j = y.begin();
      for (; i != x.end() && j != y.end(); ++i, ++j) {
        if (int c = sign(i->first.compare(j->first)); c != 0) return c;
        if (int c = compare_types(i->second, j->second); c != 0) return c;
      }
      if (i != x.end() || j != y.end()) return i != x.end() ? 1 : -1;
      if (a.optional_attributes() == b.optional_attributes()) return 0;
      return a.optional_attributes() < b.optional_attributes() ? -1 : 1;
    }
    default:
      return 0;
  }
}

// A null or unknown placed where a concrete type is declared takes that type: callers
// build "no value yet" as Value(), and the wire needs the declared type.
Value conform(Value v, const Type& declared) {
  if (v.type() == declared || !v.type().is_dynamic() || v.is_known()) return v;
  Value out = v.is_null() ? Value::null(declared) : Value::unknown(declared);
  return out.mark_sensitive(v.is_sensitive());
}

Value::List conform_all(Value::List elements, const Type& declared) {
  for (auto& e : elements) e = conform(std::move(e), declared);
  return elements;
}

void quote_into(std::string& out, const std::string& s) {
  out += '"';
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  out += '"';
}

}  // namespace

Value::Value() : type_(Type::dynamic()), state_(State::Null) {}

Value::Value(Type type, State state, Data data)
    : type_(std::move(type)), state_(state), data_(std::move(data)) {}

Value::Value(Type type, List elements)
    : type_(std::move(type)),
      state_(State::Known),
      data_(std::make_shared<const List>(std::move(elements))) {}

Value::Value(Type type, Object members)
    : type_(std::move(type)),
      state_(State::Known),
      data_(std::make_shared<const Object>(std::move(members))) {}

const Value::List* Value::list_ptr() const {
  const auto* shared = std::get_if<SharedList>(&data_);
  return shared != nullptr ? shared->get() : nullptr;
}

const Value::Object* Value::object_ptr() const {
  const auto* shared = std::get_if<SharedObject>(&data_);
  return shared != nullptr ? shared->get() : nullptr;
}

Value& Value::operator=(const Value& o) {
  // Copy before replacing anything: `o` may be one of our own children.
  Value copy(o);
  return *this = std::move(copy);
}

Value& Value::operator=(Value&& o) noexcept {
  // Take `o` out first, so destroying our old data cannot destroy it mid-move.
  Value taken(std::move(o));
  std::swap(type_, taken.type_);
  std::swap(state_, taken.state_);
  std::swap(data_, taken.data_);
  std::swap(sensitive_, taken.sensitive_);
  return *this;
}

Value Value::null(Type type) {
  return Value(std::move(type), State::Null, {});
}
Value Value::unknown(Type type) {
  return Value(std::move(type), State::Unknown, {});
}
Value Value::unknown(Type type, const Refinement& refinement) {
  if (refinement.empty()) return unknown(std::move(type));
  return Value(std::move(type), State::Unknown, std::make_shared<const Refinement>(refinement));
}

const Refinement* Value::refinement() const {
  const auto* refined = std::get_if<std::shared_ptr<const Refinement>>(&data_);
  return refined != nullptr ? refined->get() : nullptr;
}

std::string Refinement::broken_by(const Value& v) const {
  if (v.is_null()) return not_null ? "it is null" : "";
  if (!v.is_known()) return "";
  if (!prefix.empty() && v.type().kind() == TypeKind::String &&
      !v.as_string().starts_with(prefix)) {
    return "it does not start with \"" + prefix + "\"";
  }
  if (v.type().kind() == TypeKind::Number) {
    if (min && v.as_number() < *min) return "it is less than " + min->text();
    if (max && *max < v.as_number()) return "it is more than " + max->text();
  }
  const TypeKind kind = v.type().kind();
  if (kind == TypeKind::List || kind == TypeKind::Set || kind == TypeKind::Map) {
    const auto length = static_cast<int64_t>(v.length());
    if (min_length && length < *min_length) {
      return "it has fewer than " + std::to_string(*min_length) + " elements";
    }
    if (max_length && length > *max_length) {
      return "it has more than " + std::to_string(*max_length) + " elements";
    }
  }
  return "";
}
Value Value::string(std::string s) {
  return Value(Type::string(), State::Known, std::move(s));
}
Value Value::number(Number n) {
  return Value(Type::number(), State::Known, std::move(n));
}
Value Value::boolean(bool b) {
  return Value(Type::boolean(), State::Known, b);
}

Value Value::list(Type element, List elements) {
  List items = conform_all(std::move(elements), element);
  return Value(Type::list(std::move(element)), std::move(items));
}

Value Value::set(Type element, List elements) {
  List items = conform_all(std::move(elements), element);
  std::stable_sort(items.begin(), items.end(),
                   [](const Value& a, const Value& b) { return compare(a, b) < 0; });
  // As in cty, an element that is not wholly known equals nothing, not even a copy of itself:
  // two elements still being planned may turn out different, so both are kept.
  List unique;
  unique.reserve(items.size());
  for (auto& item : items) {
    if (!unique.empty() && unique.back().is_wholly_known() && item.is_wholly_known() &&
        unique.back() == item) {
      continue;
    }
    unique.push_back(std::move(item));
  }
  return Value(Type::set(std::move(element)), std::move(unique));
}

Value Value::map(Type element, Object elements) {
  for (auto& [key, v] : elements) v = conform(std::move(v), element);
  return Value(Type::map(std::move(element)), std::move(elements));
}

Value Value::object(const Type& type, Object attributes) {
  if (type.kind() != TypeKind::Object) {
    throw std::logic_error("Value::object needs an object type, not " + type.friendly_name());
  }
  Object filled;
  for (const auto& [name, attribute_type] : type.attributes()) {
    auto it = attributes.find(name);
    filled.emplace(name, it == attributes.end() ? Value::null(attribute_type)
                                                : conform(std::move(it->second), attribute_type));
  }
  return Value(type, std::move(filled));
}

Value Value::tuple(const Type& type, List elements) {
  if (type.kind() != TypeKind::Tuple) {
    throw std::logic_error("Value::tuple needs a tuple type, not " + type.friendly_name());
  }
  const auto& types = type.tuple_elements();
  if (elements.size() != types.size()) {
    throw std::logic_error("Value::tuple: " + std::to_string(elements.size()) +
                           " elements for a tuple of " + std::to_string(types.size()));
  }
  for (size_t i = 0; i < elements.size(); ++i) elements[i] = conform(elements[i], types[i]);
  return Value(type, std::move(elements));
}

bool Value::is_wholly_known() const {
  if (is_unknown()) return false;
  if (const auto* list = list_ptr()) {
    return std::all_of(list->begin(), list->end(),
                       [](const Value& v) { return v.is_wholly_known(); });
  }
  if (const auto* object = object_ptr()) {
    return std::all_of(object->begin(), object->end(),
                       [](const auto& kv) { return kv.second.is_wholly_known(); });
  }
  return true;
}

Value Value::mark_sensitive(bool sensitive) const {
  Value copy = *this;
  copy.sensitive_ = sensitive;
  return copy;
}

namespace {

[[noreturn]] void wrong_access(const char* what, const Value& v) {
  std::string state = v.is_null() ? "null " : (v.is_unknown() ? "unknown " : "");
  throw std::logic_error(std::string(what) + " of a " + state + v.type().friendly_name() +
                         " value");
}

}  // namespace

const std::string& Value::as_string() const {
  const auto* s = std::get_if<std::string>(&data_);
  if (!is_known() || !s) wrong_access("as_string", *this);
  return *s;
}

const Number& Value::as_number() const {
  const auto* n = std::get_if<Number>(&data_);
  if (!is_known() || !n) wrong_access("as_number", *this);
  return *n;
}

bool Value::as_bool() const {
  const auto* b = std::get_if<bool>(&data_);
  if (!is_known() || !b) wrong_access("as_bool", *this);
  return *b;
}

const Value::List& Value::elements() const {
  const auto* list = list_ptr();
  if (!is_known() || !list) wrong_access("elements", *this);
  return *list;
}

const Value::Object& Value::attributes() const {
  const auto* object = object_ptr();
  if (!is_known() || !object) wrong_access("attributes", *this);
  return *object;
}

Value Value::get_attribute(const std::string& name) const {
  Type member;
  if (type_.kind() == TypeKind::Object) {
    auto it = type_.attributes().find(name);
    if (it != type_.attributes().end()) member = it->second;
  } else if (type_.kind() == TypeKind::Map) {
    member = type_.element();
  } else if (!type_.is_dynamic()) {
    wrong_access("get_attribute", *this);
  }
  // Whatever is inside an unknown object is unknown too, as cty's GetAttr answers.
  if (is_unknown()) return Value::unknown(member).mark_sensitive(sensitive_);
  if (const auto* object = object_ptr()) {
    auto it = object->find(name);
    if (it != object->end()) return sensitive_ ? it->second.mark_sensitive() : it->second;
  }
  return Value::null(member);
}

Value Value::with_attribute(const std::string& name, Value v) const {
  if (type_.kind() == TypeKind::Map) {
    Object elements = is_known() ? attributes() : Object{};
    elements[name] = std::move(v);
    return Value::map(type_.element(), std::move(elements)).mark_sensitive(sensitive_);
  }
  if (type_.kind() != TypeKind::Object || !type_.attributes().count(name)) {
    throw std::logic_error("with_attribute(\"" + name + "\") of a " + type_.friendly_name() +
                           " value without that attribute");
  }
  Object attrs = is_known() ? attributes() : Object{};
  attrs[name] = std::move(v);
  return Value::object(type_, std::move(attrs)).mark_sensitive(sensitive_);
}

size_t Value::length() const {
  if (const auto* list = list_ptr()) return list->size();
  if (const auto* object = object_ptr()) return object->size();
  return 0;
}

bool Value::operator==(const Value& o) const {
  return compare(*this, o) == 0;
}

int Value::compare(const Value& a, const Value& b) {
  if (a.state_ != b.state_) return a.state_ < b.state_ ? -1 : 1;
  if (int c = compare_types(a.type_, b.type_); c != 0) return c;
  if (!a.is_known()) return 0;
  if (a.data_.index() != b.data_.index()) return a.data_.index() < b.data_.index() ? -1 : 1;
  return std::visit(
      [&b](const auto& x) -> int {
        using T = std::decay_t<decltype(x)>;
        const T& y = std::get<T>(b.data_);
        if constexpr (std::is_same_v<T, std::monostate> ||
                      std::is_same_v<T, std::shared_ptr<const Refinement>>) {
          return 0;  // a refinement only ever sits in an unknown, which ended the comparison
        } else if constexpr (std::is_same_v<T, std::string>) {
          return sign(x.compare(y));
        } else if constexpr (std::is_same_v<T, Number>) {
          return x == y ? 0 : (x < y ? -1 : 1);
        } else if constexpr (std::is_same_v<T, bool>) {
          return x == y ? 0 : (x ? 1 : -1);
        } else if constexpr (std::is_same_v<T, SharedList>) {
          if (x == y) return 0;  // the same elements, shared
          const List& xs = *x;
          const List& ys = *y;
          for (size_t i = 0; i < xs.size() && i < ys.size(); ++i) {
            if (int c = compare(xs[i], ys[i]); c != 0) return c;
          }
          return xs.size() == ys.size() ? 0 : (xs.size() < ys.size() ? -1 : 1);
        } else {
          if (x == y) return 0;
          const Object& xs = *x;
          const Object& ys = *y;
          auto i = xs.begin();
          auto j = ys.begin();
          for (; i != xs.end() && j != ys.end(); ++i, ++j) {
            if (int c = sign(i->first.compare(j->first)); c != 0) return c;
            if (int c = compare(i->second, j->second); c != 0) return c;
          }
          if (i == xs.end() && j == ys.end()) return 0;
          return i == xs.end() ? -1 : 1;
        }
      },
      a.data_);
}

std::string Value::to_display_string() const {
  if (sensitive_) return "(sensitive value)";
  if (is_null()) return "null";
  if (is_unknown()) return "(known after apply)";
  std::string out;
  switch (type_.kind()) {
    case TypeKind::String:
      quote_into(out, as_string());
      return out;
    case TypeKind::Number:
      return as_number().text();
    case TypeKind::Bool:
      return as_bool() ? "true" : "false";
    case TypeKind::List:
    case TypeKind::Set:
    case TypeKind::Tuple: {
      out = "[";
      for (const auto& e : elements()) {
        if (out.size() > 1) out += ", ";
        out += e.to_display_string();
      }
      return out + "]";
    }
    case TypeKind::Map:
    case TypeKind::Object: {
      out = "{";
      for (const auto& [k, v] : attributes()) {
        if (out.size() > 1) out += ", ";
        if (type_.kind() == TypeKind::Map) {
          quote_into(out, k);
        } else {
          out += k;
        }
        out += " = " + v.to_display_string();
      }
      return out + "}";
    }
    case TypeKind::Dynamic:
      break;
  }
  return "null";
}

}  // namespace luaform::engine
