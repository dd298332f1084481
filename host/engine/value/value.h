// A Terraform value: a type plus a known value, null, or unknown, with a sensitive mark.
// Collections hold child values; sets are kept sorted and de-duplicated so that a set has
// one identity whatever order its elements arrived in.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "host/engine/value/number.h"
#include "host/engine/value/type.h"

namespace luaform::engine {

class Value;

// What is known about a value before it is known (cty's refinements of an unknown value): the
// CLI decides null checks, comparisons and prefixes at plan time from them. Bounds are
// inclusive.
struct Refinement {
  bool not_null = false;
  std::string prefix;                             // strings
  std::optional<Number> min, max;                 // numbers
  std::optional<int64_t> min_length, max_length;  // lists, sets and maps

  bool empty() const {
    return !not_null && prefix.empty() && !min && !max && !min_length && !max_length;
  }
  // Why the known (or null) value `v` breaks the refinement, or "" when it keeps it.
  std::string broken_by(const Value& v) const;
};

class Value {
 public:
  using List = std::vector<Value>;              // list, set, tuple
  using Object = std::map<std::string, Value>;  // map, object

  Value();  // null of the dynamic pseudo-type
  Value(const Value&) = default;
  Value(Value&&) noexcept = default;
  // Assignment copes with the source living inside the target, as in v = v.elements()[0].
  Value& operator=(const Value& o);
  Value& operator=(Value&& o) noexcept;
  ~Value() = default;
  static Value null(Type type);
  static Value unknown(Type type);
  // An unknown value with what is known about it (an empty refinement gives a plain unknown).
  static Value unknown(Type type, const Refinement& refinement);
  static Value string(std::string s);
  static Value number(Number n);
  static Value number(int64_t n) { return number(Number::from_int(n)); }
  static Value boolean(bool b);
  static Value list(Type element, List elements);
  static Value set(Type element, List elements);  // sorts and de-duplicates
  static Value map(Type element, Object elements);
  // Attributes missing from `attributes` become nulls of their declared type.
  static Value object(const Type& type, Object attributes);
  static Value tuple(const Type& type, List elements);

  const Type& type() const { return type_; }
  bool is_null() const { return state_ == State::Null; }
  bool is_unknown() const { return state_ == State::Unknown; }
  bool is_known() const { return state_ == State::Known; }
  // True when neither this value nor any nested value is unknown.
  bool is_wholly_known() const;
  bool is_sensitive() const { return sensitive_; }
  // What is known about an unknown value; null for a plain unknown and for other values.
  const Refinement* refinement() const;
  Value mark_sensitive(bool sensitive = true) const;

  const std::string& as_string() const;
  const Number& as_number() const;
  bool as_bool() const;
  const List& elements() const;      // list, set, tuple
  const Object& attributes() const;  // map, object
  // Object attribute or map element; a null of the right type when absent.
  Value get_attribute(const std::string& name) const;
  // A copy with one object attribute replaced.
  Value with_attribute(const std::string& name, Value v) const;
  size_t length() const;  // of a known collection

  // Deep equality of type, state and content (sensitivity is ignored).
  bool operator==(const Value& o) const;
  bool operator!=(const Value& o) const { return !(*this == o); }
  // A total order used to keep sets canonical.
  static int compare(const Value& a, const Value& b);

  // A short human rendering used in diagnostics and logs (sensitive values are redacted).
  std::string to_display_string() const;

 private:
  enum class State { Known, Null, Unknown };
  // A collection's elements are shared, never changed once made: a copy of a value (as
  // get_attribute, a request or a plan context makes) costs a reference count, not a walk.
  using SharedList = std::shared_ptr<const List>;
  using SharedObject = std::shared_ptr<const Object>;
  using Data = std::variant<std::monostate, std::string, Number, bool, SharedList, SharedObject,
                            std::shared_ptr<const Refinement>>;
  Value(Type type, State state, Data data);
  Value(Type type, List elements);
  Value(Type type, Object members);
  const List* list_ptr() const;
  const Object* object_ptr() const;

  Type type_;
  State state_ = State::Null;
  Data data_;
  bool sensitive_ = false;
};

}  // namespace luaform::engine
