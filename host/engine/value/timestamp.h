// Timestamps as APIs and Terraform's timestamp() write them: RFC 3339 ("2026-11-24T19:29:13Z",
// "2026-11-24T20:29:13.25+01:00"), read into a point in UTC and written back in UTC.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace luaform::engine {

// Seconds since 1970-01-01T00:00:00Z and the nanoseconds past them (0 to 999,999,999).
struct Timestamp {
  int64_t seconds = 0;
  int32_t nanos = 0;
  bool operator==(const Timestamp&) const = default;
};

// The instant `text` names, or nullopt when it is not RFC 3339's date-time: a full date, "T"
// (or "t"), hours, minutes, seconds (no leap second 60, as in Go's time package), up to nine
// fraction digits, and "Z" (or "z") or an offset "+hh:mm" / "-hh:mm". Dates are checked against
// the calendar (no February 30th).
std::optional<Timestamp> parse_rfc3339(std::string_view text);

// The instant in UTC, "YYYY-MM-DDThh:mm:ssZ", with a fraction only when there is one, trailing
// zeros left off ("…:13.25Z"), as Go's RFC3339Nano writes it. Years outside 0000-9999 have no
// such spelling: nullopt.
std::optional<std::string> format_rfc3339(const Timestamp& t);

}  // namespace luaform::engine
