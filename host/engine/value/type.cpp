#include "host/engine/value/type.h"

#include <stdexcept>

namespace luaform::engine {

struct Type::Impl {
  TypeKind kind = TypeKind::Dynamic;
  std::vector<Type> children;  // the element of a collection, or a tuple's elements
  std::map<std::string, Type> attributes;
  std::set<std::string> optional_attributes;
};

// Primitive types are shared so that building them never allocates.
Type Type::string() {
  static const Type t(std::make_shared<const Impl>(Impl{TypeKind::String, {}, {}, {}}));
  return t;
}

Type Type::number() {
  static const Type t(std::make_shared<const Impl>(Impl{TypeKind::Number, {}, {}, {}}));
  return t;
}

Type Type::boolean() {
  static const Type t(std::make_shared<const Impl>(Impl{TypeKind::Bool, {}, {}, {}}));
  return t;
}

Type Type::dynamic() {
  static const Type t(std::make_shared<const Impl>(Impl{TypeKind::Dynamic, {}, {}, {}}));
  return t;
}

Type::Type() : Type(dynamic()) {}

Type::Type(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

Type Type::list(Type element) {
  return Type(std::make_shared<const Impl>(Impl{TypeKind::List, {std::move(element)}, {}, {}}));
}

Type Type::set(Type element) {
  return Type(std::make_shared<const Impl>(Impl{TypeKind::Set, {std::move(element)}, {}, {}}));
}

Type Type::map(Type element) {
  return Type(std::make_shared<const Impl>(Impl{TypeKind::Map, {std::move(element)}, {}, {}}));
}

Type Type::object(std::map<std::string, Type> attributes,
                  std::set<std::string> optional_attributes) {
  auto impl = std::make_shared<Impl>();
  impl->kind = TypeKind::Object;
  // An optional marker for an attribute the object does not have would make two equal
  // objects compare different; such names are dropped.
  for (auto it = optional_attributes.begin(); it != optional_attributes.end();) {
    it = attributes.count(*it) ? std::next(it) : optional_attributes.erase(it);
  }
  impl->attributes = std::move(attributes);
  impl->optional_attributes = std::move(optional_attributes);
  return Type(std::move(impl));
}

Type Type::tuple(std::vector<Type> elements) {
  auto impl = std::make_shared<Impl>();
  impl->kind = TypeKind::Tuple;
  impl->children = std::move(elements);
  return Type(std::move(impl));
}

TypeKind Type::kind() const {
  return impl_->kind;
}

bool Type::is_primitive() const {
  TypeKind k = kind();
  return k == TypeKind::String || k == TypeKind::Number || k == TypeKind::Bool;
}

bool Type::is_collection() const {
  TypeKind k = kind();
  return k == TypeKind::List || k == TypeKind::Set || k == TypeKind::Map;
}

const Type& Type::element() const {
  if (!is_collection()) throw std::logic_error("element() of " + friendly_name());
  return impl_->children.front();
}

const std::map<std::string, Type>& Type::attributes() const {
  if (kind() != TypeKind::Object) throw std::logic_error("attributes() of " + friendly_name());
  return impl_->attributes;
}

const std::set<std::string>& Type::optional_attributes() const {
  if (kind() != TypeKind::Object) {
    throw std::logic_error("optional_attributes() of " + friendly_name());
  }
  return impl_->optional_attributes;
}

const std::vector<Type>& Type::tuple_elements() const {
  if (kind() != TypeKind::Tuple) throw std::logic_error("tuple_elements() of " + friendly_name());
  return impl_->children;
}

bool Type::has_dynamic_types() const {
  switch (kind()) {
    case TypeKind::Dynamic:
      return true;
    case TypeKind::List:
    case TypeKind::Set:
    case TypeKind::Map:
      return element().has_dynamic_types();
    case TypeKind::Object:
      for (const auto& [name, attribute] : attributes()) {
        if (attribute.has_dynamic_types()) return true;
      }
      return false;
    case TypeKind::Tuple:
      for (const auto& member : tuple_elements()) {
        if (member.has_dynamic_types()) return true;
      }
      return false;
    default:
      return false;
  }
}

std::string Type::friendly_name() const {
  switch (kind()) {
    case TypeKind::String:
      return "string";
    case TypeKind::Number:
      return "number";
    case TypeKind::Bool:
      return "bool";
    case TypeKind::List:
      return "list of " + element().friendly_name();
    case TypeKind::Set:
      return "set of " + element().friendly_name();
    case TypeKind::Map:
      return "map of " + element().friendly_name();
    case TypeKind::Object:
      return "object";
    case TypeKind::Tuple:
      return "tuple";
    case TypeKind::Dynamic:
      return "dynamic";
  }
  return "dynamic";
}

bool Type::operator==(const Type& other) const {
  if (impl_ == other.impl_) return true;
  const Impl& a = *impl_;
  const Impl& b = *other.impl_;
  return a.kind == b.kind && a.children == b.children && a.attributes == b.attributes &&
         a.optional_attributes == b.optional_attributes;
}

}  // namespace luaform::engine
