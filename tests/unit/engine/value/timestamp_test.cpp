#include "host/engine/value/timestamp.h"

#include <doctest/doctest.h>

using namespace luaform::engine;

TEST_CASE("RFC 3339 timestamps are read as instants in UTC") {
  CHECK(parse_rfc3339("1970-01-01T00:00:00Z") == Timestamp{0, 0});
  CHECK(parse_rfc3339("2026-11-24T19:29:13Z") == Timestamp{1795548553, 0});
  // The same instant with an offset, in lower case, and with a fraction.
  CHECK(parse_rfc3339("2026-11-24T20:59:13+01:30") == Timestamp{1795548553, 0});
  CHECK(parse_rfc3339("2026-11-24t19:29:13z") == Timestamp{1795548553, 0});
  CHECK(parse_rfc3339("2026-11-24T14:29:13.25-05:00") == Timestamp{1795548553, 250'000'000});
  CHECK(parse_rfc3339("2026-11-24T19:29:13.000000001Z") == Timestamp{1795548553, 1});
  CHECK(parse_rfc3339("1969-12-31T23:59:59.5Z") == Timestamp{-1, 500'000'000});
  CHECK(parse_rfc3339("2024-02-29T00:00:00Z").has_value());  // a leap year
}

TEST_CASE("anything else is not an RFC 3339 timestamp") {
  for (const char* bad :
       {"", "2026-11-24", "2026-11-24T19:29Z", "2026-11-24 19:29:13Z", "2026-11-24T19:29:13",
        "2026-11-24T19:29:13+0100", "2026-11-24T19:29:13+01", "2026-02-30T00:00:00Z",
        "2025-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-11-24T24:00:00Z",
        "2026-11-24T19:60:00Z", "2026-12-31T23:59:60Z", "2026-11-24T19:29:13.Z",
        "2026-11-24T19:29:13.1234567890Z", "2026-11-24T19:29:13Z ", "26-11-24T19:29:13Z",
        "2026-11-24T19:29:13+24:00", "２026-11-24T19:29:13Z"}) {
    CHECK_MESSAGE(!parse_rfc3339(bad).has_value(), bad);
  }
}

TEST_CASE("instants are written in UTC, with a fraction only when there is one") {
  CHECK(format_rfc3339({1795548553, 0}) == "2026-11-24T19:29:13Z");
  CHECK(format_rfc3339({1795548553, 250'000'000}) == "2026-11-24T19:29:13.25Z");
  CHECK(format_rfc3339({1795548553, 1}) == "2026-11-24T19:29:13.000000001Z");
  CHECK(format_rfc3339({-1, 500'000'000}) == "1969-12-31T23:59:59.5Z");
  CHECK(format_rfc3339({0, 0}) == "1970-01-01T00:00:00Z");
  CHECK_FALSE(format_rfc3339({253402300800, 0}).has_value());  // year 10000
  CHECK_FALSE(format_rfc3339({0, 1'000'000'000}).has_value());
  // What is read is written back as the same instant.
  const auto parsed = parse_rfc3339("2026-11-24T14:29:13.125-05:00");
  REQUIRE(parsed.has_value());
  CHECK(format_rfc3339(*parsed) == "2026-11-24T19:29:13.125Z");
}
