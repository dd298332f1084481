// tf.http's option checking and errors as a script sees them; requests against a real server
// are in tests/e2e/test_http_client.py.
#include "host/lua/http_module.h"

#include <doctest/doctest.h>

#include "provider_dir.h"

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
  // With luaform_json not loaded, the client loads it for its bodies.
  CHECK(evaluate("(function() package.loaded.luaform_json = nil return require('luaform_http')"
                 ".client {}:post('http://127.0.0.1:9/', { f = print }) end)()")
            .find("json.encode: $.f is a function") != std::string::npos);
}
