// Durations written as Terraform users write them in `timeouts` blocks: Go's syntax, a sequence
// of decimal numbers each with a unit ("10m", "1h30m", "2.5s", "300ms").
#pragma once

#include <chrono>
#include <optional>
#include <string>

namespace luaform::engine {

using Duration = std::chrono::nanoseconds;

// The duration `text` means, or nullopt when it is not one (units: ns, us, µs, ms, s, m, h; a
// sign is not allowed; "0" alone is zero).
std::optional<Duration> parse_duration(const std::string& text);

// The duration in that syntax, to the millisecond: "20m0s", "1h0m5s", "1.5s", "0s".
std::string format_duration(Duration d);

}  // namespace luaform::engine
