#include "host/lua/modules/http_policy.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <ctime>
#include <iomanip>
#include <sstream>

#include "host/platform/platform.h"

namespace luaform::lua::http {

bool retryable_status(long status) {
  return status == 429 || (status >= 500 && status <= 599 && status != 501);
}

std::optional<Milliseconds> parse_retry_after(std::string_view value,
                                              std::chrono::system_clock::time_point now) {
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.front()))) {
    value.remove_prefix(1);
  }
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back()))) {
    value.remove_suffix(1);
  }
  if (value.empty()) return std::nullopt;
  if (std::all_of(value.begin(), value.end(),
                  [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; })) {
    // More than a day is as good as forever; the cap keeps the arithmetic in range.
    if (value.size() > 6) return Milliseconds(86'400'000);
    return std::min(Milliseconds(std::stoll(std::string(value)) * 1000), Milliseconds(86'400'000));
  }
  // IMF-fixdate, the form RFC 9110 requires senders to use.
  std::tm parts{};
  std::istringstream in{std::string(value)};
  in.imbue(std::locale::classic());
  in >> std::get_time(&parts, "%a, %d %b %Y %H:%M:%S GMT");
  if (in.fail()) return std::nullopt;
  const std::time_t at = platform::utc_seconds(parts);
  if (at == static_cast<std::time_t>(-1)) return std::nullopt;
  const auto wait = std::chrono::system_clock::from_time_t(at) - now;
  if (wait <= std::chrono::system_clock::duration::zero()) return Milliseconds(0);
  return std::chrono::ceil<Milliseconds>(wait);
}

Milliseconds backoff_wait(int retry, const RetryPolicy& policy, double unit_random) {
  const double ceiling = static_cast<double>(policy.max_wait.count());
  // 2^retry overflows nothing here: the product is capped before it is converted back.
  const double full = std::min(ceiling, static_cast<double>(policy.min_wait.count()) *
                                            std::pow(2.0, std::clamp(retry, 0, 62)));
  const double jittered = full / 2 + (full / 2) * std::clamp(unit_random, 0.0, 1.0);
  return Milliseconds(static_cast<int64_t>(jittered));
}

namespace {

void percent_encode(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) != 0 || c == '-' || c == '.' || c == '_' || c == '~') {
      out += c;
    } else {
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 0x0f];
    }
  }
}

}  // namespace

std::string encode_query(const Headers& parameters) {
  std::string out;
  for (const auto& [name, value] : parameters) {
    if (!out.empty()) out += '&';
    percent_encode(out, name);
    out += '=';
    percent_encode(out, value);
  }
  return out;
}

std::string percent_encoded(std::string_view text) {
  std::string out;
  percent_encode(out, text);
  return out;
}

std::string join_url(std::string_view base, std::string_view path) {
  if (path.starts_with("http://") || path.starts_with("https://")) return std::string(path);
  if (path.empty()) return std::string(base);
  std::string out(base);
  if (out.ends_with('/') && path.starts_with('/')) {
    out.pop_back();
  } else if (!out.ends_with('/') && !path.starts_with('/') && !out.empty()) {
    out += '/';
  }
  out += path;
  return out;
}

}  // namespace luaform::lua::http
