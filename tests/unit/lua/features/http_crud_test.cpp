// tf.http.crud: the four functions it makes, on a client double that records the requests and
// answers as the APIs it is made for do (an object, 201 with only a Location, 204, 404). The
// e2e providers web, people and zone run it against json-server.
#include <doctest/doctest.h>

#include "provider_dir.h"

using namespace luaform;
using namespace luaform::lua::testing;
using engine::Value;

namespace {

// resource_thing.lua: a thing stored by a client double whose answers the test picks through
// the thing's `mode`; `log` says which requests were sent, in order.
const char* kThing = R"(local tf = require("luaform")
local sent = {}
local answers = {
  object = { post = { id = "7", name = "made" } },
  location = { post = false, get = { name = "read back" } },
  empty = { patch = false, get = { name = "read after patch" } },
  gone = { get = 404 },
  versioned = { post = { id = "3", name = "v1" }, patch = { name = "v2" } },
  ["bad headers"] = {},
}
local mode
local client = {}
for _, method in ipairs({ "get", "post", "put", "patch", "delete" }) do
  client[method] = function(_, path, body, opts)
    if method == "get" or method == "delete" then opts = body end
    sent[#sent + 1] = method:upper() .. " " .. path
      .. (opts and opts.headers and " If-Match " .. opts.headers["If-Match"] or "")
    local answer = answers[mode][method]
    if answer == 404 then
      assert(opts and opts.allow and opts.allow[1] == 404, "404 not allowed")
      return nil, { status = 404, headers = {} }
    end
    if answer == false then
      return nil, { status = method == "post" and 201 or 204,
        headers = { location = "/things/a%20b" } }
    end
    return answer or { name = "echo" }, { status = 200, headers = {} }
  end
end
local crud = tf.http.crud {
  path = "/things/",
  update = "patch",
  body = function(d) return { name = d:get("name") } end,
  record = function(d, object) d:set("name", object.name) end,
  headers = function(d, operation)
    if d:get("mode") == "versioned" then
      return { ["If-Match"] = operation }
    elseif d:get("mode") == "bad headers" then
      return "If-Match: 1"
    end
  end,
}
local function run(operation)
  return function(d)
    mode = d:get("mode")
    sent = {}
    crud[operation](d, client)
    d:set("log", table.concat(sent, ", "))
  end
end
return tf.resource {
  schema = {
    mode = tf.string { required = true },
    name = tf.string { optional = true, computed = true },
    log = tf.string { computed = true },
  },
  create = run("create"), read = run("read"), update = run("update"), delete = run("delete"),
}
)";

struct Thing {
  ProviderDir dir;
  std::shared_ptr<engine::ProviderLogic> logic;
  std::optional<Instance> thing;
  Thing() {
    dir.write("resource_thing.lua", kThing);
    logic = dir.load();
    REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
    thing.emplace(*logic, "test_thing");
  }
  // Runs `op` on a thing in `mode` whose stored id is `id` ("" for none).
  engine::ResourceData run(engine::Operation op, const char* mode, const char* id = "") {
    engine::Diagnostics diags;
    auto d = attempt(op, mode, id, diags);
    REQUIRE_MESSAGE(!diags.has_errors(), all_text(diags));
    return d;
  }
  engine::ResourceData attempt(engine::Operation op, const char* mode, const char* id,
                               engine::Diagnostics& diags) {
    Value state = thing->null();
    if (*id != 0) {
      state = thing->object({{"id", Value::string(id)}, {"mode", Value::string(mode)}});
    }
    const Value config = thing->object({{"mode", Value::string(mode)}});
    engine::ResourceData d(thing->schema, state, config, config);
    if (*id != 0) d.set_id(id);
    diags = logic->open_session()->call(op, "test_thing", d);
    return d;
  }
};

}  // namespace

TEST_CASE("tf.http.crud creates at the collection and records the object the API answers") {
  Thing t;
  auto d = t.run(engine::Operation::Create, "object");
  CHECK(d.id() == "7");
  CHECK(d.get("name") == Value::string("made"));
  CHECK(d.get("log") == Value::string("POST /things"));
}

TEST_CASE("tf.http.crud takes the id from a Location header and reads the object back") {
  Thing t;
  auto d = t.run(engine::Operation::Create, "location");
  CHECK(d.id() == "a b");
  CHECK(d.get("name") == Value::string("read back"));
  CHECK(d.get("log") == Value::string("POST /things, GET /things/a%20b"));
}

TEST_CASE("tf.http.crud reads back after an update answered without a body") {
  Thing t;
  auto d = t.run(engine::Operation::Update, "empty", "a/b");
  CHECK(d.get("name") == Value::string("read after patch"));
  CHECK(d.get("log") == Value::string("PATCH /things/a%2Fb, GET /things/a%2Fb"));
}

TEST_CASE("tf.http.crud: an object the API says is gone leaves the state on read") {
  Thing t;
  auto d = t.run(engine::Operation::Read, "gone", "9");
  CHECK(d.id().empty());
  CHECK(d.get("log") == Value::string("GET /things/9"));
  auto deleted = t.run(engine::Operation::Delete, "gone", "9");
  CHECK(deleted.get("log") == Value::string("DELETE /things/9"));
}

TEST_CASE("tf.http.crud sends the headers the script gives for each operation") {
  Thing t;
  CHECK(t.run(engine::Operation::Create, "versioned").get("log") ==
        Value::string("POST /things If-Match create"));
  CHECK(t.run(engine::Operation::Read, "versioned", "3").get("log") ==
        Value::string("GET /things/3 If-Match read"));
  auto updated = t.run(engine::Operation::Update, "versioned", "3");
  CHECK(updated.get("log") == Value::string("PATCH /things/3 If-Match update"));
  CHECK(updated.get("name") == Value::string("v2"));
  CHECK(t.run(engine::Operation::Delete, "versioned", "3").get("log") ==
        Value::string("DELETE /things/3 If-Match delete"));
  // Headers that are no table are the script's mistake, said before anything is sent.
  engine::Diagnostics diags;
  auto d = t.attempt(engine::Operation::Create, "bad headers", "", diags);
  REQUIRE(diags.has_errors());
  CHECK(all_text(diags).find("tf.http.crud: headers(d, \"create\") must return a table of "
                             "headers or nil, not a string") != std::string::npos);
  CHECK(d.id().empty());
}

TEST_CASE("tf.http.crud's option mistakes are load errors at the line that made it") {
  const char* cases[][2] = {
      {R"({ body = b, record = r })", "path must be the collection's path"},
      {R"({ path = "/x", record = r })", "body must be a function(d)"},
      {R"({ path = "/x", body = b, record = r, update = "post" })",
       "update must be \"put\" or \"patch\", not post"},
      {R"({ path = "/x", body = b, record = r, gone = 404 })", "gone must be a list"},
      {R"({ path = "/x", body = b, record = r, paths = 1 })", "unknown option paths"},
      {R"({ path = "/x", body = b, record = r, headers = { ["If-Match"] = "1" } })",
       "headers must be a function(d, operation)"},
  };
  for (const auto& entry : cases) {
    const char* options = entry[0];
    const char* message = entry[1];
    CAPTURE(options);
    ProviderDir dir;
    dir.write("resource_bad.lua", std::string(R"(local tf = require("luaform")
local function b() end
local function r() end
local crud = tf.http.crud )") + options +
                                      R"(
return tf.resource { schema = {}, create = crud.create, read = crud.read, delete = crud.delete }
)");
    const std::string text = all_text(dir.load()->load_diagnostics());
    CHECK_MESSAGE(text.find(std::string("tf.http.crud: ") + message) != std::string::npos, text);
    CHECK_MESSAGE(text.find("resource_bad.lua:4") != std::string::npos, text);
  }
}
