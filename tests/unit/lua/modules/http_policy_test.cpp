// The HTTP client's rules that need no network; the client itself is exercised against a real
// server on loopback by tests/e2e/test_http_client.py.
#include "host/lua/modules/http_policy.h"

#include <doctest/doctest.h>

using namespace luaform::lua::http;
using std::chrono::system_clock;

TEST_CASE("429 and the 5xx other than 501 are worth another attempt; nothing else is") {
  for (long status : {429L, 500L, 502L, 503L, 504L, 599L}) CHECK(retryable_status(status));
  for (long status : {200L, 201L, 301L, 400L, 401L, 404L, 409L, 501L}) {
    CHECK_FALSE(retryable_status(status));
  }
}

TEST_CASE("Retry-After is read as seconds or as an HTTP date") {
  const auto now = system_clock::from_time_t(1'790'000'000);  // 2026-09-21 14:13:20 UTC
  CHECK(parse_retry_after("120", now) == Milliseconds(120'000));
  CHECK(parse_retry_after(" 0 ", now) == Milliseconds(0));
  CHECK(parse_retry_after("99999999999", now) == Milliseconds(86'400'000));
  CHECK(parse_retry_after("Mon, 21 Sep 2026 14:13:50 GMT", now) == Milliseconds(30'000));
  CHECK(parse_retry_after("Mon, 21 Sep 2026 14:00:00 GMT", now) == Milliseconds(0));
  CHECK_FALSE(parse_retry_after("", now));
  CHECK_FALSE(parse_retry_after("-5", now));
  CHECK_FALSE(parse_retry_after("soon", now));
  CHECK_FALSE(parse_retry_after("1.5", now));
}

TEST_CASE("the backoff doubles from min_wait, stops at max_wait, and jitters down to half") {
  const RetryPolicy policy{5, Milliseconds(100), Milliseconds(1000)};
  CHECK(backoff_wait(0, policy, 0.999999) == Milliseconds(99));
  CHECK(backoff_wait(0, policy, 0.0) == Milliseconds(50));
  CHECK(backoff_wait(1, policy, 0.0) == Milliseconds(100));
  CHECK(backoff_wait(2, policy, 0.5) == Milliseconds(300));
  CHECK(backoff_wait(3, policy, 0.0) == Milliseconds(400));
  CHECK(backoff_wait(4, policy, 0.0) == Milliseconds(500));  // 1600 capped at 1000, halved
  CHECK(backoff_wait(1000, policy, 1.0) == Milliseconds(1000));
}

TEST_CASE("query strings are percent-encoded in the order given") {
  CHECK(encode_query({{"a", "1"}, {"b", "x y"}, {"b", "&=?"}, {"ü", "~._-"}}) ==
        "a=1&b=x%20y&b=%26%3D%3F&%C3%BC=~._-");
  CHECK(encode_query({}).empty());
}

TEST_CASE("a path joins the base URL with one slash, and a full URL replaces it") {
  CHECK(join_url("http://h:1/api", "/objects") == "http://h:1/api/objects");
  CHECK(join_url("http://h:1/api/", "/objects") == "http://h:1/api/objects");
  CHECK(join_url("http://h:1/api", "objects") == "http://h:1/api/objects");
  CHECK(join_url("http://h:1/api/", "") == "http://h:1/api/");
  CHECK(join_url("http://h:1", "https://other/x?page=2") == "https://other/x?page=2");
  CHECK(join_url("", "http://h/x") == "http://h/x");
}
