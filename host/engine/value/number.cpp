#include "host/engine/value/number.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <utility>

namespace luaform::engine {
namespace {

// Numbers come from the wire, so a short text such as "1e999999999" must not expand into a
// gigabyte of zeros. No Terraform value comes near this many digits.
constexpr size_t kMaxDigits = 4096;

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// The canonical text of sign * digits * 10^exponent, or nullopt when it would be too long.
std::optional<std::string> canonical(bool negative, std::string digits, int64_t exponent) {
  size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) return std::string("0");
  digits.erase(0, first);
  size_t last = digits.find_last_not_of('0');
  exponent += static_cast<int64_t>(digits.size() - last - 1);
  digits.erase(last + 1);

  const auto count = static_cast<int64_t>(digits.size());
  if (exponent > static_cast<int64_t>(kMaxDigits) ||
      -exponent > static_cast<int64_t>(kMaxDigits) + count) {
    return std::nullopt;
  }
  std::string out = negative ? "-" : "";
  if (exponent >= 0) {
    out += digits;
    out.append(static_cast<size_t>(exponent), '0');
  } else if (count + exponent > 0) {
    size_t point = static_cast<size_t>(count + exponent);
    out += digits.substr(0, point);
    out += '.';
    out += digits.substr(point);
  } else {
    out += "0.";
    out.append(static_cast<size_t>(-(count + exponent)), '0');
    out += digits;
  }
  return out;
}

struct Parts {
  bool negative;
  std::string_view integer;   // no sign, may be "0"
  std::string_view fraction;  // empty when an integer
};

Parts split(const std::string& text) {
  std::string_view s = text;
  Parts p{false, s, {}};
  if (!s.empty() && s[0] == '-') {
    p.negative = true;
    s.remove_prefix(1);
  }
  size_t dot = s.find('.');
  p.integer = s.substr(0, dot);
  if (dot != std::string_view::npos) p.fraction = s.substr(dot + 1);
  return p;
}

// Compares two non-negative canonical magnitudes.
int compare_magnitude(const Parts& a, const Parts& b) {
  if (a.integer.size() != b.integer.size()) return a.integer.size() < b.integer.size() ? -1 : 1;
  if (int c = a.integer.compare(b.integer); c != 0) return c < 0 ? -1 : 1;
  if (int c = a.fraction.compare(b.fraction); c != 0) return c < 0 ? -1 : 1;
  return 0;
}

void require_finite(double v) {
  if (!std::isfinite(v)) throw std::domain_error("number is not finite");
}

}  // namespace

Number Number::from_int(int64_t v) {
  return Number(std::to_string(v));
}

Number Number::from_double(double v) {
  require_finite(v);
  std::array<char, 64> buf{};
  auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  return *parse(std::string(buf.data(), end));
}

Number Number::from_double_exact(double v) {
  require_finite(v);
  // A double's exact expansion has at most 1074 fractional digits and 309 integer digits.
  std::array<char, 1500> buf{};
  auto [end, ec] =
      std::to_chars(buf.data(), buf.data() + buf.size(), v, std::chars_format::fixed, 1074);
  return *parse(std::string(buf.data(), end));
}

std::optional<Number> Number::parse(const std::string& text) {
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  std::string digits;
  size_t fraction_digits = 0;
  bool seen_dot = false;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (is_digit(c)) {
      digits += c;
      if (seen_dot) ++fraction_digits;
    } else if (c == '.' && !seen_dot) {
      seen_dot = true;
    } else {
      break;
    }
  }
  if (digits.empty()) return std::nullopt;
  int64_t exponent = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exponent_negative = false;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
      exponent_negative = text[i++] == '-';
    }
    if (i == text.size()) return std::nullopt;
    for (; i < text.size() && is_digit(text[i]); ++i) {
      exponent = exponent * 10 + (text[i] - '0');
      if (exponent > 1'000'000'000) return std::nullopt;
    }
    if (exponent_negative) exponent = -exponent;
  }
  if (i != text.size()) return std::nullopt;
  // The digit string itself is limited too, or a long input would pass the exponent check.
  if (digits.size() > 2 * kMaxDigits) return std::nullopt;
  auto text_form =
      canonical(negative, std::move(digits), exponent - static_cast<int64_t>(fraction_digits));
  if (!text_form) return std::nullopt;
  return Number(std::move(*text_form));
}

bool Number::is_integer() const {
  return text_.find('.') == std::string::npos;
}

std::optional<int64_t> Number::to_int64() const {
  if (!is_integer()) return std::nullopt;
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text_.data(), text_.data() + text_.size(), v);
  if (ec != std::errc() || end != text_.data() + text_.size()) return std::nullopt;
  return v;
}

double nearest_double(std::string_view text) {
#if defined(__cpp_lib_to_chars)
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc::result_out_of_range) return v;
#endif
  // LLVM's libc++ (the release builds) has no floating-point from_chars before LLVM 20, and
  // from_chars leaves the value alone when it is out of range. strtod rounds as correctly and
  // gives infinity or zero there; it reads the locale's decimal point, and the host never leaves
  // the "C" locale (the sandbox has no os.setlocale).
  const std::string copy(text);
  return std::strtod(copy.c_str(), nullptr);
}

double Number::to_double() const {
  return nearest_double(text_);
}

bool Number::exact_in_double() const {
  double v = to_double();
  return std::isfinite(v) && from_double_exact(v).text_ == text_;
}

bool Number::operator<(const Number& o) const {
  Parts a = split(text_);
  Parts b = split(o.text_);
  if (a.negative != b.negative) return a.negative;
  int c = compare_magnitude(a, b);
  return a.negative ? c > 0 : c < 0;
}

}  // namespace luaform::engine
