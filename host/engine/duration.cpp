#include "host/engine/duration.h"

#include <cctype>
#include <cmath>
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

}  // namespace luaform::engine
