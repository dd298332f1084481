// The type system of Terraform values (cty's, in small): primitives, collections,
// structural types and the dynamic pseudo-type. Types are immutable and cheap to copy.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace luaform::engine {

enum class TypeKind { String, Number, Bool, List, Set, Map, Object, Tuple, Dynamic };

class Type {
 public:
  Type();  // the dynamic pseudo-type
  static Type string();
  static Type number();
  static Type boolean();
  static Type dynamic();
  static Type list(Type element);
  static Type set(Type element);
  static Type map(Type element);
  static Type object(std::map<std::string, Type> attributes,
                     std::set<std::string> optional_attributes = {});
  static Type tuple(std::vector<Type> elements);

  TypeKind kind() const;
  bool is_primitive() const;
  bool is_collection() const;  // list, set or map
  bool is_dynamic() const { return kind() == TypeKind::Dynamic; }
  // True when this type is or contains the dynamic pseudo-type.
  bool has_dynamic_types() const;
  // Element type of a list, set or map.
  const Type& element() const;
  const std::map<std::string, Type>& attributes() const;
  const std::set<std::string>& optional_attributes() const;
  const std::vector<Type>& tuple_elements() const;
  // A readable name such as "list of string", used in diagnostics.
  std::string friendly_name() const;

  bool operator==(const Type& other) const;
  // True when both are copies of one type: equal without looking inside (values decoded
  // against one schema share their types, so comparing their elements starts here).
  bool is_same_instance(const Type& other) const { return impl_ == other.impl_; }
  bool operator!=(const Type& other) const { return !(*this == other); }

 private:
  struct Impl;
  explicit Type(std::shared_ptr<const Impl> impl);
  std::shared_ptr<const Impl> impl_;
};

}  // namespace luaform::engine
