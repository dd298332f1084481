// The `d` object: what each method returns and how it fails, seen from a script.
#include "host/lua/provider/resource_data_object.h"

#include <doctest/doctest.h>

#include <chrono>

#include "provider_dir.h"

using namespace luaform;
using namespace luaform::lua::testing;
using engine::Operation;
using engine::Type;
using engine::Value;

namespace {

// resource "test_thing": one attribute of each kind; `create` runs the body given by the test,
// which records what it saw with d:set on the computed `seen` attribute.
const char* kThing = R"(local tf = require("luaform")
local body = require("body")
return tf.resource {
  schema = {
    name = tf.string { optional = true },
    size = tf.number { optional = true },
    ratio = tf.number { optional = true },
    on = tf.bool { optional = true },
    tags = tf.map(tf.string) { optional = true },
    lines = tf.list(tf.string) { optional = true },
    groups = tf.set(tf.number) { optional = true },
    seen = tf.string { computed = true },
  },
  create = body,
  read = body,
  update = body,
  delete = body,
}
)";

struct Thing {
  ProviderDir dir;
  std::shared_ptr<engine::ProviderLogic> logic;
  std::unique_ptr<Instance> instance;

  explicit Thing(const std::string& body) {
    dir.write("resource_thing.lua", kThing);
    dir.write("body.lua", body);
    logic = dir.load();
    REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
    instance = std::make_unique<Instance>(*logic, "test_thing");
  }

  engine::Diagnostics run(Operation op, engine::ResourceData& d) {
    return logic->open_session()->call(op, "test_thing", d);
  }
};

std::string seen(const engine::ResourceData& d) {
  return d.get("seen").is_null() ? "<null>" : d.get("seen").as_string();
}

}  // namespace

TEST_CASE("get of an unset attribute is the zero value of its type") {
  Thing t(R"(return function(d)
  local parts = {}
  for _, k in ipairs({ "name", "size", "on", "tags", "lines", "groups" }) do
    local v = d:get(k)
    parts[#parts + 1] = type(v) == "table" and ("table" .. #v .. tostring(next(v))) or tostring(v)
  end
  parts[#parts + 1] = math.type(d:get("size"))
  d:set("seen", table.concat(parts, ","))
  d:set_id("1")
end)");
  engine::ResourceData d(t.instance->schema, t.instance->null(), t.instance->null(),
                         t.instance->null());
  REQUIRE_FALSE(t.run(Operation::Create, d).has_errors());
  CHECK(seen(d) == ",0,false,table0nil,table0nil,table0nil,integer");
}

TEST_CASE("get converts values: integers stay integers, collections become tables") {
  Thing t(R"(return function(d)
  local tags, lines, groups = d:get("tags"), d:get("lines"), d:get("groups")
  d:set("seen", string.format("%s|%s %s|%s %s|%s,%s|%s|%d:%s,%s|%s", d:get("name"),
    math.type(d:get("size")), d:get("size"), math.type(d:get("ratio")), d:get("ratio"),
    tags.env, tags.team, tostring(d:get("on")), #lines, lines[1], lines[2],
    table.concat(groups, ",")))
  d:set_id("1")
end)");
  const Instance& i = *t.instance;
  Value config = i.object({
      {"name", Value::string("web")},
      {"size", Value::number(3)},
      {"ratio", Value::number(*engine::Number::parse("0.25"))},
      {"on", Value::boolean(true)},
      {"tags", Value::map(Type::string(),
                          {{"env", Value::string("prod")}, {"team", Value::string("core")}})},
      {"lines", Value::list(Type::string(), {Value::string("a"), Value::string("b")})},
      {"groups", Value::set(Type::number(), {Value::number(7), Value::number(5)})},
  });
  engine::ResourceData d(i.schema, i.null(), config, config);
  REQUIRE_FALSE(t.run(Operation::Create, d).has_errors());
  CHECK(seen(d) == "web|integer 3|float 0.25|prod,core|true|2:a,b|5,7");
}

TEST_CASE("get_ok is false for unset and zero values, true otherwise") {
  Thing t(R"(return function(d)
  local out = {}
  for _, k in ipairs({ "name", "size", "on", "lines", "tags" }) do
    local v, ok = d:get_ok(k)
    out[#out + 1] = k .. "=" .. tostring(ok) .. ":" .. (type(v) == "table" and #v or tostring(v))
  end
  d:set("seen", table.concat(out, " "))
  d:set_id("1")
end)");
  const Instance& i = *t.instance;
  Value config = i.object({
      {"name", Value::string("")},
      {"size", Value::number(4)},
      {"on", Value::boolean(false)},
      {"lines", Value::list(Type::string(), {Value::string("x")})},
  });
  engine::ResourceData d(i.schema, i.null(), config, config);
  REQUIRE_FALSE(t.run(Operation::Create, d).has_errors());
  CHECK(seen(d) == "name=false: size=true:4 on=false:false lines=true:1 tags=false:0");
}

TEST_CASE("is_null tells an unset value from a zero value that was set") {
  Thing t(R"(return function(d)
  local out = {}
  for _, k in ipairs({ "name", "size", "on", "lines", "tags" }) do
    out[#out + 1] = k .. "=" .. tostring(d:is_null(k))
  end
  d:set("seen", table.concat(out, " "))
  d:set_id("1")
end)");
  const Instance& i = *t.instance;
  Value config = i.object({
      {"name", Value::string("")},
      {"on", Value::boolean(false)},
      {"lines", Value::list(Type::string(), {})},
  });
  engine::ResourceData d(i.schema, i.null(), config, config);
  REQUIRE_FALSE(t.run(Operation::Create, d).has_errors());
  CHECK(seen(d) == "name=false size=true on=false lines=false tags=true");
}

TEST_CASE("set converts Lua values to the attribute's type") {
  Thing t(R"(return function(d)
  d:set("name", 42)
  d:set("size", "12")
  d:set("ratio", 1.5)
  d:set("on", true)
  d:set("tags", { env = "dev", n = 1 })
  d:set("lines", { "x", "y" })
  d:set("groups", { 3, 1, 3 })
  d:set_id(7)
end)");
  const Instance& i = *t.instance;
  engine::ResourceData d(i.schema, i.null(), i.null(), i.null());
  auto diags = t.run(Operation::Create, d);
  REQUIRE_MESSAGE(!diags.has_errors(), all_text(diags));
  CHECK(d.id() == "7");
  CHECK(d.get("name") == Value::string("42"));
  CHECK(d.get("size") == Value::number(12));
  CHECK(d.get("ratio") == Value::number(*engine::Number::parse("1.5")));
  CHECK(d.get("on") == Value::boolean(true));
  CHECK(d.get("tags") ==
        Value::map(Type::string(), {{"env", Value::string("dev")}, {"n", Value::string("1")}}));
  CHECK(d.get("lines") == Value::list(Type::string(), {Value::string("x"), Value::string("y")}));
  CHECK(d.get("groups") == Value::set(Type::number(), {Value::number(1), Value::number(3)}));
}

TEST_CASE("set of nil records a null") {
  Thing t("return function(d) d:set('name', nil) d:set_id('1') end");
  const Instance& i = *t.instance;
  Value config = i.object({{"name", Value::string("web")}});
  engine::ResourceData d(i.schema, i.null(), config, config);
  REQUIRE_FALSE(t.run(Operation::Create, d).has_errors());
  CHECK(d.get("name").is_null());
}

TEST_CASE("set with a value of the wrong type is an error naming the attribute and the line") {
  std::string body;
  std::string message;
  SUBCASE("a table for a string") {
    body = "return function(d)\n  d:set('name', {})\nend";
    message = "body.lua:2: attribute \"name\": expected string, got table";
  }
  SUBCASE("a word for a number") {
    body = "return function(d)\n  d:set('size', 'big')\nend";
    message = "body.lua:2: attribute \"size\": expected number, got string \"big\"";
  }
  SUBCASE("a wrong element inside a list") {
    body = "return function(d)\n  d:set('lines', { 'a', {} })\nend";
    message = "body.lua:2: attribute \"lines[2]\": expected string, got table";
  }
  SUBCASE("a map for a list") {
    body = "return function(d)\n  d:set('lines', { a = 'x' })\nend";
    message =
        "body.lua:2: attribute \"lines\": expected list of string, got a table with key "
        "\"a\" (a list is an array table)";
  }
  SUBCASE("an attribute the schema does not have") {
    body = "return function(d)\n  d:set('nope', 1)\nend";
    message = "body.lua:2: d:set: the schema has no attribute \"nope\"";
  }
  SUBCASE("the id, which has its own setter") {
    body = "return function(d)\n  d:set('id', 'x')\nend";
    message = "body.lua:2: d:set: Attribute \"id\" is set with set_id";
  }
  Thing t(body);
  const Instance& i = *t.instance;
  engine::ResourceData d(i.schema, i.null(), i.null(), i.null());
  auto diags = t.run(Operation::Create, d);
  REQUIRE(diags.items().size() == 1);
  // The script's line is in the detail; the summary is the message alone.
  const std::string where = "body.lua:2: ";
  REQUIRE(message.starts_with(where));
  CHECK(diags.items()[0].summary.starts_with(message.substr(where.size())));
  CHECK(diags.items()[0].detail == "test_thing: create failed at body.lua:2.");
}

TEST_CASE("get of an attribute the schema does not have is an error") {
  Thing t("return function(d)\n  return d:get('nope')\nend");
  const Instance& i = *t.instance;
  engine::ResourceData d(i.schema, i.null(), i.null(), i.null());
  auto diags = t.run(Operation::Create, d);
  REQUIRE(diags.has_errors());
  CHECK(as_raised(diags.items()[0]) == "body.lua:2: d:get: the schema has no attribute \"nope\"");
}

TEST_CASE("id, has_change, get_change and is_new_resource describe the change being applied") {
  Thing t(R"(return function(d)
  local old, new = d:get_change("name")
  d:set("seen", string.format("%s %s %s %s->%s %s", d:id(), tostring(d:is_new_resource()),
    tostring(d:has_change("name")), old, new, tostring(d:has_change("size"))))
end)");
  const Instance& i = *t.instance;
  Value state = i.object(
      {{"id", Value::string("abc")}, {"name", Value::string("old")}, {"size", Value::number(1)}});
  Value planned = state.with_attribute("name", Value::string("new"));
  engine::ResourceData d(i.schema, state, planned, planned);
  REQUIRE_FALSE(t.run(Operation::Update, d).has_errors());
  CHECK(seen(d) == "abc false true old->new false");

  engine::ResourceData fresh(i.schema, i.null(), planned, planned);
  REQUIRE_FALSE(t.run(Operation::Create, fresh).has_errors());
  CHECK(seen(fresh) == "abc true true ->new true");
}

TEST_CASE("set_id with nil is an error; set_id(\"\") marks the object gone") {
  Thing t(
      "return function(d)\n  if d:get('name') == 'gone' then d:set_id('') else d:set_id(nil) "
      "end\nend");
  const Instance& i = *t.instance;
  Value state = i.object({{"id", Value::string("abc")}, {"name", Value::string("gone")}});
  engine::ResourceData gone(i.schema, state, state, state);
  REQUIRE_FALSE(t.run(Operation::Read, gone).has_errors());
  CHECK(gone.id().empty());
  CHECK(gone.result().is_null());

  Value other = state.with_attribute("name", Value::string("x"));
  engine::ResourceData d(i.schema, other, other, other);
  auto diags = t.run(Operation::Read, d);
  REQUIRE(diags.has_errors());
  CHECK(as_raised(diags.items()[0]).find("body.lua:2: d:set_id expects a string, got nil") == 0);
}

TEST_CASE("a d kept after its call returns raises an error instead of touching freed memory") {
  Thing t(R"(local kept
return function(d)
  if kept then
    return kept:get("name")
  end
  kept = d
  d:set_id("1")
end)");
  const Instance& i = *t.instance;
  {
    engine::ResourceData first(i.schema, i.null(), i.null(), i.null());
    REQUIRE_FALSE(t.run(Operation::Create, first).has_errors());
  }
  engine::ResourceData second(i.schema, i.null(), i.null(), i.null());
  auto diags = t.run(Operation::Create, second);
  REQUIRE(diags.has_errors());
  CHECK(as_raised(diags.items()[0]) ==
        "body.lua:4: d is no longer usable: the call it was passed to has returned");
}

TEST_CASE("methods called with a dot instead of a colon are an error, not a crash") {
  Thing t("return function(d)\n  d.get('name')\nend");
  const Instance& i = *t.instance;
  engine::ResourceData d(i.schema, i.null(), i.null(), i.null());
  auto diags = t.run(Operation::Create, d);
  REQUIRE(diags.has_errors());
  CHECK(as_raised(diags.items()[0]).find("body.lua:2: bad argument #1 to 'get'") == 0);
}

TEST_CASE("get takes dotted addresses into maps and lists, counting list elements from 0") {
  Thing t(R"(return function(d)
  d:set("seen", d:get("tags.env") .. " " .. d:get("lines.1") .. " [" .. d:get("lines.5") .. "]")
  d:set_id("1")
end)");
  const Instance& i = *t.instance;
  Value config = i.object({
      {"tags", Value::map(Type::string(), {{"env", Value::string("prod")}})},
      {"lines", Value::list(Type::string(), {Value::string("a"), Value::string("b")})},
  });
  engine::ResourceData d(i.schema, i.null(), config, config);
  auto diags = t.run(Operation::Create, d);
  REQUIRE_MESSAGE(!diags.has_errors(), all_text(diags));
  CHECK(seen(d) == "prod b []");
}

TEST_CASE("blocks read as tables: lists of objects, an unset single block as nil") {
  ProviderDir dir;
  dir.write("resource_vm.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = {
    disk = tf.list_block { schema = { size = tf.number { required = true },
                                      serial = tf.string { computed = true } } },
    boot = tf.single_block { schema = { image = tf.string { required = true } } },
    seen = tf.string { computed = true },
  },
  create = function(d)
    local disks = d:get("disk")
    for i, disk in ipairs(disks) do disk.serial = "s" .. i end
    d:set("disk", disks)
    d:set("seen", string.format("%d,%d,%s,%s", #disks, d:get("disk.1.size"),
                                tostring(d:get("boot")), tostring(d:get("disk.5"))))
    d:set_id("vm")
  end,
  read = function() end, delete = function() end,
}
)");
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  Instance vm(*logic, "test_vm");
  const Type disk_type = vm.schema.block.find_block("disk")->block.implied_type();
  auto disk = [&](int64_t size) {
    return Value::object(disk_type, {{"size", Value::number(size)}});
  };
  Value config = vm.object({{"disk", Value::list(disk_type, {disk(10), disk(20)})}});
  engine::ResourceData d(vm.schema, vm.null(), config, config);
  engine::Diagnostics diags = logic->open_session()->call(Operation::Create, "test_vm", d);
  REQUIRE_MESSAGE(!diags.has_errors(), all_text(diags));
  CHECK(d.get("seen") == Value::string("2,20,nil,nil"));
  CHECK(d.get("disk.0.serial") == Value::string("s1"));
  CHECK(d.get("disk.1.serial") == Value::string("s2"));
  CHECK(d.result().get_attribute("boot").is_null());
}

TEST_CASE("has_changes is true when any of the named attributes changes") {
  Thing t(R"(return function(d)
  d:set("seen", string.format("%s,%s", tostring(d:has_changes("name", "size")),
                              tostring(d:has_changes("size", "on"))))
end)");
  Value prior = t.instance->object({{"id", Value::string("1")}, {"name", Value::string("a")}});
  Value planned = t.instance->object({{"id", Value::string("1")}, {"name", Value::string("b")}});
  engine::ResourceData d(t.instance->schema, prior, planned, planned);
  REQUIRE_FALSE(t.run(Operation::Update, d).has_errors());
  CHECK(seen(d) == "true,false");
}

TEST_CASE("d:partial and d:set_partial limit what a failed update saves") {
  Thing t(R"(return function(d)
  d:partial(true)
  d:set("seen", "name done")
  d:set_partial("name")
  error("size could not be changed")
end)");
  Value prior = t.instance->object(
      {{"id", Value::string("1")}, {"name", Value::string("a")}, {"size", Value::number(1)}});
  Value planned = t.instance->object(
      {{"id", Value::string("1")}, {"name", Value::string("b")}, {"size", Value::number(2)}});
  engine::ResourceData d(t.instance->schema, prior, planned, planned);
  REQUIRE(t.run(Operation::Update, d).has_errors());
  const Value saved = d.result_after_failure();
  CHECK(saved.get_attribute("name") == Value::string("b"));
  CHECK(saved.get_attribute("size") == Value::number(1));
  CHECK(saved.get_attribute("seen").is_null());  // set, but not marked as done
}

TEST_CASE("d:set_partial takes top-level names only, and d:partial a boolean") {
  const char* cases[][2] = {
      {"d:set_partial('tags.env')", "d:set_partial: \"tags.env\" is not a top-level"},
      {"d:set_partial('nope')", "d:set_partial: the schema has no attribute \"nope\""},
      {"d:partial('yes')", "bad argument #1 to 'partial' (boolean expected, got string)"},
  };
  for (const auto& [call, expected] : cases) {
    Thing t(std::string("return function(d)\n  ") + call + "\nend");
    engine::ResourceData d(t.instance->schema, t.instance->null(), t.instance->null(),
                           t.instance->null());
    const std::string text = as_raised(t.run(Operation::Create, d).items().at(0));
    CHECK_MESSAGE(text.find(std::string("body.lua:2: ") + expected) != std::string::npos, text);
  }
}

TEST_CASE("d:timeout gives the operation's timeout in seconds; timeouts are read at load") {
  ProviderDir dir;
  dir.write("resource_job.lua", R"(local tf = require("luaform")
return tf.resource {
  timeouts = { create = "1m30s", default = "5m" },
  schema = { seen = tf.string { computed = true } },
  create = function(d)
    d:set("seen", string.format("%g,%g", d:timeout("create"), d:timeout("delete")))
    d:set_id("job")
  end,
  read = function() end, delete = function() end,
}
)");
  dir.write("resource_bad.lua", R"(local tf = require("luaform")
return tf.resource {
  timeouts = { create = "soon" },
  schema = {}, create = function() end, read = function() end, delete = function() end,
}
)");
  auto logic = dir.load();
  CHECK(all_text(logic->load_diagnostics()).find("timeouts.create = \"soon\" is not a duration") !=
        std::string::npos);
  Instance job(*logic, "test_job");
  REQUIRE(job.schema.block.find_block("timeouts") != nullptr);
  engine::ResourceData d(job.schema, job.null(), job.object({}), job.object({}));
  engine::Diagnostics diags = logic->open_session()->call(Operation::Create, "test_job", d);
  REQUIRE_MESSAGE(!diags.has_errors(), all_text(diags));
  CHECK(d.get("seen") == Value::string("90,300"));
}

TEST_CASE("the plan-time methods of d are refused outside customize_diff") {
  Thing t(R"(return function(d) d:force_new("name") end)");
  engine::ResourceData d(t.instance->schema, t.instance->null(), t.instance->null(),
                         t.instance->null());
  const std::string text = all_text(t.run(Operation::Create, d));
  CHECK_MESSAGE(text.find("d:force_new is for customize_diff only") != std::string::npos, text);
}

TEST_CASE("private data keeps JSON values by key, apart from the attributes") {
  Thing t(R"(return function(d)
  d:set_private("etag", "v7")
  d:set_private("sizes", { 1, 2 })
  d:set_private("gone", nil)
  d:set("seen", d:private("etag") .. " " .. d:private("sizes")[2] .. " " .. tostring(d:private("kept"))
    .. " " .. tostring(d:private("nothing")))
  d:set_id("1")
end)");
  const Instance& i = *t.instance;
  engine::ResourceData d(i.schema, i.null(), i.null(), i.null());
  d.set_private_data(R"({"kept":true,"gone":1})");
  REQUIRE_FALSE(t.run(Operation::Create, d).has_errors());
  CHECK(seen(d) == "v7 2 true nil");
  CHECK(d.private_data() == R"({"etag":"v7","kept":true,"sizes":[1,2]})");
}

TEST_CASE("private data another program wrote is refused rather than overwritten") {
  Thing t("return function(d)\n  d:set_private('etag', 'v1')\nend");
  const Instance& i = *t.instance;
  engine::ResourceData d(i.schema, i.null(), i.null(), i.null());
  d.set_private_data("\x01\x02 not json");
  auto diags = t.run(Operation::Create, d);
  REQUIRE(diags.has_errors());
  CHECK(as_raised(diags.items()[0])
            .find("body.lua:2: d:set_private: the private data is not a JSON object") == 0);
  CHECK(d.private_data() == "\x01\x02 not json");
}

TEST_CASE("renew_in is for an ephemeral resource's open and renew only") {
  Thing t("return function(d)\n  d:renew_in(10)\nend");
  const Instance& i = *t.instance;
  engine::ResourceData d(i.schema, i.null(), i.null(), i.null());
  auto diags = t.run(Operation::Create, d);
  REQUIRE(diags.has_errors());
  CHECK(as_raised(diags.items()[0]).find("body.lua:2: d:renew_in is for an ephemeral") == 0);

  d.allow_renewal();
  const auto before = std::chrono::system_clock::now();
  REQUIRE_FALSE(t.run(Operation::Create, d).has_errors());
  REQUIRE(d.renew_at().has_value());
  CHECK(*d.renew_at() >= before + std::chrono::seconds(9));
}
