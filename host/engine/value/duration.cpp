#include "host/engine/value/duration.h"

#include <cctype>
#include <cmath>
#include <string>
#include <utility>

namespace luaform::engine {
namespace {

// Nanoseconds per unit, longest unit names first so that "ms" is not read as "m" + "s".
constexpr std::pair<const char*, double> kUnits[] = {
    {"ns", 1.0}, {"us", 1e3}, {"\u00b5s", 1e3}, {"ms", 1e6}, {"s", 1e9}, {"m", 60e9}, {"h", 3600e9},
};

}  // namespace

std::optional<Duration> parse_duration(const std::string& text) {
  if (text == "0") return Duration::zero();
  if (text.empty()) return std::nullopt;
  double total = 0;
  size_t i = 0;
  while (i < text.size()) {
    const size_t start = i;
    while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) != 0)) ++i;
    if (i < text.size() && text[i] == '.') {
      ++i;
      while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) != 0)) ++i;
    }
    const std::string number = text.substr(start, i - start);
    if (number.empty() || number == ".") return std::nullopt;
    const double value = std::stod(number);
    double scale = 0;
    for (const auto& [unit, nanoseconds] : kUnits) {
      const std::string u = unit;
      if (text.compare(i, u.size(), u) == 0) {
        scale = nanoseconds;
        i += u.size();
        break;
      }
    }
    if (scale == 0) return std::nullopt;
    total += value * scale;
  }
  if (!std::isfinite(total) || total > 9.2e18) return std::nullopt;
  return Duration(static_cast<int64_t>(std::llround(total)));
}

std::string format_duration(Duration d) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
  const auto hours = ms / 3'600'000;
  const auto minutes = ms / 60'000 % 60;
  const auto rest = ms % 60'000;
  std::string out;
  if (hours > 0) out += std::to_string(hours) + "h";
  if (hours > 0 || minutes > 0) out += std::to_string(minutes) + "m";
  out += std::to_string(rest / 1000);
  if (rest % 1000 != 0) {
    std::string fraction = std::to_string(1000 + rest % 1000).substr(1);
    while (fraction.back() == '0') fraction.pop_back();
    out += "." + fraction;
  }
  return out + "s";
}

}  // namespace luaform::engine
