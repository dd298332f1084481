#include "host/lua/modules/oauth2_grant.h"

#include <algorithm>

#include "host/lua/modules/http_policy.h"

namespace luaform::lua::http {

Request token_request(const ClientCredentials& grant, const Request& like) {
  Request request;
  request.method = "POST";
  request.url = grant.token_url;
  request.timeout = like.timeout;
  request.connect_timeout = like.connect_timeout;
  request.tls = like.tls;
  request.proxy = like.proxy;
  Headers form{{"grant_type", "client_credentials"}};
  if (!grant.scopes.empty()) {
    std::string scope;
    for (const auto& one : grant.scopes) {
      if (!scope.empty()) scope += ' ';
      scope += one;
    }
    form.emplace_back("scope", scope);
  }
  form.insert(form.end(), grant.parameters.begin(), grant.parameters.end());
  if (grant.credentials_in_body) {
    form.emplace_back("client_id", grant.client_id);
    form.emplace_back("client_secret", grant.client_secret);
  } else {
    // RFC 6749, 2.3.1: each is form-encoded before basic authentication joins them, so that
    // an id with a colon in it is read back whole.
    request.basic_auth = {{percent_encoded(grant.client_id), percent_encoded(grant.client_secret)}};
  }
  request.body = encode_query(form);
  request.headers = {{"Content-Type", "application/x-www-form-urlencoded"},
                     {"Accept", "application/json"}};
  return request;
}

std::chrono::steady_clock::time_point renewal_time(std::chrono::steady_clock::time_point fetched,
                                                   std::chrono::seconds lifetime) {
  const std::chrono::milliseconds margin = std::min<std::chrono::milliseconds>(
      std::chrono::milliseconds(lifetime) / 5, std::chrono::minutes(1));
  return fetched + lifetime - margin;
}

}  // namespace luaform::lua::http
