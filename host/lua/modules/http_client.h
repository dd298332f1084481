// HTTP requests through libcurl, with retries (see http_policy.h) and with a way for the caller
// to end a request early: StopProvider and the running operation's timeout reach into a request
// that is waiting for a slow server, not only into Lua code. No Lua here; the Lua module is
// http_module.h.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "host/lua/modules/http_policy.h"

typedef void CURL;  // NOLINT(modernize-use-using): matches curl.h's own declaration

namespace luaform::lua::http {

struct Tls {
  std::string ca_file;      // PEM bundle to trust instead of the system's
  std::string client_cert;  // PEM client certificate, for servers that ask for one
  std::string client_key;   // its PEM private key
  bool insecure = false;    // skip verifying the server's certificate (only when asked)
};

struct Request {
  std::string method = "GET";
  std::string url;
  Headers headers;
  std::optional<std::string> body;
  std::optional<std::pair<std::string, std::string>> basic_auth;  // user name, password
  Milliseconds timeout{60000};          // per attempt, from connecting to the last byte
  Milliseconds connect_timeout{10000};  // per attempt
  Tls tls;
  // The proxy every request goes through ("http://proxy:3128"), whatever the environment
  // says; empty: the environment's (https_proxy, http_proxy, no_proxy) as usual.
  std::string proxy;
  // A response body longer than this ends the attempt with an error (not retried) saying so
  // and why the bound is there: `max_response_why` ("the client's max_response_bytes"). The
  // bound holds after decompression (a small gzip body may inflate to gigabytes).
  size_t max_response_bytes = SIZE_MAX;
  std::string max_response_why;
};

struct Response {
  long status = 0;
  Headers headers;  // names in lower case, in the order received (of the final response)
  std::string body;
  int attempts = 1;  // how many times the request was sent

  // The value of the first header called `name` (lower case), or nullopt.
  std::optional<std::string> header(std::string_view name) const;
};

// What may end a request early. `reason` is asked while the request waits and between
// attempts; once it returns a message the request ends with that message. No attempt and no
// wait reaches past `deadline`.
struct Interruption {
  std::function<std::optional<std::string>()> reason;
  std::optional<std::chrono::steady_clock::time_point> deadline;
};

// No response came: the server could not be reached, the connection broke, TLS failed, the
// request timed out or was interrupted. The message says which, and after how many attempts.
class TransportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One connection cache: requests sent through the same session reuse connections to the same
// host. Not thread-safe; a session belongs to one Lua state.
class Session {
 public:
  Session();
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Sends `request`, again on a connection error or a retryable status (see retryable_status)
  // up to `policy.max_retries` times, waiting backoff_wait or what Retry-After asks between
  // attempts. Returns the last response whatever its status; throws TransportError when there
  // was none. `unit_random` gives the jitter (tests pass a fixed one).
  Response send(const Request& request, const RetryPolicy& policy, const Interruption& interruption,
                const std::function<double()>& unit_random = nullptr);

 private:
  CURL* handle_;
};

}  // namespace luaform::lua::http
