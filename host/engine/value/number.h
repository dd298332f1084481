// An exact decimal number, as Terraform's number type requires: integers of any size and
// decimal fractions round-trip without loss. Stored in a canonical decimal text form so that
// equality is exact and cheap.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace luaform::engine {

class Number {
 public:
  Number() : text_("0") {}
  static Number from_int(int64_t v);
  // The shortest text that round-trips the double (what a Lua script means by 0.1).
  // Throws std::domain_error for infinities and NaN, which have no decimal text.
  static Number from_double(double v);
  // Every digit of the double's exact binary value: 0.1 becomes
  // 0.1000000000000000055511151231257827021181583404541015625 and 2^64 stays
  // 18446744073709551616 (where from_double would round it to 18446744073709552000).
  // Throws std::domain_error like from_double.
  static Number from_double_exact(double v);
  // Parses decimal text ("12", "-1.5", "1e3", "1.25E-2"); nullopt when it is not a number.
  static std::optional<Number> parse(const std::string& text);

  // Canonical decimal text without exponent: "-12.5", "1000", "0".
  const std::string& text() const { return text_; }
  bool is_integer() const;
  std::optional<int64_t> to_int64() const;  // when an integer that fits
  double to_double() const;
  // True when to_double() gives back exactly this number.
  bool exact_in_double() const;

  bool operator==(const Number& o) const { return text_ == o.text_; }
  bool operator!=(const Number& o) const { return text_ != o.text_; }
  bool operator<(const Number& o) const;

 private:
  explicit Number(std::string canonical) : text_(std::move(canonical)) {}
  std::string text_;
};

// The double nearest to decimal text ("-1.5", ".5", "1e3": a syntax the caller has checked, with
// a leading '-' but no '+'); infinity when too large and zero when too small, with the text's
// sign, as strtod gives, with every standard library the builds use.
double nearest_double(std::string_view text);

}  // namespace luaform::engine
