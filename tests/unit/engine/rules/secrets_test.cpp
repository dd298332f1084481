// sensitive_texts (what is hidden, found through the schema and the values' marks) and redact.
#include "host/engine/rules/secrets.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

TEST_CASE("sensitive attributes are found at the top, in blocks, and by their marks") {
  Block block;
  Attribute password = attribute("password", Type::string(), false, true, false);
  password.sensitive = true;
  Attribute pins = attribute("pins", Type::list(Type::number()), false, true, false);
  pins.sensitive = true;
  block.attributes = {attribute("name", Type::string(), true, false, false), password, pins,
                      attribute("note", Type::string(), false, true, false)};
  NestedBlock keys;
  keys.type_name = "key";
  keys.nesting = NestingMode::List;
  Attribute secret = attribute("secret", Type::string(), true, false, false);
  secret.sensitive = true;
  keys.block.attributes = {attribute("label", Type::string(), true, false, false), secret};
  block.blocks = {keys};

  const Type key_type = keys.block.implied_type();
  const Value object = Value::object(
      block.implied_type(),
      {{"name", Value::string("db")},
       {"password", Value::string("hunter22")},
       {"pins", Value::list(Type::number(), {Value::number(4417), Value::number(9021)})},
       {"note", Value::string("marked by the CLI").mark_sensitive()},
       {"key", Value::list(key_type,
                           {Value::object(key_type, {{"label", Value::string("a")},
                                                     {"secret", Value::string("k1")}}),
                            Value::object(key_type, {{"label", Value::string("b")},
                                                     {"secret", Value::null(Type::string())}})})}});
  std::vector<std::string> texts = sensitive_texts(block, object);
  std::sort(texts.begin(), texts.end());
  CHECK(texts == std::vector<std::string>{"4417", "9021", "hunter22", "k1", "marked by the CLI"});
  CHECK(sensitive_texts(block, Value::null(block.implied_type())).empty());
  CHECK(sensitive_texts(block, Value::unknown(block.implied_type())).empty());
}

TEST_CASE("redact hides every occurrence of every secret, longest first") {
  CHECK(redact("token abc123 and abc123 again", {"abc123"}) == "token *** and *** again");
  // The longer secret is replaced whole, not left half-shown by its shorter prefix.
  CHECK(redact("key=secret-long", {"secret", "secret-long"}) == "key=***");
  CHECK(redact("nothing here", {"", "absent"}) == "nothing here");
  CHECK(redact("aaaa", {"aaaa"}) == "***");
  CHECK(redact("pin 4417", {"4417"}) == "pin ***");
}

TEST_CASE("a secret of a few characters is hidden only where it stands alone") {
  // Hiding "t" inside every word would leave nothing to read.
  CHECK(redact("Conflicting token \"t\"", {"t"}) == "Conflicting token \"***\"");
  CHECK(redact("storage grows by itself; b", {"b"}) == "storage grows by itself; ***");
  CHECK(redact("port 42, not 420 or x42", {"42"}) == "port ***, not 420 or x42");
  CHECK(redact("key abcd in abcdef", {"abcd"}) == "key *** in ***ef");
}

TEST_CASE("redacted diagnostics keep their severity and path and lose their secrets") {
  Diagnostics diags;
  diags.error("login failed for hunter2", "the server said: bad password hunter2",
              {AttributeName{"password"}});
  diags.warning("nothing secret");
  const Diagnostics hidden = redact(diags, {"hunter2"});
  REQUIRE(hidden.items().size() == 2);
  CHECK(hidden.items()[0].summary == "login failed for ***");
  CHECK(hidden.items()[0].detail == "the server said: bad password ***");
  CHECK(hidden.items()[0].severity == Severity::Error);
  CHECK(path_to_string(hidden.items()[0].path) == "password");
  CHECK(hidden.items()[1].summary == "nothing secret");
}

TEST_CASE("a secret is hidden in the spellings scripts and the host give it") {
  const std::string secret = "p@ss w\"rd/\n";
  // Without its trailing newline, as file() reads it and a script forgets to trim.
  CHECK(redact("password p@ss w\"rd/ refused", {secret}) == "password *** refused");
  // JSON-escaped, with and without an escaped slash.
  CHECK(redact(R"({"password":"p@ss w\"rd/\n"})", {secret}) == R"({"password":"***"})");
  CHECK(redact(R"({"password":"p@ss w\"rd\/"})", {secret}) == R"({"password":"***"})");
  // %q-quoted, as string.format("%q") writes it: the newline is a backslash and a newline.
  CHECK(redact("\"p@ss w\\\"rd/\\\n\"", {secret}) == "\"***\"");
  CHECK(redact("set \"tab\\9ed-secret\"", {"tab\ted-secret"}) == "set \"***\"");
  // URL-encoded, in either case of hex, and as a form value.
  CHECK(redact("?password=p%40ss%20w%22rd%2F", {secret}) == "?password=***");
  CHECK(redact("?password=p%40ss+w%22rd%2f", {secret}) == "?password=***");
  // As a path segment, where Go's url.PathEscape and tf.http.escape keep "$&+,:;=@".
  CHECK(redact("GET /tokens/p@ss%20w%22rd%2F: 404", {secret}) == "GET /tokens/***: 404");
  CHECK(redact("/users/a:b;c=d$e&f+g,h", {"a:b;c=d$e&f+g,h"}) == "/users/***");
  CHECK(redact("/users/a%3Ab", {"a:b"}) == "/users/***");
}

TEST_CASE("a secret is hidden in base64, alone or inside a longer encoded text") {
  // base64("hunter22") and base64 of "user:hunter22" as Basic authentication sends it: the
  // characters only the secret decides are hidden, whatever its offset in the encoded bytes.
  // The last character also holds bits of whatever follows the secret: it stays.
  CHECK(redact("token aHVudGVyMjI=", {"hunter22"}) == "token ***I=");
  for (const char* encoded : {"dXNlcjpodW50ZXIyMg==", "dXNlcjE6aHVudGVyMjI=", "dTpodW50ZXIyMg=="}) {
    const std::string hidden = redact(std::string("Authorization: Basic ") + encoded, {"hunter22"});
    INFO(encoded << " -> " << hidden);
    CHECK(hidden.find("***") != std::string::npos);
    CHECK(hidden.size() < std::string("Authorization: Basic ").size() + std::strlen(encoded));
  }
  // The standard and the URL-safe alphabet.
  CHECK(redact("YWI/fj9+ YWI_fj9-", {"ab?~?~"}) == "*** ***");
  // Too short a secret has no base64 spelling: four characters would hide unrelated text.
  CHECK(redact("aHVudA==", {"hunt"}) == "aHVudA==");
}

TEST_CASE("a write-only value is hidden like a sensitive one") {
  Block block;
  Attribute password = attribute("password", Type::string(), false, true, false);
  password.write_only = true;
  block.attributes = {attribute("name", Type::string(), true, false, false), password};
  const Value object =
      Value::object(block.implied_type(),
                    {{"name", Value::string("db")}, {"password", Value::string("sent-once-4471")}});
  CHECK(sensitive_texts(block, object) == std::vector<std::string>{"sent-once-4471"});
}
