#include "host/lua/core/script_error.h"

#include <doctest/doctest.h>

namespace luaform::lua {
namespace {

const FailedCall kCreate{"example_server: create failed", "resource_server.lua"};

}  // namespace

TEST_CASE("an error's places are taken off its words, the first raise first") {
  const ScriptError once = split_script_error("lib/x.lua:60: Validation failed: name is taken");
  CHECK(once.message == "Validation failed: name is taken");
  CHECK(once.locations == std::vector<std::string>{"lib/x.lua:60"});

  // error(err) in a handler puts its own place before the first one.
  const ScriptError again = split_script_error("resource_server.lua:9: lib/x.lua:60: no");
  CHECK(again.message == "no");
  CHECK(again.locations == std::vector<std::string>{"lib/x.lua:60", "resource_server.lua:9"});

  // The same place twice in a row (a native error passing through an SDK helper) is one place.
  const ScriptError helper =
      split_script_error("resource_object.lua:30: resource_object.lua:30: POST /x: status 500");
  CHECK(helper.message == "POST /x: status 500");
  CHECK(helper.locations == std::vector<std::string>{"resource_object.lua:30"});

  const ScriptError chunk = split_script_error("[string \"body\"]:2: bad");
  CHECK(chunk.message == "bad");
  CHECK(chunk.locations == std::vector<std::string>{"[string \"body\"]:2"});
}

TEST_CASE("words that only look like a place stay words") {
  for (const char* text : {"HTTP 404: not found: /servers/1", "tf.wait_for: timeout: 30: s",
                           "resource_x.lua: plan returned a value that does not fit"}) {
    const ScriptError error = split_script_error(text);
    CHECK_MESSAGE(error.message == text, text);
    CHECK_MESSAGE(error.locations.empty(), text);
  }
}

TEST_CASE("a script's error reads as its words, with what failed and where in the detail") {
  const engine::Diagnostic d =
      script_error_diagnostic("lib/x.lua:60: Validation failed: name is taken", kCreate);
  CHECK(d.severity == engine::Severity::Error);
  CHECK(d.summary == "Validation failed: name is taken");
  CHECK(d.detail == "example_server: create failed at lib/x.lua:60.");

  const engine::Diagnostic again =
      script_error_diagnostic("resource_server.lua:9: lib/x.lua:60: no", kCreate);
  CHECK(again.detail ==
        "example_server: create failed at lib/x.lua:60 (raised again at resource_server.lua:9).");
}

TEST_CASE("a message of several lines keeps its first as the summary and the rest in the detail") {
  const engine::Diagnostic d = script_error_diagnostic(
      "resource_server.lua:3: the API refused\nHTTP 409\nname taken\n", kCreate);
  CHECK(d.summary == "the API refused");
  CHECK(d.detail ==
        "HTTP 409\nname taken\n\nexample_server: create failed at resource_server.lua:3.");
}

TEST_CASE("an error without words or place still says what failed and in which script") {
  const engine::Diagnostic empty = script_error_diagnostic("resource_server.lua:3: ", kCreate);
  CHECK(empty.summary == "example_server: create failed");
  CHECK(empty.detail == "example_server: create failed at resource_server.lua:3.");

  const FailedCall compare{"Comparing values of \"tags\" failed", "resource_server.lua",
                           "the values count as different"};
  const engine::Diagnostic placeless = script_error_diagnostic("custom error object", compare);
  CHECK(placeless.summary == "custom error object");
  CHECK(placeless.detail ==
        "Comparing values of \"tags\" failed in resource_server.lua; the values count as "
        "different.");
}

TEST_CASE("a diagnostic the script made keeps its words and gains the place") {
  engine::Diagnostic made;
  made.summary = "Name already taken";
  made.detail = "pick another name";
  made.path = {engine::AttributeName{"name"}};
  const engine::Diagnostic d =
      with_place(made, "resource_server.lua:11: pick another name", kCreate);
  CHECK(d.summary == "Name already taken");
  CHECK(d.detail ==
        "pick another name\n\nexample_server: create failed at resource_server.lua:11.");
  CHECK(d.path == made.path);

  engine::Diagnostic message_only;
  message_only.detail = "the API said no";
  const engine::Diagnostic plain =
      with_place(message_only, "resource_server.lua:13: the API said no", kCreate);
  CHECK(plain.summary == "the API said no");
  CHECK(plain.detail == "example_server: create failed at resource_server.lua:13.");
}

TEST_CASE("a function's single error text puts the place after the words") {
  CHECK(one_line("function_parse.lua:4: not an ARN", "function_parse.lua") ==
        "not an ARN (at function_parse.lua:4)");
  CHECK(one_line("no place here", "function_parse.lua") == "no place here (in function_parse.lua)");
  CHECK(one_line("function_parse.lua: run returned a string", "function_parse.lua") ==
        "function_parse.lua: run returned a string");
}

}  // namespace luaform::lua
