// tf.http's option checking and errors as a script sees them; requests against a real server
// are in tests/e2e/test_http_client.py.
#include "host/lua/modules/http_module.h"

#include <doctest/doctest.h>

#include "provider_dir.h"

using namespace luaform;
using namespace luaform::lua::testing;

TEST_CASE("a client refuses options it does not know or cannot use, saying which") {
  CHECK(evaluate("tf.http.client { base_url = 'http://x', retires = 3 }")
            .find("client has no option \"retires\" (known: base_url, bearer_token,") !=
        std::string::npos);
  CHECK(evaluate("tf.http.client { retries = -1 }")
            .find("retries must be a whole number from 0 to 100") != std::string::npos);
  CHECK(
      evaluate("tf.http.client { timeout = 'soon' }").find("timeout \"soon\" is not a duration") !=
      std::string::npos);
  CHECK(evaluate("tf.http.client { username = 'u', bearer_token = 't' }")
            .find("username/password or bearer_token, not both") != std::string::npos);
  CHECK(evaluate("tf.http.client { retry_wait_min = '2s', retry_wait_max = 1 }")
            .find("retry_wait_max is shorter than retry_wait_min") != std::string::npos);
  CHECK(evaluate("tf.http.client { headers = { X = {} } }")
            .find("headers.X must be a string, number or boolean") != std::string::npos);
  CHECK(evaluate("type(tf.http.client { base_url = 'http://x', timeout = 5 })") == "userdata");
  // Files are checked when the client is made (in configure), not at the first request.
  for (const char* option : {"ca_file", "client_cert", "client_key"}) {
    CAPTURE(option);
    CHECK(evaluate(std::string("tf.http.client { ") + option + " = '/nonexistent/x.pem' }")
              .find(std::string("http: ") + option + " \"/nonexistent/x.pem\" cannot be read") !=
          std::string::npos);
  }
  CHECK(evaluate("tf.http.client { max_response_bytes = 0 }")
            .find("max_response_bytes must be a whole number of bytes") != std::string::npos);
  CHECK(evaluate("type(tf.http.client { proxy = 'http://127.0.0.1:3128' })") == "userdata");
}

TEST_CASE("the oauth2 option is checked when the client is made, naming what is wrong") {
  const std::string grant =
      "token_url = '/oauth/token', client_id = 'robot', client_secret = 's3cret'";
  CHECK(evaluate("type(tf.http.client { base_url = 'http://x', oauth2 = { " + grant + " } })") ==
        "userdata");
  CHECK(evaluate("type(tf.http.client { oauth2 = { " + grant +
                 ", scopes = { 'a', 'b' }, params = { audience = 'api' }, auth = 'body' } })") ==
        "userdata");
  CHECK(evaluate("tf.http.client { oauth2 = 'robot:s3cret' }")
            .find("oauth2 must be a table, as in { token_url = ...") != std::string::npos);
  CHECK(evaluate("tf.http.client { oauth2 = { " + grant + ", scope = 'a' } }")
            .find("oauth2 has no option \"scope\" (known: auth, client_id, client_secret, "
                  "params, scopes, token_url)") != std::string::npos);
  CHECK(evaluate("tf.http.client { oauth2 = { token_url = '/t', client_id = 'robot' } }")
            .find("http: oauth2 needs client_secret") != std::string::npos);
  CHECK(evaluate("tf.http.client { oauth2 = { " + grant + ", scopes = 'a b' } }")
            .find("oauth2.scopes must be a list of strings") != std::string::npos);
  CHECK(evaluate("tf.http.client { oauth2 = { " + grant + ", auth = 'post' } }")
            .find("oauth2.auth must be \"basic\"") != std::string::npos);
  CHECK(evaluate("tf.http.client { bearer_token = 't', oauth2 = { " + grant + " } }")
            .find("a client takes oauth2, username/password or bearer_token, one of them") !=
        std::string::npos);
}

TEST_CASE("a token endpoint that cannot be reached fails the request, naming the token URL") {
  // Nothing listens on port 9: the token request fails before the API is asked, and the
  // message says it was the token request (the secret is not in it).
  const std::string text = evaluate(
      "tf.http.client { base_url = 'http://127.0.0.1:9/api', retries = 0, oauth2 = { "
      "token_url = '/oauth/token', client_id = 'robot', client_secret = 's3cret' } }"
      ":get('/things')");
  CHECK_MESSAGE(text.find("http: the OAuth2 token request failed: POST "
                          "http://127.0.0.1:9/api/oauth/token: ") != std::string::npos,
                text);
  CHECK_MESSAGE(text.find("s3cret") == std::string::npos, text);
}

TEST_CASE("a request that gets no answer names the script line, the request and the attempts") {
  // Port 9 on loopback (discard) has no listener here: the connection is refused at once.
  const std::string text = evaluate(
      "tf.http.client { base_url = 'http://127.0.0.1:9', retries = 1, retry_wait_min = 0.01 }"
      ":get('/x', { query = { q = 'a b' } })");
  CHECK_MESSAGE(
      text.find("resource_probe.lua:6: GET http://127.0.0.1:9/x?q=a%20b: ") != std::string::npos,
      text);
  CHECK_MESSAGE(text.find("(2 attempts)") != std::string::npos, text);
  CHECK(evaluate("tf.http.client {}:request {}").find("the request has no URL") !=
        std::string::npos);
  // Only http and https: a URL from an API's answer cannot make the client read local files.
  const std::string file = evaluate("tf.http.client {}:request { url = 'file:///etc/passwd' }");
  CHECK_MESSAGE(
      file.find("GET file:///etc/passwd: Protocol \"file\" not supported") != std::string::npos,
      file);
  CHECK_MESSAGE(file.find("(1 attempt)") != std::string::npos, file);
  CHECK(evaluate("tf.http.client {}:post('http://127.0.0.1:9/', { f = print })")
            .find("json.encode: $.f is a function") != std::string::npos);
  CHECK(evaluate("tf.http.status_of('text') == nil and tf.http.status_of({status = 1}) == nil") ==
        "true");
}

TEST_CASE("the module works when required on its own, without the SDK") {
  // A script that requires only luaform_http: the client loads luaform_json for its bodies.
  ProviderDir dir;
  dir.write("resource_bare.lua", R"(local http = require("luaform_http")
return {
  kind = "resource",
  schema = {},
  create = function() http.client {}:post("http://127.0.0.1:9/", { f = print }) end,
  read = function() end,
  delete = function() end,
}
)");
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  Instance i(*logic, "test_bare");
  engine::ResourceData d(i.schema, i.null(), i.null(), i.null());
  const auto diags = logic->open_session()->call(engine::Operation::Create, "test_bare", d);
  REQUIRE(diags.has_errors());
  CHECK(as_raised(diags.items()[0]).find("json.encode: $.f is a function") != std::string::npos);
}

TEST_CASE("path segments are escaped as Go's url.PathEscape does, and joined into a path") {
  CHECK(evaluate("tf.http.escape('team/web 1?x=%')") == "team%2Fweb%201%3Fx=%25");
  CHECK(evaluate("tf.http.escape('a-b_c.d~e$f&g+h,i:j;k=l@m')") == "a-b_c.d~e$f&g+h,i:j;k=l@m");
  CHECK(evaluate("tf.http.escape('café')") == "caf%C3%A9");
  CHECK(evaluate("tf.http.escape(42)") == "42");
  CHECK(evaluate("tf.http.unescape('team%2Fweb%201%3fx')") == "team/web 1?x");
  CHECK(evaluate("tf.http.unescape(tf.http.escape('a/b c%'))") == "a/b c%");
  CHECK(evaluate("tf.http.path('servers', 'web 1', 'disks', 3)") == "/servers/web%201/disks/3");
  for (const char* bad : {"'%2'", "'%G1'", "'x%'", "'%4x'"}) {
    CAPTURE(bad);
    CHECK(evaluate(std::string("tf.http.unescape(") + bad + ")")
              .find("tf.http.unescape: malformed escape") != std::string::npos);
  }
  CHECK(evaluate("tf.http.path('servers', nil)").find("segment 2 is nil") != std::string::npos);
  CHECK(evaluate("tf.http.escape({})").find("expects a string, got table") != std::string::npos);
}
