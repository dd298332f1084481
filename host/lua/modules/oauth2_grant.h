// OAuth 2.0's client credentials grant (RFC 6749, section 4.4) as tf.http's clients use it:
// the token request, and when a token is fetched again. No Lua and no network here, so that
// the rules are tested directly; http_oauth2.h fetches and keeps the token.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "host/lua/modules/http_client.h"

namespace luaform::lua::http {

struct ClientCredentials {
  std::string token_url;  // a whole URL (a relative one is joined to the client's base_url)
  std::string client_id;
  std::string client_secret;
  std::vector<std::string> scopes;  // sent space-separated as `scope`; none: no `scope`
  Headers parameters;               // more fields of the form (audience, resource)
  // client_secret_post: the credentials in the form instead of HTTP basic authentication,
  // for the servers that take only that.
  bool credentials_in_body = false;
};

// The token request: a POST of the form `grant_type=client_credentials&scope=...` to the
// token URL, authenticated as the grant says; timeouts, TLS and proxy as in `like`.
Request token_request(const ClientCredentials& grant, const Request& like);

// When a token that the server said lasts `lifetime` from `fetched` is fetched again: before
// it ends, by a fifth of its lifetime and at most a minute, so that a request sent just before
// the end does not reach the server with a token that ended on the way.
std::chrono::steady_clock::time_point renewal_time(std::chrono::steady_clock::time_point fetched,
                                                   std::chrono::seconds lifetime);

}  // namespace luaform::lua::http
