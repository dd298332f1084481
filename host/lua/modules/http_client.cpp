#include "host/lua/modules/http_client.h"

#include "host/engine/rules/secret_scope.h"
#include "host/lua/modules/curl_library.h"
#include "host/lua/modules/system_certificates.h"

#include <algorithm>
#include <cctype>
#include <memory>
#include <random>
#include <thread>

namespace luaform::lua::http {
namespace {

using Clock = std::chrono::steady_clock;

// How often a wait between attempts looks at the interruption.
constexpr Milliseconds kWaitSlice{50};

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return std::string(text);
}

// What one attempt collects; the callbacks below write into it.
struct Attempt {
  Response response;
  const Interruption* interruption = nullptr;
  std::optional<std::string> interrupted;  // why the progress callback ended the attempt
  size_t max_body = SIZE_MAX;
  bool body_too_long = false;
};

size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto* attempt = static_cast<Attempt*>(user);
  if (size * count > attempt->max_body - attempt->response.body.size()) {
    attempt->body_too_long = true;
    return 0;  // ends the transfer
  }
  attempt->response.body.append(data, size * count);
  return size * count;
}

size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto& response = static_cast<Attempt*>(user)->response;
  const std::string_view line(data, size * count);
  // A status line starts the headers of a new response (after a redirect or a 100 Continue):
  // only the final response's headers are kept.
  if (line.starts_with("HTTP/")) {
    response.headers.clear();
  } else if (const auto colon = line.find(':'); colon != std::string_view::npos) {
    response.headers.emplace_back(lower(std::string(line.substr(0, colon))),
                                  trim(line.substr(colon + 1)));
  }
  return size * count;
}

int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto& attempt = *static_cast<Attempt*>(user);
  if (attempt.interruption->reason) {
    if (auto why = attempt.interruption->reason()) {
      attempt.interrupted = std::move(why);
      return 1;  // curl ends the transfer with CURLE_ABORTED_BY_CALLBACK
    }
  }
  return 0;
}

// Errors where asking again may work: the network or the server's state, not the request.
bool retryable_error(CURLcode code) {
  switch (code) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
      return true;
    default:
      return false;
  }
}

struct SlistFree {
  void operator()(curl_slist* list) const { curl_library().slist_free_all(list); }
};

// Remaining time before the deadline, or `limit` when that is sooner (or there is no deadline).
Milliseconds within_deadline(Milliseconds limit, const Interruption& interruption) {
  if (!interruption.deadline) return limit;
  const auto left = std::chrono::ceil<Milliseconds>(*interruption.deadline - Clock::now());
  return std::clamp(left, Milliseconds(1), limit);
}

class AttemptFailed : public std::runtime_error {
 public:
  AttemptFailed(const std::string& message, bool retryable)
      : std::runtime_error(message), retryable(retryable) {}
  bool retryable;
};

Response attempt_once(CURL* curl, const Request& request, const Interruption& interruption) {
  const CurlLibrary& lib = curl_library();
  lib.easy_reset(curl);  // keeps the connection cache
  Attempt attempt;
  attempt.interruption = &interruption;
  attempt.max_body = request.max_response_bytes;
  char error_text[CURL_ERROR_SIZE] = {};

  std::unique_ptr<curl_slist, SlistFree> headers;
  auto add_header = [&](const std::string& line) {
    curl_slist* grown = lib.slist_append(headers.get(), line.c_str());
    if (grown == nullptr) throw std::bad_alloc();
    (void)headers.release();
    headers.reset(grown);
  };
  for (const auto& [name, value] : request.headers) {
    // "Name:" with nothing after the colon makes libcurl send no such header at all, not even
    // one of its own (an empty Accept removes the client's default).
    add_header(value.empty() ? std::string(name).append(":")
                             : std::string(name).append(": ").append(value));
  }
  add_header("Expect:");  // no 100-continue round trip before a body

  lib.easy_setopt(curl, CURLOPT_URL, request.url.c_str());
  lib.easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  lib.easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  lib.easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  lib.easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
  lib.easy_setopt(curl, CURLOPT_MAXREDIRS, 10L);
  lib.easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
  lib.easy_setopt(curl, CURLOPT_USERAGENT, "luaform");
  if (!request.proxy.empty()) lib.easy_setopt(curl, CURLOPT_PROXY, request.proxy.c_str());
  lib.easy_setopt(curl, CURLOPT_ERRORBUFFER, error_text);
  lib.easy_setopt(curl, CURLOPT_HTTPHEADER, headers.get());
  if (request.method == "HEAD") {
    lib.easy_setopt(curl, CURLOPT_NOBODY, 1L);
  } else if (request.method != "GET" || request.body) {
    lib.easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  }
  if (request.body) {
    lib.easy_setopt(curl, CURLOPT_POSTFIELDS, request.body->data());
    lib.easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
                    static_cast<curl_off_t>(request.body->size()));
  }
  if (request.basic_auth) {
    lib.easy_setopt(curl, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
    lib.easy_setopt(curl, CURLOPT_USERNAME, request.basic_auth->first.c_str());
    lib.easy_setopt(curl, CURLOPT_PASSWORD, request.basic_auth->second.c_str());
  }
  lib.easy_setopt(curl, CURLOPT_TIMEOUT_MS,
                  static_cast<long>(within_deadline(request.timeout, interruption).count()));
  lib.easy_setopt(
      curl, CURLOPT_CONNECTTIMEOUT_MS,
      static_cast<long>(within_deadline(request.connect_timeout, interruption).count()));
  if (!request.tls.ca_file.empty()) {
    lib.easy_setopt(curl, CURLOPT_CAINFO, request.tls.ca_file.c_str());
  } else {
    const auto& system = system_certificates();
    if (!system.file.empty()) lib.easy_setopt(curl, CURLOPT_CAINFO, system.file.c_str());
#if defined(_WIN32)
    // Windows keeps its authorities in the system store, which OpenSSL reads through curl.
    if (system.file.empty()) {
      lib.easy_setopt(curl, CURLOPT_SSL_OPTIONS, static_cast<long>(CURLSSLOPT_NATIVE_CA));
    }
#endif
    if (!system.directory.empty()) {
      lib.easy_setopt(curl, CURLOPT_CAPATH, system.directory.c_str());
    }
  }
  if (!request.tls.client_cert.empty()) {
    lib.easy_setopt(curl, CURLOPT_SSLCERT, request.tls.client_cert.c_str());
  }
  if (!request.tls.client_key.empty()) {
    lib.easy_setopt(curl, CURLOPT_SSLKEY, request.tls.client_key.c_str());
  }
  if (request.tls.insecure) {
    lib.easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 0L);
    lib.easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 0L);
  }
  lib.easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
  lib.easy_setopt(curl, CURLOPT_WRITEDATA, &attempt);
  lib.easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
  lib.easy_setopt(curl, CURLOPT_HEADERDATA, &attempt);
  lib.easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
  lib.easy_setopt(curl, CURLOPT_XFERINFODATA, &attempt);
  lib.easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);

  const CURLcode code = lib.easy_perform(curl);
  if (attempt.interrupted) throw TransportError(*attempt.interrupted);
  if (attempt.body_too_long) {
    throw AttemptFailed("the response body is longer than " +
                            std::to_string(request.max_response_bytes) + " bytes, " +
                            request.max_response_why,
                        false);
  }
  if (code != CURLE_OK) {
    std::string message = error_text[0] != '\0' ? error_text : lib.easy_strerror(code);
    // The attempt was cut short to end at the operation's deadline: say that, not "timed out".
    // curl's timer can fire a millisecond or two before the time it was set to (a create with
    // a 3 s timeout saw "timed out after 2999 milliseconds"), so a timeout that close to the
    // deadline waits for it and asks again.
    constexpr Milliseconds kTimerSlack(50);
    if (code == CURLE_OPERATION_TIMEDOUT && interruption.deadline && interruption.reason &&
        Clock::now() + kTimerSlack >= *interruption.deadline) {
      std::this_thread::sleep_until(*interruption.deadline);
      if (auto why = interruption.reason()) throw TransportError(*why);
    }
    throw AttemptFailed(message, retryable_error(code));
  }
  lib.easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &attempt.response.status);
  return std::move(attempt.response);
}

// Waits `wait`, looking at the interruption every slice. Throws TransportError when it says to
// stop.
void wait_between_attempts(Milliseconds wait, const Interruption& interruption) {
  const auto until = Clock::now() + wait;
  while (true) {
    if (interruption.reason) {
      if (auto why = interruption.reason()) throw TransportError(*why);
    }
    const auto now = Clock::now();
    if (now >= until) return;
    std::this_thread::sleep_for(std::min<Clock::duration>(kWaitSlice, until - now));
  }
}

std::string attempts_text(int attempts) {
  return attempts == 1 ? "1 attempt" : std::to_string(attempts) + " attempts";
}

// The credentials a request carries are secrets of the call sending it, whether or not the
// script's values were declared sensitive: a server that echoes them (a 401 body quoting the
// request's headers) must not put them in a diagnostic. Hidden with their encoded spellings,
// so Basic's base64 of "user:password" is too.
void hide_credentials(const Request& request) {
  if (request.basic_auth) {
    engine::add_secret_in_scope(request.basic_auth->second);
    engine::add_secret_in_scope(request.basic_auth->first + ":" + request.basic_auth->second);
  }
  for (const auto& [name, value] : request.headers) {
    const std::string header = lower(name);
    if (header != "authorization" && header != "proxy-authorization") continue;
    engine::add_secret_in_scope(value);
    // "Bearer TOKEN": the token alone too.
    if (const size_t space = value.find(' '); space != std::string::npos) {
      engine::add_secret_in_scope(trim(std::string_view(value).substr(space + 1)));
    }
  }
  // https://user:password@host/...: the user information.
  const size_t scheme = request.url.find("://");
  if (scheme == std::string::npos) return;
  const size_t authority = scheme + 3;
  const size_t end = request.url.find_first_of("/?#", authority);
  const size_t at = request.url.rfind('@', end == std::string::npos ? request.url.size() : end);
  if (at == std::string::npos || at < authority) return;
  const std::string userinfo = request.url.substr(authority, at - authority);
  engine::add_secret_in_scope(userinfo);
  if (const size_t colon = userinfo.find(':'); colon != std::string::npos) {
    engine::add_secret_in_scope(userinfo.substr(colon + 1));
  }
}

}  // namespace

std::optional<std::string> Response::header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (key == name) return value;
  }
  return std::nullopt;
}

Session::Session() : handle_(nullptr) {
  handle_ = curl_library().easy_init();
  if (handle_ == nullptr) throw std::runtime_error("cannot start libcurl");
}

Session::~Session() {
  curl_library().easy_cleanup(handle_);
}

Response Session::send(const Request& request, const RetryPolicy& policy,
                       const Interruption& interruption,
                       const std::function<double()>& unit_random) {
  hide_credentials(request);
  thread_local std::mt19937_64 generator{std::random_device{}()};
  auto random = [&] {
    return unit_random ? unit_random() : std::uniform_real_distribution<double>(0, 1)(generator);
  };
  for (int attempt = 1;; ++attempt) {
    std::optional<Milliseconds> wait;
    std::string last_failure;
    try {
      Response response = attempt_once(handle_, request, interruption);
      response.attempts = attempt;
      if (!retryable_status(response.status) || attempt > policy.max_retries) return response;
      wait = backoff_wait(attempt - 1, policy, random());
      if (const auto retry_after = response.header("retry-after")) {
        if (auto asked = parse_retry_after(*retry_after, std::chrono::system_clock::now())) {
          // A server asking for longer than max_wait gets its answer back unretried.
          if (*asked > policy.max_wait) return response;
          wait = *asked;
        }
      }
      // Nor is an answer retried when the wait would end past the deadline.
      if (interruption.deadline && Clock::now() + *wait >= *interruption.deadline) {
        return response;
      }
    } catch (const AttemptFailed& failure) {
      last_failure = failure.what();
      if (!failure.retryable || attempt > policy.max_retries) {
        throw TransportError(request.method + " " + request.url + ": " + last_failure + " (" +
                             attempts_text(attempt) + ")");
      }
      wait = backoff_wait(attempt - 1, policy, random());
      if (interruption.deadline && Clock::now() + *wait >= *interruption.deadline) {
        throw TransportError(request.method + " " + request.url + ": " + last_failure + " (" +
                             attempts_text(attempt) +
                             "; no time left for another before the timeout)");
      }
    }
    wait_between_attempts(*wait, interruption);
  }
}

}  // namespace luaform::lua::http
