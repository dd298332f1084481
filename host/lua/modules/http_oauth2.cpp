#include "host/lua/modules/http_oauth2.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <stdexcept>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "host/engine/rules/secret_scope.h"
#include "host/engine/value/utf8.h"

namespace luaform::lua::http {
namespace {

// A token endpoint's answer is a few fields; anything longer is not one.
constexpr size_t kMaxTokenAnswerBytes = size_t{1} << 20;
// What of an error answer a message quotes (RFC 6749's error and error_description).
constexpr size_t kQuotedErrorLimit = 512;

struct Answer {
  std::string access_token;
  std::string token_type;
  std::optional<std::chrono::seconds> expires_in;
};

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// expires_in as a number of seconds, or as the string of one (some servers quote it); nullopt
// for anything else, which leaves the token in use until the API refuses it.
std::optional<std::chrono::seconds> lifetime_of(const nlohmann::json& value) {
  if (value.is_number() && value.get<double>() >= 0 && value.get<double>() < 1e9) {
    return std::chrono::seconds(static_cast<long long>(value.get<double>()));
  }
  if (value.is_string()) {
    const auto& text = value.get_ref<const std::string&>();
    long long n = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (error == std::errc() && end == text.data() + text.size() && n >= 0) {
      return std::chrono::seconds(n);
    }
  }
  return std::nullopt;
}

std::string text_member(const nlohmann::json& object, const char* name) {
  const auto found = object.find(name);
  return found != object.end() && found->is_string() ? found->get<std::string>() : "";
}

// The fields of a 2xx answer; throws when it has no token. Never quotes the answer: it may
// hold the token.
Answer read_answer(const Request& request, const Response& response) {
  const std::string where = "http: the OAuth2 token endpoint (POST " + request.url + ")";
  const auto object = nlohmann::json::parse(response.body, nullptr, false);
  if (!object.is_object()) {
    throw std::runtime_error(where + " answered " + std::to_string(response.status) +
                             " with a body that is not a JSON object");
  }
  Answer answer;
  answer.access_token = text_member(object, "access_token");
  answer.token_type = text_member(object, "token_type");
  if (const auto found = object.find("expires_in"); found != object.end()) {
    answer.expires_in = lifetime_of(*found);
  }
  if (answer.access_token.empty()) {
    throw std::runtime_error(where + " answered " + std::to_string(response.status) +
                             " without an access_token");
  }
  engine::add_secret_in_scope(answer.access_token);
  // RFC 6750's bearer tokens only: another type (DPoP, MAC) needs more than a header.
  if (!answer.token_type.empty() && !equal_ignoring_case(answer.token_type, "bearer")) {
    throw std::runtime_error(where + " gave a token of type \"" +
                             engine::utf8_excerpt(answer.token_type, 40, "...") +
                             "\"; a client sends Bearer tokens only");
  }
  return answer;
}

}  // namespace

AccessToken::AccessToken(ClientCredentials grant) : grant_(std::move(grant)) {}

void AccessToken::forget() {
  token_.clear();
  renew_at_.reset();
}

std::string AccessToken::authorization(Session& session, const Request& like,
                                       const RetryPolicy& retry, const Interruption& interruption,
                                       bool& fetched) {
  using Clock = std::chrono::steady_clock;
  // The secret is one of the call's secrets whether or not the script declared it sensitive:
  // every message below may be near it.
  engine::add_secret_in_scope(grant_.client_secret);
  fetched = false;
  if (!token_.empty() && (!renew_at_ || Clock::now() < *renew_at_)) {
    engine::add_secret_in_scope(token_);
    return "Bearer " + token_;
  }
  Request request = token_request(grant_, like);
  request.max_response_bytes = kMaxTokenAnswerBytes;
  request.max_response_why = "the longest answer a token endpoint is taken to give";
  const auto asked = Clock::now();
  Response response;
  try {
    response = session.send(request, retry, interruption);
  } catch (const TransportError& e) {
    throw std::runtime_error(std::string("http: the OAuth2 token request failed: ") + e.what());
  }
  if (response.status < 200 || response.status > 299) {
    std::string message = "http: the OAuth2 token endpoint (POST " + request.url + ") answered " +
                          std::to_string(response.status);
    const std::string quoted = engine::utf8_excerpt(response.body, kQuotedErrorLimit, "...");
    if (!quoted.empty()) message += ": " + quoted;
    throw std::runtime_error(message);
  }
  Answer answer = read_answer(request, response);
  token_ = std::move(answer.access_token);
  renew_at_.reset();
  // The lifetime counts from when the token was asked for: the server started it then.
  if (answer.expires_in) renew_at_ = renewal_time(asked, *answer.expires_in);
  fetched = true;
  return "Bearer " + token_;
}

}  // namespace luaform::lua::http
