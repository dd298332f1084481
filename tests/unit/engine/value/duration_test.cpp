#include "host/engine/value/duration.h"

#include <doctest/doctest.h>

using namespace luaform::engine;
using namespace std::chrono_literals;

TEST_CASE("durations are read in Go's syntax, as timeouts blocks write them") {
  CHECK(parse_duration("10m") == Duration(10min));
  CHECK(parse_duration("1h30m") == Duration(90min));
  CHECK(parse_duration("2.5s") == Duration(2500ms));
  CHECK(parse_duration("300ms") == Duration(300ms));
  CHECK(parse_duration("1m30s250ms") == Duration(90250ms));
  CHECK(parse_duration("20us") == Duration(20us));
  CHECK(parse_duration("0") == Duration::zero());
}

TEST_CASE("anything else is not a duration") {
  for (const char* bad : {"", "10", "m", "ten minutes", "-5m", "1.5", "5 m", "1x", "."}) {
    CHECK_MESSAGE(!parse_duration(bad).has_value(), bad);
  }
}

TEST_CASE("format_duration writes what parse_duration reads, to the millisecond") {
  CHECK(format_duration(20min) == "20m0s");
  CHECK(format_duration(1h + 5s) == "1h0m5s");
  CHECK(format_duration(1500ms) == "1.5s");
  CHECK(format_duration(250ms) == "0.25s");
  CHECK(format_duration(Duration::zero()) == "0s");
  for (Duration d : {Duration(90250ms), Duration(26h), Duration(1ms)}) {
    CHECK(parse_duration(format_duration(d)) == d);
  }
}
