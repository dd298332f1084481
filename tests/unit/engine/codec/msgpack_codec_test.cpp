#include "host/engine/codec/msgpack_codec.h"

#include <doctest/doctest.h>

#include <random>
#include <sstream>

using namespace luaform::engine;

namespace {

// "d4 00 00" -> the three bytes.
std::string bytes(const std::string& spaced_hex) {
  std::istringstream in(spaced_hex);
  std::string out;
  std::string byte;
  while (in >> byte) out += static_cast<char>(std::stoi(byte, nullptr, 16));
  return out;
}

std::string hex(const std::string& data) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : data) {
    if (!out.empty()) out += ' ';
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

Value round_trip(const Value& v, const Type& t) {
  Diagnostics diags;
  Value back = decode_msgpack(encode_msgpack(v, t), t, diags);
  CHECK_FALSE(diags.has_errors());
  return back;
}

std::string first_error(const std::string& data, const Type& t) {
  Diagnostics diags;
  Value v = decode_msgpack(data, t, diags);
  REQUIRE(diags.has_errors());
  CHECK(v.is_null());
  CHECK(v.type() == t);
  return diags.items()[0].summary + ": " + diags.items()[0].detail;
}

Value decode_ok(const std::string& data, const Type& t) {
  Diagnostics diags;
  Value v = decode_msgpack(data, t, diags);
  CHECK_FALSE(diags.has_errors());
  return v;
}

Value num(const char* text) {
  return Value::number(*Number::parse(text));
}

}  // namespace

TEST_CASE("null is msgpack nil whatever the type") {
  CHECK(hex(encode_msgpack(Value::null(Type::string()), Type::string())) == "c0");
  Type t = Type::object({{"a", Type::string()}});
  CHECK(hex(encode_msgpack(Value::null(t), t)) == "c0");
  CHECK(decode_ok(bytes("c0"), t) == Value::null(t));
}

TEST_CASE("unknown is written as cty's fixext1 type 0 with a zero byte") {
  CHECK(hex(encode_msgpack(Value::unknown(Type::string()), Type::string())) == "d4 00 00");
  CHECK(hex(encode_msgpack(Value::unknown(Type::dynamic()), Type::dynamic())) == "d4 00 00");
}

TEST_CASE("any extension of type 0 or of one byte decodes as unknown") {
  CHECK(decode_ok(bytes("d4 00 00"), Type::number()) == Value::unknown(Type::number()));
  CHECK(decode_ok(bytes("c7 00 00"), Type::number()) == Value::unknown(Type::number()));
  CHECK(decode_ok(bytes("d4 05 01"), Type::string()) == Value::unknown(Type::string()));
  CHECK(decode_ok(bytes("d5 00 01 02"), Type::string()) == Value::unknown(Type::string()));
}

TEST_CASE("refined unknowns (extension 12) decode as plain unknowns") {
  // An unknown string that is known not to be null.
  CHECK(decode_ok(bytes("c7 03 0c 81 01 c2"), Type::string()) == Value::unknown(Type::string()));
  Type l = Type::list(Type::string());
  CHECK(decode_ok(bytes("c7 03 0c 81 05 01"), l) == Value::unknown(l));
}

TEST_CASE("refined unknowns are written as cty writes them, with what fits the type") {
  Refinement not_null;
  not_null.not_null = true;
  CHECK(hex(encode_msgpack(Value::unknown(Type::string(), not_null), Type::string())) ==
        "c7 03 0c 81 01 c2");
  Refinement prefix;
  prefix.prefix = "ab";
  CHECK(hex(encode_msgpack(Value::unknown(Type::string(), prefix), Type::string())) ==
        "c7 05 0c 81 02 a2 61 62");  // {2: "ab"}
  Refinement bounds;
  bounds.min = Number::from_int(1);
  bounds.max = Number::from_int(9);
  CHECK(hex(encode_msgpack(Value::unknown(Type::number(), bounds), Type::number())) ==
        "c7 09 0c 82 03 92 01 c3 04 92 09 c3");  // {3: [1, true], 4: [9, true]}
  Refinement lengths;
  lengths.min_length = 1;
  lengths.max_length = 4;
  const Type list = Type::list(Type::string());
  CHECK(hex(encode_msgpack(Value::unknown(list, lengths), list)) == "c7 05 0c 82 05 01 06 04");
  // A refinement that says nothing about the type (a prefix of a number) is left out.
  CHECK(hex(encode_msgpack(Value::unknown(Type::number(), prefix), Type::number())) == "d4 00 00");
  CHECK(hex(encode_msgpack(Value::unknown(Type::dynamic(), not_null), Type::dynamic())) ==
        "d4 00 00");
}

TEST_CASE("other multi-byte extensions are errors") {
  CHECK(first_error(bytes("d5 07 01 02"), Type::string()).find("extension") != std::string::npos);
}

TEST_CASE("integers that fit int64 are written as the smallest msgpack int") {
  auto enc = [](int64_t n) { return hex(encode_msgpack(Value::number(n), Type::number())); };
  CHECK(enc(0) == "00");
  CHECK(enc(127) == "7f");
  CHECK(enc(128) == "cc 80");
  CHECK(enc(300) == "cd 01 2c");
  CHECK(enc(70000) == "ce 00 01 11 70");
  CHECK(enc(5000000000) == "cf 00 00 00 01 2a 05 f2 00");
  CHECK(enc(-1) == "ff");
  CHECK(enc(-32) == "e0");
  CHECK(enc(-33) == "d0 df");
  CHECK(enc(-200) == "d1 ff 38");
  CHECK(enc(INT64_MIN) == "d3 80 00 00 00 00 00 00 00");
}

TEST_CASE("fractions exact in a double are written as float64") {
  CHECK(hex(encode_msgpack(num("1.5"), Type::number())) == "cb 3f f8 00 00 00 00 00 00");
  CHECK(hex(encode_msgpack(num("-0.25"), Type::number())) == "cb bf d0 00 00 00 00 00 00");
}

TEST_CASE("integers beyond int64 are decimal strings even when a double holds them") {
  // 2^70: cty writes integers as int or text, never as float64.
  CHECK(encode_msgpack(num("1180591620717411303424"), Type::number()) ==
        bytes("b6") + "1180591620717411303424");
}

TEST_CASE("numbers neither int64 nor exact doubles are written as decimal strings") {
  CHECK(hex(encode_msgpack(num("0.1"), Type::number())) == "a3 30 2e 31");
  CHECK(encode_msgpack(num("123456789012345678901234567890"), Type::number()) ==
        bytes("be") + "123456789012345678901234567890");
  CHECK(encode_msgpack(num("18446744073709551615"), Type::number()) ==
        bytes("b4") + "18446744073709551615");
}

TEST_CASE("numbers round-trip exactly") {
  for (const char* text :
       {"0", "-1", "300", "-9223372036854775808", "9223372036854775807", "9223372036854775808",
        "18446744073709551615", "1.5", "-0.25", "0.1", "123456789012345678901234567890",
        "3.14159265358979323846264338327950", "1180591620717411303424"}) {
    CAPTURE(text);
    CHECK(round_trip(num(text), Type::number()) == num(text));
  }
}

TEST_CASE("numbers decode from every msgpack number form and from strings") {
  CHECK(decode_ok(bytes("cf ff ff ff ff ff ff ff ff"), Type::number()) ==
        num("18446744073709551615"));
  CHECK(decode_ok(bytes("d3 80 00 00 00 00 00 00 00"), Type::number()) ==
        num("-9223372036854775808"));
  CHECK(decode_ok(bytes("d0 9c"), Type::number()) == Value::number(-100));
  CHECK(decode_ok(bytes("ca 3f c0 00 00"), Type::number()) == num("1.5"));  // float32
  CHECK(decode_ok(bytes("cb 3f f8 00 00 00 00 00 00"), Type::number()) == num("1.5"));
  CHECK(decode_ok(bytes("a4 31 65 2d 32"), Type::number()) == num("0.01"));
}

TEST_CASE("a float64 fraction decodes as its shortest decimal, the text cty compares by") {
  Value v = decode_ok(bytes("cb 3f b9 99 99 99 99 99 9a"), Type::number());  // nearest 0.1
  CHECK(v == num("0.1"));
  CHECK(hex(encode_msgpack(v, Type::number())) == "a3 30 2e 31");
}

TEST_CASE("an integral float64 decodes as its exact integer") {
  CHECK(decode_ok(bytes("cb 43 f0 00 00 00 00 00 00"), Type::number()) ==
        num("18446744073709551616"));
  CHECK(decode_ok(bytes("cb 44 50 00 00 00 00 00 00"), Type::number()) ==
        num("1180591620717411303424"));
}

TEST_CASE("non-finite floats and non-numeric strings are not numbers") {
  CHECK(first_error(bytes("cb 7f f0 00 00 00 00 00 00"), Type::number()).find("infinite") !=
        std::string::npos);
  CHECK(first_error(bytes("a3 61 62 63"), Type::number()).find("number") != std::string::npos);
  CHECK(first_error(bytes("c3"), Type::number()).find("number is required, got a bool") !=
        std::string::npos);
}

TEST_CASE("primitives round-trip") {
  CHECK(round_trip(Value::string(""), Type::string()) == Value::string(""));
  CHECK(round_trip(Value::string("héllo\n"), Type::string()) == Value::string("héllo\n"));
  std::string long_text(70000, 'x');
  CHECK(round_trip(Value::string(long_text), Type::string()) == Value::string(long_text));
  CHECK(round_trip(Value::boolean(true), Type::boolean()) == Value::boolean(true));
  CHECK(round_trip(Value::boolean(false), Type::boolean()) == Value::boolean(false));
  CHECK(hex(encode_msgpack(Value::boolean(true), Type::boolean())) == "c3");
}

TEST_CASE("every collection and structural kind round-trips, with nulls and unknowns inside") {
  Type inner = Type::object({{"n", Type::number()}, {"s", Type::string()}});
  Type t = Type::object({
      {"list", Type::list(Type::string())},
      {"set", Type::set(Type::number())},
      {"map", Type::map(Type::boolean())},
      {"tuple", Type::tuple({Type::string(), Type::number()})},
      {"nested", Type::list(inner)},
      {"blocks", Type::set(inner)},
      {"empty_list", Type::list(Type::string())},
      {"null_map", Type::map(Type::string())},
      {"unknown_list", Type::list(Type::string())},
  });
  Value v = Value::object(
      t, {{"list", Value::list(Type::string(), {Value::string("a"), Value::null(Type::string()),
                                                Value::unknown(Type::string())})},
          {"set", Value::set(Type::number(), {Value::number(3), Value::number(1)})},
          {"map", Value::map(Type::boolean(), {{"x", Value::boolean(true)},
                                               {"y", Value::unknown(Type::boolean())}})},
          {"tuple", Value::tuple(Type::tuple({Type::string(), Type::number()}),
                                 {Value::string("t"), num("0.1")})},
          {"nested",
           Value::list(inner, {Value::object(inner, {{"n", Value::number(1)}}),
                               Value::object(inner, {{"s", Value::unknown(Type::string())}})})},
          {"blocks", Value::set(inner, {Value::object(inner, {{"s", Value::string("b")}}),
                                        Value::object(inner, {{"s", Value::string("a")}})})},
          {"empty_list", Value::list(Type::string(), {})},
          {"unknown_list", Value::unknown(Type::list(Type::string()))}});
  Value back = round_trip(v, t);
  CHECK(back == v);
  CHECK(back.get_attribute("null_map").is_null());
  CHECK(back.get_attribute("unknown_list").is_unknown());
  CHECK_FALSE(back.is_wholly_known());
}

TEST_CASE("objects are written with every attribute in sorted key order") {
  Type t = Type::object({{"b", Type::string()}, {"a", Type::string()}});
  Value v = Value::object(t, {{"a", Value::string("x")}});
  CHECK(hex(encode_msgpack(v, t)) == "82 a1 61 a1 78 a1 62 c0");
}

TEST_CASE("object attributes missing from the input decode as null") {
  Type t = Type::object({{"a", Type::string()}, {"b", Type::string()}});
  Value v = decode_ok(bytes("81 a1 61 a1 78"), t);
  CHECK(v.get_attribute("a") == Value::string("x"));
  CHECK(v.get_attribute("b") == Value::null(Type::string()));
  CHECK(decode_ok(bytes("80"), t).get_attribute("a").is_null());
}

TEST_CASE("unexpected object attributes are errors naming the attribute") {
  Type t = Type::object({{"a", Type::string()}});
  CHECK(first_error(bytes("81 a1 7a c0"), t).find("\"z\"") != std::string::npos);
}

TEST_CASE("sensitivity is not part of the encoding") {
  Value secret = Value::string("s").mark_sensitive();
  CHECK(encode_msgpack(secret, Type::string()) ==
        encode_msgpack(Value::string("s"), Type::string()));
  CHECK(round_trip(secret, Type::string()) == secret);
}

TEST_CASE("decoded sets are canonical whatever the wire order") {
  Type t = Type::set(Type::string());
  Value a = decode_ok(bytes("93 a1 62 a1 61 a1 62"), t);
  Value b = decode_ok(bytes("92 a1 61 a1 62"), t);
  CHECK(a == b);
  CHECK(a.length() == 2);
  CHECK(hex(encode_msgpack(a, t)) == "92 a1 61 a1 62");
}

TEST_CASE("a dynamic slot wraps a known value as [type JSON, value]") {
  CHECK(hex(encode_msgpack(Value::string("x"), Type::dynamic())) ==
        "92 c4 08 22 73 74 72 69 6e 67 22 a1 78");
  Type l = Type::list(Type::number());
  Value v = Value::list(Type::number(), {Value::number(1), Value::number(2)});
  Value back = round_trip(v, Type::dynamic());
  CHECK(back == v);
  CHECK(back.type() == l);
}

TEST_CASE("a dynamic slot accepts the type JSON as str as well as bin") {
  std::string with_str = bytes("92 a8 22 73 74 72 69 6e 67 22 a1 78");
  CHECK(decode_ok(with_str, Type::dynamic()) == Value::string("x"));
}

TEST_CASE("null and unknown in a dynamic slot have no wrapper") {
  CHECK(hex(encode_msgpack(Value(), Type::dynamic())) == "c0");
  CHECK(decode_ok(bytes("c0"), Type::dynamic()) == Value());
  CHECK(decode_ok(bytes("d4 00 00"), Type::dynamic()) == Value::unknown(Type::dynamic()));
}

TEST_CASE("typed nulls and unknowns in a dynamic slot keep their type") {
  Value typed_null = Value::null(Type::string());
  CHECK(hex(encode_msgpack(typed_null, Type::dynamic())) == "92 c4 08 22 73 74 72 69 6e 67 22 c0");
  CHECK(round_trip(typed_null, Type::dynamic()) == typed_null);
  Value typed_unknown = Value::unknown(Type::number());
  CHECK(round_trip(typed_unknown, Type::dynamic()) == typed_unknown);
}

TEST_CASE("dynamic attributes inside objects round-trip") {
  Type t = Type::object({{"any", Type::dynamic()}, {"s", Type::string()}});
  Type inner = Type::object({{"k", Type::tuple({Type::boolean(), Type::string()})}});
  Value payload =
      Value::object(inner, {{"k", Value::tuple(Type::tuple({Type::boolean(), Type::string()}),
                                               {Value::boolean(true), Value::string("v")})}});
  Value v = Value::object(t, {{"any", payload}, {"s", Value::string("x")}});
  CHECK(round_trip(v, t) == v);
}

TEST_CASE("malformed dynamic wrappers are errors") {
  CHECK(first_error(bytes("91 c0"), Type::dynamic()).find("[type, value]") != std::string::npos);
  CHECK(first_error(bytes("92 c3 c0"), Type::dynamic()).find("JSON") != std::string::npos);
  CHECK(first_error(bytes("92 a5 62 6f 67 75 73 c0"), Type::dynamic()).find("type JSON") !=
        std::string::npos);
  CHECK(
      first_error(bytes("92 a9 22 64 79 6e 61 6d 69 63 22 c0"), Type::dynamic()).find("dynamic") !=
      std::string::npos);
}

TEST_CASE("tuples must have exactly their arity") {
  Type t = Type::tuple({Type::string(), Type::string()});
  CHECK(first_error(bytes("91 a1 61"), t).find("2 elements") != std::string::npos);
  Value v = decode_ok(bytes("92 a1 61 c0"), t);
  CHECK(v.elements()[1].is_null());
}

TEST_CASE("wrong kinds are errors that point at the attribute path") {
  Type t = Type::object({{"disk", Type::list(Type::object({{"size", Type::number()}}))},
                         {"tags", Type::map(Type::string())}});
  Diagnostics diags;
  // {"disk": [{"size": "big"}]}
  decode_msgpack(bytes("81 a4 64 69 73 6b 91 81 a4 73 69 7a 65 a3 62 69 67"), t, diags);
  REQUIRE(diags.has_errors());
  CHECK(path_to_string(diags.items()[0].path) == "disk[0].size");
  CHECK(diags.items()[0].summary.find("disk[0].size") != std::string::npos);

  Diagnostics map_diags;
  // {"tags": {"env": 1}}
  decode_msgpack(bytes("81 a4 74 61 67 73 81 a3 65 6e 76 01"), t, map_diags);
  REQUIRE(map_diags.has_errors());
  CHECK(path_to_string(map_diags.items()[0].path) == "tags[\"env\"]");

  CHECK(first_error(bytes("a1 61"), Type::list(Type::string())).find("array") != std::string::npos);
  CHECK(first_error(bytes("90"), Type::map(Type::string())).find("map") != std::string::npos);
  CHECK(first_error(bytes("90"), t).find("object") != std::string::npos);
  CHECK(first_error(bytes("01"), Type::boolean()).find("bool") != std::string::npos);
  CHECK(first_error(bytes("01"), Type::string()).find("string") != std::string::npos);
  CHECK(first_error(bytes("81 01 c0"), Type::map(Type::string())).find("keys") !=
        std::string::npos);
}

TEST_CASE("truncated input is an error, not a crash") {
  Type t = Type::object({{"a", Type::string()}, {"b", Type::number()}});
  Value v = Value::object(t, {{"a", Value::string("hello")}, {"b", Value::number(300)}});
  std::string full = encode_msgpack(v, t);
  for (size_t cut = 0; cut < full.size(); ++cut) {
    CAPTURE(cut);
    Diagnostics diags;
    Value partial = decode_msgpack(full.substr(0, cut), t, diags);
    CHECK(diags.has_errors());
    CHECK(partial.is_null());
  }
  CHECK(first_error(bytes("cd 01"), Type::number()).find("truncated") != std::string::npos);
}

TEST_CASE("bytes after the value are an error") {
  CHECK(first_error(bytes("c0 c0"), Type::string()).find("unexpected bytes") != std::string::npos);
}

TEST_CASE("hostile headers and nesting are errors, not crashes") {
  // An array claiming four billion elements in five bytes.
  first_error(bytes("dd ff ff ff ff"), Type::list(Type::string()));
  first_error(bytes("df ff ff ff ff"), Type::map(Type::string()));
  first_error(bytes("db ff ff ff ff"), Type::string());
  first_error(bytes("c1"), Type::string());
  // Nesting far deeper than any schema.
  Type deep = Type::list(Type::dynamic());
  first_error(std::string(100000, '\x91'), deep);
}

TEST_CASE("random bytes never crash the decoder") {
  Type t = Type::object({{"a", Type::list(Type::object({{"n", Type::number()}}))},
                         {"d", Type::dynamic()},
                         {"m", Type::map(Type::set(Type::string()))},
                         {"t", Type::tuple({Type::boolean(), Type::number()})}});
  std::mt19937 rng(12345);
  for (int round = 0; round < 3000; ++round) {
    std::string data(rng() % 40, '\0');
    for (char& c : data) c = static_cast<char>(rng() % 256);
    Diagnostics diags;
    Value v = decode_msgpack(data, t, diags);
    CHECK((diags.has_errors() || v.type() == t));
  }
}
