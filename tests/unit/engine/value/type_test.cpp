#include "host/engine/value/type.h"

#include <doctest/doctest.h>

#include <stdexcept>

using namespace luaform::engine;

TEST_CASE("types are equal when their structure is equal") {
  CHECK(Type::list(Type::string()) == Type::list(Type::string()));
  CHECK(Type::list(Type::string()) != Type::set(Type::string()));
  CHECK(Type::map(Type::number()) != Type::map(Type::string()));
  Type a = Type::object({{"x", Type::string()}, {"y", Type::list(Type::number())}});
  Type b = Type::object({{"y", Type::list(Type::number())}, {"x", Type::string()}});
  CHECK(a == b);
  CHECK(a != Type::object({{"x", Type::string()}}));
  CHECK(Type::tuple({Type::string(), Type::boolean()}) ==
        Type::tuple({Type::string(), Type::boolean()}));
  CHECK(Type::tuple({Type::string()}) != Type::tuple({Type::string(), Type::string()}));
}

TEST_CASE("the default type is the dynamic pseudo-type") {
  CHECK(Type() == Type::dynamic());
  CHECK(Type().is_dynamic());
  CHECK(Type().kind() == TypeKind::Dynamic);
}

TEST_CASE("optional attributes are part of an object type's identity") {
  Type plain = Type::object({{"a", Type::string()}});
  Type optional = Type::object({{"a", Type::string()}}, {"a"});
  CHECK(plain != optional);
  CHECK(optional.optional_attributes() == std::set<std::string>{"a"});
}

TEST_CASE("optional markers for attributes the object lacks are dropped") {
  Type t = Type::object({{"a", Type::string()}}, {"a", "missing"});
  CHECK(t.optional_attributes() == std::set<std::string>{"a"});
}

TEST_CASE("friendly names read like Terraform's") {
  CHECK(Type::string().friendly_name() == "string");
  CHECK(Type::number().friendly_name() == "number");
  CHECK(Type::boolean().friendly_name() == "bool");
  CHECK(Type::dynamic().friendly_name() == "dynamic");
  CHECK(Type::list(Type::string()).friendly_name() == "list of string");
  CHECK(Type::set(Type::list(Type::number())).friendly_name() == "set of list of number");
  CHECK(Type::map(Type::boolean()).friendly_name() == "map of bool");
  CHECK(Type::object({}).friendly_name() == "object");
  CHECK(Type::tuple({}).friendly_name() == "tuple");
}

TEST_CASE("kind predicates classify primitives and collections") {
  CHECK(Type::string().is_primitive());
  CHECK(Type::boolean().is_primitive());
  CHECK_FALSE(Type::dynamic().is_primitive());
  CHECK(Type::list(Type::string()).is_collection());
  CHECK(Type::map(Type::string()).is_collection());
  CHECK_FALSE(Type::object({}).is_collection());
  CHECK_FALSE(Type::tuple({}).is_collection());
}

TEST_CASE("asking a type for parts it does not have is a logic error") {
  CHECK_THROWS_AS(Type::string().element(), std::logic_error);
  CHECK_THROWS_AS(Type::list(Type::string()).attributes(), std::logic_error);
  CHECK_THROWS_AS(Type::object({}).tuple_elements(), std::logic_error);
  CHECK(Type::set(Type::number()).element() == Type::number());
}
