#include "host/engine/value/number.h"

#include <doctest/doctest.h>

#include <limits>
#include <stdexcept>

using namespace luaform::engine;

namespace {

std::string canonical(const std::string& text) {
  auto n = Number::parse(text);
  REQUIRE(n.has_value());
  return n->text();
}

}  // namespace

TEST_CASE("parsing yields canonical decimal text without exponent") {
  CHECK(canonical("12") == "12");
  CHECK(canonical("-1.5") == "-1.5");
  CHECK(canonical("1e3") == "1000");
  CHECK(canonical("1.25E-2") == "0.0125");
  CHECK(canonical("+7") == "7");
  CHECK(canonical("007.500") == "7.5");
  CHECK(canonical("1.0") == "1");
  CHECK(canonical("-0") == "0");
  CHECK(canonical("0.000") == "0");
  CHECK(canonical(".5") == "0.5");
  CHECK(canonical("5.") == "5");
  CHECK(canonical("12.5e1") == "125");
  CHECK(canonical("1234e-2") == "12.34");
  CHECK(canonical("1e+2") == "100");
}

TEST_CASE("text that is not a decimal number does not parse") {
  for (const char* bad : {"", "-", ".", "abc", "1x", "1e", "1e+", "1.2.3", " 1", "1 ", "0x10",
                          "Infinity", "NaN", "--1", "1e5x"}) {
    CAPTURE(bad);
    CHECK_FALSE(Number::parse(bad).has_value());
  }
}

TEST_CASE("exponents that would expand into huge texts are rejected") {
  CHECK_FALSE(Number::parse("1e999999999").has_value());
  CHECK_FALSE(Number::parse("1e-999999999").has_value());
  CHECK_FALSE(Number::parse("1e99999999999999999999").has_value());
  CHECK(Number::parse("0e999999999").has_value());  // zero is zero at any scale
}

TEST_CASE("big integers and decimal fractions are exact") {
  CHECK(canonical("123456789012345678901234567890") == "123456789012345678901234567890");
  CHECK(canonical("0.1") == "0.1");
  CHECK(canonical("-98765432109876543210.000000000000000000001") ==
        "-98765432109876543210.000000000000000000001");
}

TEST_CASE("from_int gives the integer's text") {
  CHECK(Number::from_int(0).text() == "0");
  CHECK(Number::from_int(-42).text() == "-42");
  CHECK(Number::from_int(std::numeric_limits<int64_t>::min()).text() == "-9223372036854775808");
}

TEST_CASE("from_double gives the shortest text that round-trips") {
  CHECK(Number::from_double(0.1).text() == "0.1");
  CHECK(Number::from_double(1.5).text() == "1.5");
  CHECK(Number::from_double(3.0).text() == "3");
  CHECK(Number::from_double(1e22).text() == "10000000000000000000000");
  CHECK(Number::from_double(1.5e-7).text() == "0.00000015");
  CHECK(Number::from_double(-0.0).text() == "0");
  CHECK(Number::from_double(0.1).to_double() == 0.1);
}

TEST_CASE("from_double_exact keeps every digit of the binary value") {
  CHECK(Number::from_double_exact(0.1).text() ==
        "0.1000000000000000055511151231257827021181583404541015625");
  CHECK(Number::from_double_exact(1.5).text() == "1.5");
  CHECK(Number::from_double_exact(0x1p70).text() == "1180591620717411303424");
  CHECK(Number::from_double_exact(0.1).exact_in_double());
}

TEST_CASE("non-finite doubles have no number") {
  CHECK_THROWS_AS(Number::from_double(std::numeric_limits<double>::infinity()), std::domain_error);
  CHECK_THROWS_AS(Number::from_double(std::numeric_limits<double>::quiet_NaN()), std::domain_error);
  CHECK_THROWS_AS(Number::from_double_exact(-std::numeric_limits<double>::infinity()),
                  std::domain_error);
}

TEST_CASE("to_int64 answers only for integers that fit") {
  CHECK(Number::parse("9223372036854775807")->to_int64() == std::numeric_limits<int64_t>::max());
  CHECK(Number::parse("-9223372036854775808")->to_int64() == std::numeric_limits<int64_t>::min());
  CHECK_FALSE(Number::parse("9223372036854775808")->to_int64().has_value());
  CHECK_FALSE(Number::parse("1.5")->to_int64().has_value());
  CHECK(Number::parse("1.5e1")->is_integer());
  CHECK_FALSE(Number::parse("0.5")->is_integer());
}

TEST_CASE("exact_in_double is true only when the double is the number") {
  CHECK(Number::parse("1.5")->exact_in_double());
  CHECK(Number::parse("-0.25")->exact_in_double());
  CHECK(Number::parse("9007199254740992")->exact_in_double());
  CHECK_FALSE(Number::parse("9007199254740993")->exact_in_double());
  CHECK_FALSE(Number::parse("0.1")->exact_in_double());
  CHECK_FALSE(Number::parse("1e400")->exact_in_double());
}

TEST_CASE("to_double saturates outside the double range") {
  CHECK(Number::parse("1e400")->to_double() == std::numeric_limits<double>::infinity());
  CHECK(Number::parse("-1e400")->to_double() == -std::numeric_limits<double>::infinity());
  CHECK(Number::parse("1e-400")->to_double() == 0.0);
  CHECK(Number::parse("2.5")->to_double() == 2.5);
}

TEST_CASE("nearest_double reads decimal text and saturates like strtod") {
  CHECK(nearest_double("-1.5") == -1.5);
  CHECK(nearest_double(".5") == 0.5);
  CHECK(nearest_double("2.") == 2.0);
  CHECK(nearest_double("1.25E-2") == 0.0125);
  CHECK(nearest_double("0.1") == 0.1);
  CHECK(nearest_double("1e400") == std::numeric_limits<double>::infinity());
  CHECK(nearest_double("-1e400") == -std::numeric_limits<double>::infinity());
  CHECK(nearest_double("1e-400") == 0.0);
}

TEST_CASE("comparison is numeric, not textual") {
  auto n = [](const char* s) { return *Number::parse(s); };
  CHECK(n("2") < n("10"));
  CHECK(n("-10") < n("-2"));
  CHECK(n("-1") < n("0"));
  CHECK(n("0.09") < n("0.1"));
  CHECK(n("1") < n("1.0001"));
  CHECK(n("-1.0001") < n("-1"));
  CHECK_FALSE(n("5") < n("5"));
  CHECK(n("1e2") == n("100"));
  CHECK(n("99999999999999999999") < n("100000000000000000000"));
}
