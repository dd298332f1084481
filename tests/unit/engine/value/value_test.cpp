#include "host/engine/value/value.h"

#include <doctest/doctest.h>

#include <stdexcept>

using namespace luaform::engine;

namespace {

Value str(const char* s) {
  return Value::string(s);
}

}  // namespace

TEST_CASE("the default value is a null of the dynamic type") {
  Value v;
  CHECK(v.is_null());
  CHECK(v.type().is_dynamic());
}

TEST_CASE("sets are sorted and de-duplicated whatever the input order") {
  Value a = Value::set(Type::string(), {str("b"), str("a"), str("c"), str("a")});
  Value b = Value::set(Type::string(), {str("c"), str("b"), str("a")});
  CHECK(a == b);
  REQUIRE(a.length() == 3);
  CHECK(a.elements()[0] == str("a"));
  CHECK(a.elements()[2] == str("c"));
}

TEST_CASE("sets of numbers sort numerically") {
  Value s = Value::set(Type::number(), {Value::number(10), Value::number(9), Value::number(-1)});
  CHECK(s.elements()[0] == Value::number(-1));
  CHECK(s.elements()[1] == Value::number(9));
  CHECK(s.elements()[2] == Value::number(10));
}

TEST_CASE("set elements that are not wholly known are never merged") {
  Type obj = Type::object({{"a", Type::string()}});
  Value partial = Value::object(obj, {{"a", Value::unknown(Type::string())}});
  Value s = Value::set(obj, {partial, partial});
  CHECK(s.length() == 2);
  Value unknowns = Value::set(
      Type::string(), {Value::unknown(Type::string()), str("x"), Value::unknown(Type::string())});
  CHECK(unknowns.length() == 3);
}

TEST_CASE("equality is deep and ignores sensitivity") {
  Type obj = Type::object({{"a", Type::list(Type::number())}});
  Value x = Value::object(obj, {{"a", Value::list(Type::number(), {Value::number(1)})}});
  Value y = Value::object(obj, {{"a", Value::list(Type::number(), {Value::number(1)})}});
  Value z = Value::object(obj, {{"a", Value::list(Type::number(), {Value::number(2)})}});
  CHECK(x == y);
  CHECK(x != z);
  CHECK(x == y.mark_sensitive());
  CHECK(str("a") != Value::null(Type::string()));
  CHECK(Value::null(Type::string()) != Value::unknown(Type::string()));
  CHECK(Value::null(Type::string()) != Value::null(Type::number()));
  CHECK(Value::unknown(Type::string()) == Value::unknown(Type::string()));
}

TEST_CASE("object fills missing attributes with nulls of their types") {
  Type t = Type::object({{"a", Type::string()}, {"b", Type::number()}});
  Value v = Value::object(t, {{"a", str("x")}});
  REQUIRE(v.attributes().count("b"));
  CHECK(v.attributes().at("b").is_null());
  CHECK(v.attributes().at("b").type() == Type::number());
}

TEST_CASE("a dynamic null placed in a typed slot takes the slot's type") {
  Type t = Type::object({{"a", Type::string()}});
  Value v = Value::object(t, {{"a", Value()}});
  CHECK(v.attributes().at("a").type() == Type::string());
  Value l = Value::list(Type::number(), {Value::unknown(Type::dynamic())});
  CHECK(l.elements()[0].is_unknown());
  CHECK(l.elements()[0].type() == Type::number());
}

TEST_CASE("get_attribute reads object attributes and map elements") {
  Type t = Type::object({{"a", Type::string()}, {"m", Type::map(Type::number())}});
  Value v = Value::object(
      t, {{"a", str("x")}, {"m", Value::map(Type::number(), {{"k", Value::number(1)}})}});
  CHECK(v.get_attribute("a") == str("x"));
  CHECK(v.get_attribute("m").get_attribute("k") == Value::number(1));
  Value missing = v.get_attribute("m").get_attribute("nope");
  CHECK(missing.is_null());
  CHECK(missing.type() == Type::number());
}

TEST_CASE("get_attribute of an unknown object is unknown, of a null object is null") {
  Type t = Type::object({{"a", Type::string()}});
  CHECK(Value::unknown(t).get_attribute("a") == Value::unknown(Type::string()));
  CHECK(Value::null(t).get_attribute("a") == Value::null(Type::string()));
}

TEST_CASE("attributes of a sensitive object are sensitive") {
  Type t = Type::object({{"a", Type::string()}});
  Value v = Value::object(t, {{"a", str("secret")}}).mark_sensitive();
  CHECK(v.get_attribute("a").is_sensitive());
}

TEST_CASE("with_attribute replaces one attribute and keeps the rest") {
  Type t = Type::object({{"a", Type::string()}, {"b", Type::string()}});
  Value v = Value::object(t, {{"a", str("1")}, {"b", str("2")}});
  Value w = v.with_attribute("b", str("3"));
  CHECK(w.get_attribute("a") == str("1"));
  CHECK(w.get_attribute("b") == str("3"));
  CHECK(v.get_attribute("b") == str("2"));
  CHECK_THROWS_AS(v.with_attribute("c", str("x")), std::logic_error);
}

TEST_CASE("is_wholly_known looks at every nested value") {
  Type t = Type::object({{"l", Type::list(Type::string())}});
  Value known = Value::object(t, {{"l", Value::list(Type::string(), {str("a")})}});
  Value nested = Value::object(
      t, {{"l", Value::list(Type::string(), {str("a"), Value::unknown(Type::string())})}});
  CHECK(known.is_wholly_known());
  CHECK_FALSE(nested.is_wholly_known());
  CHECK_FALSE(Value::unknown(t).is_wholly_known());
  CHECK(Value::null(t).is_wholly_known());
}

TEST_CASE("accessors of the wrong kind or state are logic errors") {
  CHECK_THROWS_AS(Value::number(1).as_string(), std::logic_error);
  CHECK_THROWS_AS(Value::null(Type::string()).as_string(), std::logic_error);
  CHECK_THROWS_AS(Value::unknown(Type::list(Type::string())).elements(), std::logic_error);
  CHECK_THROWS_AS(Value::tuple(Type::tuple({Type::string()}), {}), std::logic_error);
  CHECK_THROWS_AS(Value::object(Type::string(), {}), std::logic_error);
}

TEST_CASE("compare is a total order consistent with equality") {
  Value::List samples = {Value(),
                         Value::null(Type::string()),
                         Value::unknown(Type::string()),
                         str(""),
                         str("a"),
                         str("b"),
                         Value::number(-1),
                         Value::number(2),
                         Value::boolean(false),
                         Value::boolean(true),
                         Value::list(Type::string(), {}),
                         Value::list(Type::string(), {str("a")}),
                         Value::list(Type::string(), {str("a"), str("b")}),
                         Value::map(Type::string(), {{"k", str("v")}})};
  for (const Value& a : samples) {
    CHECK(Value::compare(a, a) == 0);
    for (const Value& b : samples) {
      CHECK(Value::compare(a, b) == -Value::compare(b, a));
      CHECK((Value::compare(a, b) == 0) == (a == b));
      for (const Value& c : samples) {
        if (Value::compare(a, b) < 0 && Value::compare(b, c) < 0) {
          CHECK(Value::compare(a, c) < 0);
        }
      }
    }
  }
}

TEST_CASE("display strings render values and redact sensitive ones") {
  Type t = Type::object({{"name", Type::string()}, {"password", Type::string()}});
  Value v = Value::object(t, {{"name", str("x")}, {"password", str("hunter2").mark_sensitive()}});
  CHECK(v.to_display_string() == "{name = \"x\", password = (sensitive value)}");
  CHECK(str("x").mark_sensitive().to_display_string() == "(sensitive value)");
  CHECK(Value::list(Type::number(), {Value::number(1), Value::number(2)}).to_display_string() ==
        "[1, 2]");
  CHECK(Value::map(Type::boolean(), {{"k", Value::boolean(true)}}).to_display_string() ==
        "{\"k\" = true}");
  CHECK(Value::null(Type::string()).to_display_string() == "null");
  CHECK(Value::unknown(Type::string()).to_display_string() == "(known after apply)");
}

TEST_CASE("assigning a value's own child to it is safe") {
  Type inner = Type::object({{"a", Type::string()}});
  Value v = Value::list(inner, {Value::object(inner, {{"a", str("x")}})});
  v = v.elements()[0];
  CHECK(v == Value::object(inner, {{"a", str("x")}}));
  v = v.attributes().at("a");
  CHECK(v == str("x"));
  Value w = Value::list(Type::list(Type::string()), {Value::list(Type::string(), {str("y")})});
  w = w.elements()[0];
  CHECK(w == Value::list(Type::string(), {str("y")}));
}

TEST_CASE("copies share their elements, and a change makes a new value beside the old") {
  const Type t = Type::object({{"name", Type::string()}, {"tags", Type::list(Type::string())}});
  const Value original = Value::object(
      t,
      {{"name", Value::string("a")}, {"tags", Value::list(Type::string(), {Value::string("x")})}});
  const Value copy = original;
  CHECK(&copy.attributes() == &original.attributes());  // shared, not walked
  const Value renamed = copy.with_attribute("name", Value::string("b"));
  CHECK(original.get_attribute("name") == Value::string("a"));
  CHECK(copy.get_attribute("name") == Value::string("a"));
  CHECK(renamed.get_attribute("name") == Value::string("b"));
  CHECK(renamed.get_attribute("tags") == original.get_attribute("tags"));
  CHECK(renamed != original);
  // Assigning a value its own member keeps the member alive through the assignment.
  Value v = original;
  v = v.get_attribute("tags");
  CHECK(v == Value::list(Type::string(), {Value::string("x")}));
  v = v.elements()[0];
  CHECK(v == Value::string("x"));
}
