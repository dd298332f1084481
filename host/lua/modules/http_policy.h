// The rules of the HTTP client that need no network: which answers are worth another attempt,
// how long to wait before it, and how a query string is spelt. Kept apart from the libcurl code
// so that they are tested directly.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace luaform::lua::http {

using Headers = std::vector<std::pair<std::string, std::string>>;
using Milliseconds = std::chrono::milliseconds;

struct RetryPolicy {
  int max_retries = 4;           // attempts after the first
  Milliseconds min_wait{1000};   // the wait before the first retry, doubled for each next one
  Milliseconds max_wait{30000};  // no wait is longer, including one a server asks for
};

// 429 Too Many Requests and the 5xx answers other than 501 Not Implemented (which will not
// change by asking again).
bool retryable_status(long status);

// The wait a Retry-After header value asks for: delay-seconds ("120") or an HTTP date
// ("Wed, 21 Oct 2026 07:28:00 GMT", compared with `now`; a date in the past means no wait).
// nullopt when the value is neither.
std::optional<Milliseconds> parse_retry_after(std::string_view value,
                                              std::chrono::system_clock::time_point now);

// The wait before retry number `retry` (0 for the first): min_wait * 2^retry, at most max_wait,
// then jittered down to between half and all of that by `unit_random` in [0, 1), so that
// clients that failed together do not come back together.
Milliseconds backoff_wait(int retry, const RetryPolicy& policy, double unit_random);

// "a=1&b=x%20y": names and values percent-encoded (everything but A-Z a-z 0-9 - . _ ~), in the
// order given.
std::string encode_query(const Headers& parameters);

// One name or value percent-encoded as encode_query spells it.
std::string percent_encoded(std::string_view text);

// `base` and `path` joined with exactly one slash; a `path` that is already a full URL
// ("http://..." or "https://...") is returned as it is.
std::string join_url(std::string_view base, std::string_view path);

}  // namespace luaform::lua::http
