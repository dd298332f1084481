#include "host/engine/value/timestamp.h"

#include <chrono>
#include <cstdio>

namespace luaform::engine {
namespace {

// Reads `count` decimal digits at `pos` into `out`, moving `pos` past them.
bool digits(std::string_view text, size_t& pos, size_t count, int& out) {
  if (pos + count > text.size()) return false;
  out = 0;
  for (size_t i = 0; i < count; ++i) {
    const char c = text[pos + i];
    if (c < '0' || c > '9') return false;
    out = out * 10 + (c - '0');
  }
  pos += count;
  return true;
}

bool literal(std::string_view text, size_t& pos, char expected, char alternative = '\0') {
  if (pos >= text.size() ||
      (text[pos] != expected && (alternative == '\0' || text[pos] != alternative))) {
    return false;
  }
  ++pos;
  return true;
}

}  // namespace

std::optional<Timestamp> parse_rfc3339(std::string_view text) {
  size_t pos = 0;
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!digits(text, pos, 4, year) || !literal(text, pos, '-') || !digits(text, pos, 2, month) ||
      !literal(text, pos, '-') || !digits(text, pos, 2, day) || !literal(text, pos, 'T', 't') ||
      !digits(text, pos, 2, hour) || !literal(text, pos, ':') || !digits(text, pos, 2, minute) ||
      !literal(text, pos, ':') || !digits(text, pos, 2, second)) {
    return std::nullopt;
  }
  const std::chrono::year_month_day date{std::chrono::year{year},
                                         std::chrono::month{static_cast<unsigned>(month)},
                                         std::chrono::day{static_cast<unsigned>(day)}};
  if (!date.ok() || hour > 23 || minute > 59 || second > 59) return std::nullopt;

  int32_t nanos = 0;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    size_t count = 0;
    for (; pos < text.size() && text[pos] >= '0' && text[pos] <= '9'; ++pos, ++count) {
      if (count < 9) nanos = nanos * 10 + (text[pos] - '0');
    }
    if (count == 0 || count > 9) return std::nullopt;
    for (; count < 9; ++count) nanos *= 10;
  }

  int offset_minutes = 0;
  if (literal(text, pos, 'Z', 'z')) {
    offset_minutes = 0;
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    const int sign = text[pos] == '-' ? -1 : 1;
    ++pos;
    int offset_hours = 0, offset_mins = 0;
    if (!digits(text, pos, 2, offset_hours) || !literal(text, pos, ':') ||
        !digits(text, pos, 2, offset_mins) || offset_hours > 23 || offset_mins > 59) {
      return std::nullopt;
    }
    offset_minutes = sign * (offset_hours * 60 + offset_mins);
  } else {
    return std::nullopt;
  }
  if (pos != text.size()) return std::nullopt;

  const int64_t days = std::chrono::sys_days{date}.time_since_epoch().count();
  const int64_t time_of_day = (int64_t{hour} * 60 + minute) * 60 + second;
  const int64_t local = days * 86400 + time_of_day;
  return Timestamp{local - static_cast<int64_t>(offset_minutes) * 60, nanos};
}

std::optional<std::string> format_rfc3339(const Timestamp& t) {
  if (t.nanos < 0 || t.nanos > 999'999'999) return std::nullopt;
  // Floor division, so that instants before 1970 land on the right day.
  int64_t days = t.seconds / 86400;
  int64_t rest = t.seconds % 86400;
  if (rest < 0) {
    rest += 86400;
    --days;
  }
  const std::chrono::year_month_day date{std::chrono::sys_days{std::chrono::days{days}}};
  const int year = static_cast<int>(date.year());
  if (year < 0 || year > 9999) return std::nullopt;
  char text[40];
  int length = std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02d:%02d:%02d", year,
                             static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                             static_cast<int>(rest / 3600), static_cast<int>(rest / 60 % 60),
                             static_cast<int>(rest % 60));
  if (t.nanos != 0) {
    char fraction[16];
    std::snprintf(fraction, sizeof fraction, ".%09d", t.nanos);
    int end = 10;  // past the ninth digit
    while (fraction[end - 1] == '0') --end;
    fraction[end] = '\0';
    length +=
        std::snprintf(text + length, sizeof text - static_cast<size_t>(length), "%s", fraction);
  }
  return std::string(text, static_cast<size_t>(length)) + "Z";
}

}  // namespace luaform::engine
