#include "host/engine/value/diagnostics.h"

#include <doctest/doctest.h>

using namespace luaform::engine;

TEST_CASE("paths render with dots for attributes and brackets for elements") {
  CHECK(path_to_string({}) == "");
  CHECK(path_to_string({AttributeName{"disk"}, ElementIndex{0}, AttributeName{"size"}}) ==
        "disk[0].size");
  CHECK(path_to_string({AttributeName{"tags"}, ElementKey{"env"}}) == "tags[\"env\"]");
  CHECK(path_to_string({AttributeName{"m"}, ElementKey{"a\"b"}}) == "m[\"a\\\"b\"]");
}

TEST_CASE("addresses join every step with dots, as scripts and conflicts_with write them") {
  CHECK(path_to_address({}) == "");
  CHECK(path_to_address({AttributeName{"disk"}, ElementIndex{0}, AttributeName{"size"}}) ==
        "disk.0.size");
  CHECK(path_to_address({AttributeName{"tags"}, ElementKey{"env"}}) == "tags.env");
}

TEST_CASE("only errors count as errors") {
  Diagnostics d;
  CHECK(d.empty());
  d.warning("careful");
  CHECK_FALSE(d.has_errors());
  Diagnostics other;
  other.error("broken", "detail", {AttributeName{"x"}});
  d.append(other);
  CHECK(d.has_errors());
  REQUIRE(d.items().size() == 2);
  CHECK(d.items()[1].summary == "broken");
  CHECK(d.items()[1].path == AttributePath{AttributeName{"x"}});
}
