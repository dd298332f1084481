// The OAuth 2.0 access token of a tf.http client made with the `oauth2` option: fetched with
// the client credentials grant (oauth2_grant.h) before the client's first request, fetched
// again when it is due and when the API answers 401, and kept with the client in between, so
// that one token serves every request of the Lua state that made the client.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "host/lua/modules/http_client.h"
#include "host/lua/modules/oauth2_grant.h"

namespace luaform::lua::http {

class AccessToken {
 public:
  explicit AccessToken(ClientCredentials grant);

  // The Authorization header's value ("Bearer TOKEN") for a request sent now; a token is
  // fetched first, through `session`, when there is none or it is due, and then `fetched` is
  // set. Throws std::runtime_error naming the token URL when the server gives none. `like`
  // lends the token request its timeouts, TLS and proxy.
  std::string authorization(Session& session, const Request& like, const RetryPolicy& retry,
                            const Interruption& interruption, bool& fetched);

  // The API refused the token: the next authorization fetches another.
  void forget();

 private:
  ClientCredentials grant_;
  std::string token_;
  std::optional<std::chrono::steady_clock::time_point> renew_at_;  // none: until refused
};

}  // namespace luaform::lua::http
