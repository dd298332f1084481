// tf.log's redaction; the lines themselves are checked in the CLI's log by
// tests/e2e/test_http_client.py (go-plugin is what reads them).
#include "host/lua/log_module.h"

#include <doctest/doctest.h>

using luaform::lua::redact;

TEST_CASE("redact hides every occurrence of every secret, longest first") {
  CHECK(redact("token abc123 and abc123 again", {"abc123"}) == "token *** and *** again");
  // The longer secret is replaced whole, not left half-shown by its shorter prefix.
  CHECK(redact("key=secret-long", {"secret", "secret-long"}) == "key=***");
  CHECK(redact("nothing here", {"", "absent"}) == "nothing here");
  CHECK(redact("aaaa", {"aa"}) == "******");
  CHECK(redact("pin 4417", {"4417"}) == "pin ***");
}
