// The client credentials grant's request and renewal time; fetching tokens from a real
// authorisation server (oidc-provider) behind a real API is in tests/e2e/test_oauth2_client.py.
#include "host/lua/modules/oauth2_grant.h"

#include <doctest/doctest.h>

using namespace luaform::lua::http;
using std::chrono::milliseconds;
using std::chrono::seconds;
using std::chrono::steady_clock;

namespace {

Request like() {
  Request request;
  request.timeout = Milliseconds(7000);
  request.connect_timeout = Milliseconds(3000);
  request.tls.ca_file = "/tmp/ca.pem";
  request.proxy = "http://127.0.0.1:3128";
  request.headers = {{"X-Team", "infra"}};  // the API's headers are not the token endpoint's
  return request;
}

}  // namespace

TEST_CASE("the token request is a form POST authenticated by HTTP basic, RFC 6749's way") {
  ClientCredentials grant{
      "https://auth.example/oauth/token", "ops:robot", "p@ss word&=", {"zones:read", "zones:write"},
      {{"audience", "https://api/"}},     false};
  const Request request = token_request(grant, like());
  CHECK(request.method == "POST");
  CHECK(request.url == "https://auth.example/oauth/token");
  CHECK(request.body ==
        "grant_type=client_credentials&scope=zones%3Aread%20zones%3Awrite&"
        "audience=https%3A%2F%2Fapi%2F");
  // Each part form-encoded before basic authentication joins them: the colon in the id and
  // the reserved characters in the secret are read back whole.
  REQUIRE(request.basic_auth);
  CHECK(request.basic_auth->first == "ops%3Arobot");
  CHECK(request.basic_auth->second == "p%40ss%20word%26%3D");
  CHECK(request.headers == Headers{{"Content-Type", "application/x-www-form-urlencoded"},
                                   {"Accept", "application/json"}});
  CHECK(request.timeout == Milliseconds(7000));
  CHECK(request.connect_timeout == Milliseconds(3000));
  CHECK(request.tls.ca_file == "/tmp/ca.pem");
  CHECK(request.proxy == "http://127.0.0.1:3128");
}

TEST_CASE("with the credentials in the body, the form carries them and no basic auth is sent") {
  ClientCredentials grant{"http://127.0.0.1:9/token", "robot", "s3cret", {}, {}, true};
  const Request request = token_request(grant, like());
  CHECK_FALSE(request.basic_auth);
  // No scopes asked for: no scope field (the server's default scopes).
  CHECK(request.body == "grant_type=client_credentials&client_id=robot&client_secret=s3cret");
}

TEST_CASE("a token is fetched again a fifth of its lifetime before it ends, at most a minute") {
  const steady_clock::time_point at{seconds(1000)};
  CHECK(renewal_time(at, seconds(4)) == at + milliseconds(3200));
  CHECK(renewal_time(at, seconds(100)) == at + seconds(80));
  CHECK(renewal_time(at, seconds(3600)) == at + seconds(3540));
  // A token that ends at once (expires_in 0) is fetched for every request.
  CHECK(renewal_time(at, seconds(0)) == at);
}
