#include "host/engine/codec/json_codec.h"

#include <doctest/doctest.h>

using namespace luaform::engine;

namespace {

Value num(const char* text) {
  return Value::number(*Number::parse(text));
}

Type type_of(const std::string& json) {
  Diagnostics diags;
  auto t = decode_type_json(json, diags);
  REQUIRE(t.has_value());
  CHECK_FALSE(diags.has_errors());
  return *t;
}

std::string type_error(const std::string& json) {
  Diagnostics diags;
  auto t = decode_type_json(json, diags);
  CHECK_FALSE(t.has_value());
  REQUIRE(diags.has_errors());
  return diags.items()[0].detail;
}

Value decode_ok(const std::string& json, const Type& t, bool drop = false) {
  Diagnostics diags;
  Value v = decode_value_json(json, t, diags, drop);
  CHECK_FALSE(diags.has_errors());
  return v;
}

std::string value_error(const std::string& json, const Type& t) {
  Diagnostics diags;
  Value v = decode_value_json(json, t, diags);
  REQUIRE(diags.has_errors());
  CHECK(v.is_null());
  return diags.items()[0].summary + ": " + diags.items()[0].detail;
}

}  // namespace

TEST_CASE("type JSON is written exactly as cty writes it") {
  CHECK(encode_type_json(Type::string()) == "\"string\"");
  CHECK(encode_type_json(Type::number()) == "\"number\"");
  CHECK(encode_type_json(Type::boolean()) == "\"bool\"");
  CHECK(encode_type_json(Type::dynamic()) == "\"dynamic\"");
  CHECK(encode_type_json(Type::list(Type::string())) == "[\"list\",\"string\"]");
  CHECK(encode_type_json(Type::set(Type::number())) == "[\"set\",\"number\"]");
  CHECK(encode_type_json(Type::map(Type::list(Type::boolean()))) ==
        "[\"map\",[\"list\",\"bool\"]]");
  CHECK(encode_type_json(Type::object({{"b", Type::string()}, {"a", Type::number()}})) ==
        "[\"object\",{\"a\":\"number\",\"b\":\"string\"}]");
  CHECK(encode_type_json(Type::object({{"a", Type::string()}}, {"a"})) ==
        "[\"object\",{\"a\":\"string\"},[\"a\"]]");
  CHECK(encode_type_json(Type::tuple({Type::string(), Type::dynamic()})) ==
        "[\"tuple\",[\"string\",\"dynamic\"]]");
  CHECK(encode_type_json(Type::object({})) == "[\"object\",{}]");
  CHECK(encode_type_json(Type::tuple({})) == "[\"tuple\",[]]");
}

TEST_CASE("type JSON round-trips for every kind") {
  Type inner = Type::object({{"x", Type::number()}, {"y", Type::string()}}, {"y"});
  for (const Type& t : {Type::string(), Type::number(), Type::boolean(), Type::dynamic(),
                        Type::list(Type::string()), Type::set(inner), Type::map(Type::dynamic()),
                        Type::object({{"a", Type::list(inner)}, {"b", Type::boolean()}}),
                        Type::tuple({Type::string(), inner, Type::tuple({})}), Type::object({})}) {
    CAPTURE(encode_type_json(t));
    CHECK(type_of(encode_type_json(t)) == t);
  }
  CHECK(type_of(" [ \"list\" , \"string\" ] ") == Type::list(Type::string()));
}

TEST_CASE("invalid type JSON is an error, not a crash") {
  CHECK(type_error("").find("not valid JSON") != std::string::npos);
  CHECK(type_error("\"strin\"").find("strin") != std::string::npos);
  CHECK(type_error("[\"list\"]").find("list") != std::string::npos);
  CHECK(type_error("[\"list\",\"string\",\"x\"]").find("list") != std::string::npos);
  CHECK(type_error("[\"object\",[]]").find("object") != std::string::npos);
  CHECK(type_error("[\"object\",{},[\"nope\"]]").find("optional") != std::string::npos);
  CHECK(type_error("[\"tuple\",{}]").find("tuple") != std::string::npos);
  CHECK(type_error("[\"mystery\",\"string\"]").find("mystery") != std::string::npos);
  CHECK_FALSE(type_error("42").empty());
  CHECK_FALSE(type_error("[]").empty());
  CHECK_FALSE(type_error("\"string\" trailing").empty());
  CHECK(type_error(std::string(5000, '[')).find("deeply") != std::string::npos);
}

TEST_CASE("value JSON writes objects with every attribute and sets as arrays") {
  Type t = Type::object({{"name", Type::string()},
                         {"size", Type::number()},
                         {"tags", Type::set(Type::string())},
                         {"meta", Type::map(Type::boolean())},
                         {"pair", Type::tuple({Type::string(), Type::number()})}});
  Value v = Value::object(
      t, {{"name", Value::string("x")},
          {"size", num("0.1")},
          {"tags", Value::set(Type::string(), {Value::string("b"), Value::string("a")})},
          {"pair", Value::tuple(Type::tuple({Type::string(), Type::number()}),
                                {Value::string("p"), Value::number(2)})}});
  CHECK(encode_value_json(v, t) ==
        "{\"meta\":null,\"name\":\"x\",\"pair\":[\"p\",2],\"size\":0.1,\"tags\":[\"a\",\"b\"]}");
  CHECK(decode_ok(encode_value_json(v, t), t) == v);
}

TEST_CASE("value JSON escapes strings as Go does") {
  CHECK(encode_value_json(Value::string("a\"b\\c\n<>&\x01"), Type::string()) ==
        "\"a\\\"b\\\\c\\n\\u003c\\u003e\\u0026\\u0001\"");
  CHECK(decode_ok("\"\\u003c\"", Type::string()) == Value::string("<"));
  // Invalid UTF-8 is replaced rather than failing the whole document.
  CHECK(encode_value_json(Value::string("\xff"), Type::string()) == "\"\xef\xbf\xbd\"");
}

TEST_CASE("JSON numbers keep their exact decimal value") {
  CHECK(decode_ok("123456789012345678901234567890", Type::number()) ==
        num("123456789012345678901234567890"));
  CHECK(decode_ok("0.1", Type::number()) == num("0.1"));
  CHECK(decode_ok("1e3", Type::number()) == Value::number(1000));
  CHECK(decode_ok("-1.25E-2", Type::number()) == num("-0.0125"));
  CHECK(decode_ok("18446744073709551615", Type::number()) == num("18446744073709551615"));
  CHECK(decode_ok("-9223372036854775808", Type::number()) == num("-9223372036854775808"));
  CHECK(encode_value_json(num("123456789012345678901234567890.5"), Type::number()) ==
        "123456789012345678901234567890.5");
}

TEST_CASE("primitives accept the string forms cty converts from") {
  CHECK(decode_ok("\"12.5\"", Type::number()) == num("12.5"));
  CHECK(decode_ok("\"true\"", Type::boolean()) == Value::boolean(true));
  CHECK(decode_ok("1.50", Type::string()) == Value::string("1.50"));
  CHECK(decode_ok("false", Type::string()) == Value::string("false"));
}

TEST_CASE("JSON null decodes as a null of the expected type") {
  Type t = Type::list(Type::string());
  CHECK(decode_ok("null", t) == Value::null(t));
  CHECK(decode_ok("null", Type::dynamic()) == Value());
}

TEST_CASE("value JSON round-trips every kind, with nulls and sensitivity ignored") {
  Type inner = Type::object({{"n", Type::number()}, {"s", Type::string()}});
  Type t = Type::object({{"l", Type::list(inner)},
                         {"s", Type::set(Type::number())},
                         {"m", Type::map(Type::list(Type::string()))},
                         {"t", Type::tuple({Type::boolean(), Type::string()})},
                         {"d", Type::dynamic()},
                         {"e", Type::list(Type::string())},
                         {"o", Type::object({})}});
  Value v = Value::object(
      t,
      {{"l", Value::list(inner, {Value::object(inner, {{"n", num("2.5")}}), Value::null(inner)})},
       {"s", Value::set(Type::number(), {Value::number(3), Value::number(1)})},
       {"m", Value::map(Type::list(Type::string()),
                        {{"k", Value::list(Type::string(), {Value::string("v")})}})},
       {"t", Value::tuple(Type::tuple({Type::boolean(), Type::string()}),
                          {Value::boolean(true), Value::string("x").mark_sensitive()})},
       {"d", Value::map(Type::number(), {{"z", Value::number(9)}})},
       {"e", Value::list(Type::string(), {})},
       {"o", Value::object(Type::object({}), {})}});
  CHECK(decode_ok(encode_value_json(v, t), t) == v);
}

TEST_CASE("dynamic values are written as value and type") {
  Value v = Value::list(Type::number(), {Value::number(1)});
  CHECK(encode_value_json(v, Type::dynamic()) == "{\"value\":[1],\"type\":[\"list\",\"number\"]}");
  CHECK(decode_ok("{\"type\":[\"list\",\"number\"],\"value\":[1]}", Type::dynamic()) == v);
  CHECK(encode_value_json(Value::null(Type::string()), Type::dynamic()) ==
        "{\"value\":null,\"type\":\"string\"}");
  CHECK(encode_value_json(Value(), Type::dynamic()) == "null");
}

TEST_CASE("malformed dynamic values are errors") {
  CHECK(value_error("[1]", Type::dynamic()).find("dynamically-typed") != std::string::npos);
  CHECK(value_error("{\"value\":1}", Type::dynamic()).find("\"type\"") != std::string::npos);
  CHECK(value_error("{\"type\":\"number\"}", Type::dynamic()).find("\"value\"") !=
        std::string::npos);
  CHECK(value_error("{\"type\":\"number\",\"value\":1,\"x\":2}", Type::dynamic()).find("\"x\"") !=
        std::string::npos);
  CHECK(value_error("{\"type\":\"nope\",\"value\":1}", Type::dynamic()).find("type") !=
        std::string::npos);
}

TEST_CASE("object attributes missing from JSON are null") {
  Type t = Type::object({{"a", Type::string()}, {"b", Type::number()}});
  Value v = decode_ok("{\"a\":\"x\"}", t);
  CHECK(v.get_attribute("b") == Value::null(Type::number()));
}

TEST_CASE("unknown attributes are errors unless stored state is being read") {
  Type t = Type::object(
      {{"a", Type::string()}, {"nested", Type::list(Type::object({{"x", Type::string()}}))}});
  std::string stored = "{\"a\":\"x\",\"gone\":1,\"nested\":[{\"x\":\"y\",\"old\":true}]}";
  CHECK(value_error(stored, t).find("unsupported attribute \"gone\"") != std::string::npos);
  Value v = decode_ok(stored, t, true);
  CHECK(v.get_attribute("a") == Value::string("x"));
  CHECK(v.get_attribute("nested").elements()[0].get_attribute("x") == Value::string("y"));
}

TEST_CASE("wrong JSON kinds are errors pointing at the path") {
  Type t = Type::object({{"disk", Type::list(Type::object({{"size", Type::number()}}))}});
  Diagnostics diags;
  decode_value_json("{\"disk\":[{\"size\":\"big\"}]}", t, diags);
  REQUIRE(diags.has_errors());
  CHECK(path_to_string(diags.items()[0].path) == "disk[0].size");
  CHECK(value_error("{}", Type::list(Type::string())).find("array") != std::string::npos);
  CHECK(value_error("[]", Type::map(Type::string())).find("object") != std::string::npos);
  CHECK(value_error("[]", Type::string()).find("string") != std::string::npos);
  CHECK(value_error("1", Type::boolean()).find("bool") != std::string::npos);
  CHECK(value_error("[\"a\"]", Type::tuple({Type::string(), Type::string()})).find("2 elements") !=
        std::string::npos);
}

TEST_CASE("malformed JSON is an error, not a crash") {
  Type t = Type::object({{"a", Type::string()}});
  CHECK(value_error("{\"a\":", t).find("not valid JSON") != std::string::npos);
  CHECK(value_error("", t).find("not valid JSON") != std::string::npos);
  CHECK(value_error("{\"a\":\"x\"} {}", t).find("not valid JSON") != std::string::npos);
  CHECK(value_error("1e400", Type::number()).find("not valid JSON") != std::string::npos);
  CHECK(value_error(std::string(100000, '['), Type::dynamic()).find("deeply") != std::string::npos);
}

TEST_CASE("encoding with a mismatched type never crashes") {
  Type t = Type::object({{"a", Type::string()}});
  CHECK(encode_value_json(Value::number(5), Type::string()) == "\"5\"");
  CHECK(encode_value_json(Value::string("7"), Type::number()) == "7");
  CHECK(encode_value_json(Value::string("x"), t) == "null");
  CHECK(encode_value_json(Value::unknown(Type::string()), Type::string()) == "null");
}
