// Loading scripts: every problem is a load diagnostic naming the script, and its detail carries
// "file:line: message" wherever Lua knows the line.
#include "host/lua/provider/script_state.h"

#include <doctest/doctest.h>

#include "host/engine/rpc/provider_service.h"

#include "provider_dir.h"

using namespace luaform;
using namespace luaform::lua::testing;

namespace {

const char* kGoodResource = R"(
local tf = require("luaform")
return tf.resource {
  schema = { name = tf.string { required = true } },
  create = function(d) d:set_id("x") end, read = function() end, delete = function() end,
}
)";

// The one diagnostic about a script that did not load, which must exist: a warning for a
// resource or data source's (it is left out, the rest serves), an error for provider.lua's.
engine::Diagnostic only_error(const engine::ProviderLogic& logic) {
  const auto& items = logic.load_diagnostics().items();
  REQUIRE_MESSAGE(items.size() == 1, all_text(logic.load_diagnostics()));
  const bool provider = items[0].summary.find("provider.lua") != std::string::npos;
  CHECK(items[0].severity == (provider ? engine::Severity::Error : engine::Severity::Warning));
  if (!provider) CHECK(items[0].summary.find(" is left out") != std::string::npos);
  return items[0];
}

}  // namespace

TEST_CASE("a syntax error names the script in the summary and file:line in the detail") {
  ProviderDir dir;
  dir.write("resource_good.lua", kGoodResource);
  dir.write("resource_bad.lua",
            "local tf = require('luaform')\n\nreturn tf.resource {\n  schema = ,\n}\n");
  auto logic = dir.load();
  auto d = only_error(*logic);
  CHECK(d.summary.find("resource_bad.lua") != std::string::npos);
  CHECK(d.detail.find("resource_bad.lua:4:") == 0);
  SUBCASE("and the other scripts still load; the broken type stands in with no attributes") {
    CHECK(logic->schema().resources.count("test_good") == 1);
    REQUIRE(logic->schema().resources.count("test_bad") == 1);
    CHECK(logic->schema().resources.at("test_bad").block.attributes.empty());
    CHECK(logic->schema().left_out.at("test_bad").find("resource_bad.lua:4:") == 0);
    // The CLI gets the schema without errors; validating a configuration of the broken type
    // says why it cannot be used.
    engine::ProviderService service(logic);
    CHECK_FALSE(service.get_provider_schema().diagnostics.has_errors());
    engine::ValidateRequest req;
    req.type_name = "test_bad";
    const auto diags = service.validate_resource_config(req);
    REQUIRE(diags.has_errors());
    CHECK(diags.items()[0].summary == "Cannot use test_bad: its script does not load");
    CHECK(diags.items()[0].detail.find("resource_bad.lua:4:") == 0);
  }
}

TEST_CASE("a runtime error while loading points at the script line") {
  ProviderDir dir;
  dir.write("data_source_boom.lua", "local x = nil\nlocal y = x.field\nreturn y\n");
  auto d = only_error(*dir.load());
  CHECK(d.detail.find("data_source_boom.lua:2: attempt to index") == 0);
}

TEST_CASE("a misspelt option is reported at the line of the attribute") {
  ProviderDir dir;
  dir.write("resource_typo.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = {
    name = tf.string { requried = true },
  },
  create = function() end, read = function() end, delete = function() end,
}
)");
  auto d = only_error(*dir.load());
  CHECK(d.detail.find("resource_typo.lua:4: tf.string: unknown option \"requried\"") == 0);
}

TEST_CASE("an attribute that is none of required, optional or computed is a load error") {
  ProviderDir dir;
  dir.write("resource_flags.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = { name = tf.string { description = "no flags" } },
  create = function() end, read = function() end, delete = function() end,
}
)");
  auto d = only_error(*dir.load());
  CHECK(d.detail.find("resource_flags.lua:3:") == 0);
  CHECK(d.detail.find("set one of required, optional or computed") != std::string::npos);
}

TEST_CASE("declaring id is a load error") {
  ProviderDir dir;
  dir.write("resource_id.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = { id = tf.string { computed = true } },
  create = function() end, read = function() end, delete = function() end,
}
)");
  auto d = only_error(*dir.load());
  // `return tf.resource {...}` is a tail call: Lua no longer knows the line, only the file.
  CHECK(d.detail.find("resource_id.lua: tf.resource: attribute \"id\" is reserved") == 0);
}

TEST_CASE("a resource without a required function is a load error") {
  ProviderDir dir;
  dir.write("resource_nodelete.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = {},
  create = function() end, read = function() end,
}
)");
  auto d = only_error(*dir.load());
  CHECK(d.detail.starts_with(
      "resource_nodelete.lua: tf.resource: a delete function is required\n\nThe provider's other "
      "types work."));
}

TEST_CASE("a default of the wrong type is a load error") {
  ProviderDir dir;
  dir.write("resource_default.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = { size = tf.number { optional = true, default = "big" } },
  create = function() end, read = function() end, delete = function() end,
}
)");
  auto d = only_error(*dir.load());
  CHECK(d.detail.find("resource_default.lua:3: tf.number: default must be a number") == 0);
}

TEST_CASE("a script that returns the wrong thing is a load error saying what it returned") {
  ProviderDir dir;
  SUBCASE("nothing") {
    dir.write("resource_empty.lua", "-- nothing here\n");
  }
  SUBCASE("a data source from a resource script") {
    dir.write("resource_empty.lua",
              "local tf = require('luaform')\nreturn tf.data_source { read = function() end }\n");
  }
  auto d = only_error(*dir.load());
  CHECK(d.summary.find("resource_empty.lua") != std::string::npos);
  CHECK(d.detail.find("resource_empty.lua: the script must return tf.resource { ... }") == 0);
}

TEST_CASE("a hand-built table is checked by the host as well as by the SDK") {
  ProviderDir dir;
  dir.write("resource_raw.lua", R"(
return { kind = "resource", schema = { name = { kind = "attribute", type = { name = "string" } } },
         create = function() end, read = function() end, delete = function() end }
)");
  auto d = only_error(*dir.load());
  CHECK(d.detail.starts_with(
      "resource_raw.lua: attribute \"name\": set one of required, optional or computed\n"));
}

TEST_CASE("the schema's behaviour flags follow the functions a resource declares") {
  ProviderDir dir;
  dir.write("resource_full.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = {},
  create = function() end, read = function() end, update = function() end,
  delete = function() end, import = tf.import_by_id,
  customize_diff = function() end, move_state = function() end,
  plan_destroy = function() end,
}
)");
  dir.write("resource_plain.lua", kGoodResource);
  auto logic = dir.load();
  CHECK(logic->schema().resources.at("test_full").has_update);
  CHECK(logic->schema().resources.at("test_full").importable);
  CHECK_FALSE(logic->schema().resources.at("test_plain").has_update);
  CHECK_FALSE(logic->schema().resources.at("test_plain").importable);
  for (const auto& [name, declares] : {std::pair{"test_full", true}, {"test_plain", false}}) {
    const auto& resource = logic->schema().resources.at(name);
    CHECK(resource.customizes_diff == declares);
    CHECK(resource.moves_state == declares);
    CHECK(resource.checks_destroy == declares);
  }
  // The engine's refusal names what to write in the SDK's own words.
  engine::ProviderService service(logic);
  engine::ImportRequest req;
  req.type_name = "test_plain";
  req.id = "x";
  const auto refused = service.import_resource_state(req).diagnostics;
  REQUIRE(refused.items().size() == 1);
  CHECK(refused.items()[0].detail ==
        "Its script declares no import function (for example import = tf.import_by_id).");
}

TEST_CASE("an import function runs with the import id; import = tf.import_by_id does nothing") {
  ProviderDir dir;
  dir.write("resource_custom.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = { zone = tf.string { optional = true } },
  create = function() end, read = function() end, delete = function() end,
  import = function(d)
    local zone, name = d:id():match("^(.-)/(.*)$")
    d:set("zone", zone)
    d:set_id(name)
  end,
}
)");
  dir.write("resource_byid.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = {}, create = function() end, read = function() end, delete = function() end,
  import = tf.import_by_id,
}
)");
  dir.write("resource_bad.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = {}, create = function() end, read = function() end, delete = function() end,
  import = "by id",
}
)");
  auto logic = dir.load();
  CHECK(logic->schema().resources.at("test_custom").importable);
  Instance custom(*logic, "test_custom");
  engine::ResourceData d(custom.schema, custom.null(), custom.null(), custom.null());
  d.set_id("eu/www");
  REQUIRE_FALSE(
      logic->open_session()->call(engine::Operation::Import, "test_custom", d).has_errors());
  CHECK(d.id() == "www");
  CHECK(d.get("zone") == engine::Value::string("eu"));
  Instance byid(*logic, "test_byid");
  engine::ResourceData plain(byid.schema, byid.null(), byid.null(), byid.null());
  plain.set_id("x");
  CHECK_FALSE(
      logic->open_session()->call(engine::Operation::Import, "test_byid", plain).has_errors());
  CHECK(plain.id() == "x");
  CHECK(all_text(logic->load_diagnostics())
            .find("import must be tf.import_by_id or a function(d, client)") != std::string::npos);
}

TEST_CASE("validate functions run on values by path; messages become errors at the attribute") {
  ProviderDir dir;
  dir.write("resource_db.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = {
    port = tf.number { optional = true, validate = tf.v.between(1, 65535) },
    engine = tf.string { optional = true, validate = { tf.v.not_empty(), tf.v.one_of { "pg", "mysql" } } },
    replica = tf.list_block { schema = {
      zone = tf.string { required = true, validate = function(v, path)
        if v:sub(1, 3) ~= "eu-" then return path .. " must be a zone in Europe" end
      end },
    } },
    name = tf.string { optional = true, validate = function(v) return v.missing.field end },
    hosts = tf.list(tf.string) { optional = true, validate = tf.v.each(tf.v.not_empty()) },
    labels = tf.map(tf.string) { optional = true, validate = tf.v.each(tf.v.not_empty()) },
  },
  create = function() end, read = function() end, delete = function() end,
}
)");
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  const auto owner = engine::SchemaOwner::Resource;
  auto validate = [&](engine::AttributePath path, engine::Value v) {
    const engine::Value none;
    return all_text(
        logic->open_session()->validate_value(owner, "test_db", path, v, {none, none, none}));
  };
  using engine::AttributeName;
  using engine::Value;
  CHECK(validate({AttributeName{"port"}}, Value::number(5432)).empty());
  CHECK(validate({AttributeName{"port"}}, Value::number(70000)) ==
        "expected port to be between 1 and 65535, got 70000 | \n");
  CHECK(validate({AttributeName{"engine"}}, Value::string(""))
            .find("expected engine not to be empty") != std::string::npos);
  CHECK(validate({AttributeName{"engine"}}, Value::string("oracle")) ==
        "expected engine to be one of \"pg\", \"mysql\", got \"oracle\" | \n");
  CHECK(validate({AttributeName{"replica"}, engine::ElementIndex{1}, AttributeName{"zone"}},
                 Value::string("us-east-1")) == "replica.1.zone must be a zone in Europe | \n");
  // tf.v.each names the element by its address too.
  CHECK(validate({AttributeName{"hosts"}},
                 Value::list(engine::Type::string(), {Value::string("a"), Value::string("")})) ==
        "expected hosts.1 not to be empty | \n");
  CHECK(validate({AttributeName{"labels"}},
                 Value::map(engine::Type::string(), {{"env", Value::string("")}})) ==
        "expected labels.env not to be empty | \n");
  const std::string failed = validate({AttributeName{"name"}}, Value::string("x"));
  CHECK_MESSAGE(failed.starts_with("attempt to index"), failed);
  CHECK_MESSAGE(
      failed.find("Validation of \"name\" failed at resource_db.lua:11.") != std::string::npos,
      failed);
}

TEST_CASE("every attribute hook gets the request p: its address, object and resource") {
  ProviderDir dir;
  dir.write("resource_req.lua", R"(local tf = require("luaform")
local function seen(p)
  return string.format("%s in %s of %s: config=%s state=%s planned=%s", p.path,
    tostring(p.object.zone), tostring(p.resource.name), tostring(p.config), tostring(p.state),
    tostring(p.planned))
end
return tf.resource {
  schema = {
    name = tf.string { optional = true },
    replica = tf.list_block { schema = {
      zone = tf.string { optional = true },
      size = tf.number { optional = true, validate = function(_, path, p)
        return path .. " | " .. seen(p)
      end },
      label = tf.string { optional = true, diff_suppress = function(_, old, new, p)
        return p.resource.name == "lenient" and old:lower() == new:lower()
      end },
      tags = tf.set(tf.string) { optional = true, element_state_func = function(tag, p)
        return p.path .. "=" .. tag:lower()
      end },
    } },
  },
  create = function() end, read = function() end, delete = function() end,
}
)");
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  Instance req(*logic, "test_req");
  using engine::AttributeName;
  using engine::ElementIndex;
  using engine::Value;
  const engine::Type replica = req.schema.block.find_block("replica")->block.implied_type();
  const auto resource = [&](const char* name) {
    return req.object(
        {{"name", Value::string(name)},
         {"replica",
          Value::list(replica, {Value::object(replica, {{"zone", Value::string("a")}}),
                                Value::object(replica, {{"zone", Value::string("b")},
                                                        {"size", Value::number(3)}})})}});
  };
  const Value none;
  const Value config = resource("db");
  const engine::AttributePath size{AttributeName{"replica"}, ElementIndex{1},
                                   AttributeName{"size"}};
  // A validator: the configuration is the resource; the path is the address.
  CHECK(all_text(logic->open_session()->validate_value(engine::SchemaOwner::Resource, "test_req",
                                                       size, Value::number(3),
                                                       {config, config, none})) ==
        "replica.1.size | replica.1.size in b of db: config=3 state=nil planned=nil | \n");
  // diff_suppress sees the resource its values belong to.
  const engine::AttributePath label{AttributeName{"replica"}, ElementIndex{0},
                                    AttributeName{"label"}};
  engine::Diagnostics diags;
  const Value lenient = resource("lenient");
  CHECK(logic->open_session()->same_value("test_req", label, Value::string("A"), Value::string("a"),
                                          {lenient, none, none}, diags));
  CHECK_FALSE(logic->open_session()->same_value("test_req", label, Value::string("A"),
                                                Value::string("a"), {config, none, none}, diags));
  // element_state_func gets the set's address.
  const auto forms = logic->open_session()->normal_forms(
      "test_req", {AttributeName{"replica"}, ElementIndex{0}, AttributeName{"tags"}},
      {Value::string("X")}, {config, none, none}, diags);
  REQUIRE_MESSAGE(diags.empty(), all_text(diags));
  CHECK(forms == Value::List{Value::string("replica.0.tags=x")});
}

TEST_CASE("a plan function's request: its own values, the planned element and resource") {
  ProviderDir dir;
  dir.write("resource_req.lua", R"(local tf = require("luaform")
local kept
return tf.resource {
  schema = {
    name = tf.string { optional = true },
    replica = tf.list_block { schema = {
      zone = tf.string { optional = true },
      label = tf.string { optional = true, computed = true, plan = function(p)
        kept = p
        -- Where the configuration is not known, the resource is left unread.
        local unknown = p.config == tf.unknown
        return string.format("%s: zone %s of %s, config=%s state=%s planned=%s", p.path,
          tostring(p.object.zone), unknown and "?" or tostring(p.resource.name),
          unknown and "unknown" or tostring(p.config), tostring(p.state), tostring(p.planned))
      end },
      size = tf.number { optional = true, validate = function()
        return "object " .. tostring(kept.object.zone) .. "; " ..
          select(2, pcall(function() return kept.resource end))
      end },
    } },
  },
  create = function() end, read = function() end, delete = function() end,
}
)");
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  Instance req(*logic, "test_req");
  using engine::AttributeName;
  using engine::ElementIndex;
  using engine::Value;
  const engine::Type replica = req.schema.block.find_block("replica")->block.implied_type();
  const Value element = Value::object(
      replica, {{"zone", Value::string("b")}, {"label", Value::unknown(engine::Type::string())}});
  const Value resource =
      req.object({{"name", Value::string("db")}, {"replica", Value::list(replica, {element})}});
  const Value prior_element =
      Value::object(replica, {{"zone", Value::string("b")}, {"label", Value::string("old")}});
  const engine::Attribute& label =
      *req.schema.block.find_block("replica")->block.find_attribute("label");
  const auto plan = [&](const Value& config_element) {
    engine::PlanContext at{{AttributeName{"replica"}, ElementIndex{0}, AttributeName{"label"}},
                           prior_element,
                           config_element,
                           element,
                           resource};
    engine::Diagnostics diags;
    auto planned = logic->open_session()->plan_attribute("test_req", label, at, diags);
    REQUIRE_MESSAGE(!diags.has_errors(), all_text(diags));
    REQUIRE(planned);
    return planned->as_string();
  };
  CHECK(plan(Value::object(replica, {{"zone", Value::string("b")}})) ==
        "replica.0.label: zone b of db, config=nil state=old planned=(known after apply)");
  // Where the configured element is not known yet, neither is the attribute's configuration.
  CHECK(plan(Value::unknown(replica)) ==
        "replica.0.label: zone b of ?, config=unknown state=old planned=(known after apply)");
  // p kept past its call: what the call read stays; what it did not is refused, not a read of
  // values that are gone.
  const Value none;
  const std::string later = all_text(logic->open_session()->validate_value(
      engine::SchemaOwner::Resource, "test_req",
      {AttributeName{"replica"}, ElementIndex{0}, AttributeName{"size"}}, Value::number(1),
      {none, none, none}));
  CHECK_MESSAGE(later.starts_with("object b; "), later);
  CHECK_MESSAGE(later.find("p.resource is no longer readable: the hook p was passed to has "
                           "returned") != std::string::npos,
                later);
}

TEST_CASE("mistakes in validation options are load errors at the attribute's line") {
  const char* cases[][2] = {
      {"tf.string { optional = true, validate = 3 }", "validate must be a function"},
      {"tf.string { optional = true, validate = { tf.v.not_empty(), 3 } }",
       "validate[2] must be a function"},
      {"tf.string { optional = true, conflicts_with = \"b\" }", "conflicts_with must be a list"},
      {"tf.string { optional = true, exactly_one_of = { \"A b\" } }", "exactly_one_of[1]"},
      {"tf.number { optional = true, validate = tf.v.between(1) }", "expects numbers"},
      {"tf.string { optional = true, validate = tf.v.pattern(\"[\") }", "tf.v.pattern"},
  };
  for (const auto& entry : cases) {
    const char* spec = entry[0];
    const char* expected = entry[1];
    ProviderDir dir;
    dir.write("resource_x.lua", std::string("local tf = require(\"luaform\")\nlocal a = ") + spec +
                                    "\nreturn tf.resource { schema = {}, create = function() end, "
                                    "read = function() end, delete = function() end }\n");
    const std::string text = all_text(dir.load()->load_diagnostics());
    CHECK_MESSAGE(text.find("resource_x.lua:2:") != std::string::npos, spec, " -> ", text);
    CHECK_MESSAGE(text.find(expected) != std::string::npos, spec, " -> ", text);
  }
}

TEST_CASE("diff_suppress and state_func decide which values are the same") {
  ProviderDir dir;
  dir.write("resource_site.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = {
    name = tf.string { optional = true, diff_suppress = tf.suppress.case_insensitive },
    policy = tf.string { optional = true, diff_suppress = tf.suppress.equivalent_json },
    key = tf.string { optional = true, state_func = function(v) return (v:gsub("%s", "")) end },
    plain = tf.string { optional = true },
    rule = tf.list_block { schema = {
      host = tf.string { optional = true, diff_suppress = function(address, old, new)
        return address == "rule.1.host" and old .. "." == new
      end },
    } },
    broken = tf.string { optional = true, diff_suppress = function() error("no idea") end },
  },
  create = function() end, read = function() end, delete = function() end,
}
)");
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  const auto& block = logic->schema().resources.at("test_site").block;
  CHECK(block.find_attribute("name")->has_equivalence);
  CHECK(block.find_attribute("key")->has_equivalence);
  CHECK_FALSE(block.find_attribute("plain")->has_equivalence);
  CHECK(block.find_block("rule")->block.find_attribute("host")->has_equivalence);
  using engine::AttributeName;
  using engine::Value;
  engine::Diagnostics diags;
  auto same = [&](engine::AttributePath path, const char* a, const char* b) {
    return logic->open_session()->same_value("test_site", path, Value::string(a), Value::string(b),
                                             {Value(), Value(), Value()}, diags);
  };
  CHECK(same({AttributeName{"name"}}, "Web", "WEB"));
  CHECK_FALSE(same({AttributeName{"name"}}, "web", "web2"));
  CHECK(same({AttributeName{"policy"}}, R"({"a":1,"b":2})", R"({ "b": 2, "a": 1 })"));
  CHECK_FALSE(same({AttributeName{"policy"}}, R"({"a":1})", R"({"a":2})"));
  CHECK(same({AttributeName{"key"}}, "ab cd", "abcd\n"));
  CHECK_FALSE(same({AttributeName{"key"}}, "ab", "abc"));
  const engine::AttributePath host = {AttributeName{"rule"}, engine::ElementIndex{1},
                                      AttributeName{"host"}};
  CHECK(same(host, "example.com", "example.com."));
  CHECK_FALSE(same({AttributeName{"rule"}, engine::ElementIndex{0}, AttributeName{"host"}},
                   "example.com", "example.com."));
  REQUIRE(diags.empty());
  CHECK_FALSE(same({AttributeName{"broken"}}, "a", "b"));
  const std::string text = all_text(diags);
  CHECK_MESSAGE(
      text.find("no idea | Comparing values of \"broken\" failed at resource_site.lua:13; the "
                "values count as different.") != std::string::npos,
      text);
}

TEST_CASE("diff_suppress and state_func must be functions") {
  for (const char* option : {"diff_suppress", "state_func"}) {
    ProviderDir dir;
    dir.write("resource_x.lua", std::string("local tf = require(\"luaform\")\nlocal a = "
                                            "tf.string { optional = true, ") +
                                    option +
                                    " = \"lower\" }\nreturn tf.resource { schema = {}, create = "
                                    "function() end, read = function() end, delete = function() "
                                    "end }\n");
    const std::string text = all_text(dir.load()->load_diagnostics());
    CHECK_MESSAGE(text.find(std::string("resource_x.lua:2: tf.string: ") + option +
                            " must be a function, got string") != std::string::npos,
                  text);
  }
}

TEST_CASE("element_state_func gives the normal forms of a set's elements") {
  ProviderDir dir;
  dir.write("resource_zone.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = {
    records = tf.set(tf.string) { optional = true, element_state_func = function(v)
      return v:lower()
    end },
    ports = tf.set(tf.number) { optional = true, element_state_func = function(n) return n % 100 end },
    target = tf.set_block {
      element_state_func = function(t) return t.host:lower() .. ":" .. t.port end,
      schema = { host = tf.string { required = true }, port = tf.number { required = true },
                 uid = tf.string { computed = true } },
    },
    disk = tf.list_block { schema = {
      tags = tf.set(tf.string) { optional = true, element_state_func = string.upper },
    } },
    rules = tf.set_nested { optional = true, element_state_func = function(r) return r.name end,
      schema = { name = tf.string { required = true } } },
    broken = tf.set(tf.string) { optional = true, element_state_func = function(v)
      return v.x.y
    end },
    shaped = tf.set(tf.string) { optional = true, element_state_func = function(v)
      return { v }
    end },
  },
  create = function() end, read = function() end, delete = function() end,
}
)");
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  const auto& block = logic->schema().resources.at("test_zone").block;
  CHECK(block.find_attribute("records")->has_element_normaliser);
  CHECK_FALSE(block.find_attribute("records")->has_equivalence);
  CHECK(block.find_block("target")->has_element_normaliser);
  CHECK(block.find_attribute("rules")->nested->has_element_normaliser);
  CHECK_FALSE(block.find_block("disk")->has_element_normaliser);
  using engine::AttributeName;
  using engine::Value;
  engine::Diagnostics diags;
  auto forms = [&](engine::AttributePath path, Value::List elements) {
    return logic->open_session()->normal_forms("test_zone", path, elements,
                                               {Value(), Value(), Value()}, diags);
  };
  CHECK(forms({AttributeName{"records"}}, {Value::string("2001:DB8::1")}) ==
        Value::List{Value::string("2001:db8::1")});
  CHECK(forms({AttributeName{"ports"}}, {Value::number(443), Value::number(8080)}) ==
        Value::List{Value::number(43), Value::number(80)});
  const engine::Type target = block.find_block("target")->block.implied_type();
  // What is not known yet (a planned uid) reaches the function as nil.
  CHECK(forms({AttributeName{"target"}},
              {Value::object(target, {{"host", Value::string("Web")},
                                      {"port", Value::number(80)},
                                      {"uid", Value::unknown(engine::Type::string())}})}) ==
        Value::List{Value::string("web:80")});
  CHECK(forms({AttributeName{"disk"}, engine::ElementIndex{0}, AttributeName{"tags"}},
              {Value::string("ssd")}) == Value::List{Value::string("SSD")});
  const engine::Type rule = block.find_attribute("rules")->nested->block.implied_type();
  CHECK(forms({AttributeName{"rules"}}, {Value::object(rule, {{"name", Value::string("r")}})}) ==
        Value::List{Value::string("r")});
  REQUIRE_MESSAGE(diags.empty(), all_text(diags));

  CHECK_FALSE(forms({AttributeName{"broken"}}, {Value::string("a")}));
  const std::string broken = all_text(diags);
  CHECK_MESSAGE(
      broken.find("Normalising the elements of \"broken\" failed at "
                  "resource_zone.lua:19; the elements count as different.") != std::string::npos,
      broken);
  engine::Diagnostics shaped_diags;
  CHECK_FALSE(logic->open_session()->normal_forms("test_zone", {AttributeName{"shaped"}},
                                                  {Value::string("a")}, {Value(), Value(), Value()},
                                                  shaped_diags));
  const std::string shaped = all_text(shaped_diags);
  CHECK_MESSAGE(shaped.find("element_state_func returned a table; return the element's normal "
                            "form as a string, number or boolean") != std::string::npos,
                shaped);
  CHECK_MESSAGE(shaped.find("failed at resource_zone.lua:21;") != std::string::npos, shaped);
}

TEST_CASE("element_state_func must be a function, on a set") {
  for (const char* declaration :
       {"tf.set(tf.string) { optional = true, element_state_func = \"lower\" }",
        "tf.set_block { schema = {}, element_state_func = 1 }"}) {
    ProviderDir dir;
    dir.write("resource_x.lua", std::string("local tf = require(\"luaform\")\nlocal a = ") +
                                    declaration +
                                    "\nreturn tf.resource { schema = {}, create = "
                                    "function() end, read = function() end, delete = function() "
                                    "end }\n");
    const std::string text = all_text(dir.load()->load_diagnostics());
    CHECK_MESSAGE(text.find("resource_x.lua:2: tf.set") != std::string::npos, text);
    CHECK_MESSAGE(text.find("element_state_func must be a function") != std::string::npos, text);
  }
  ProviderDir dir;
  dir.write("resource_x.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = {
    names = tf.list(tf.string) { optional = true, element_state_func = string.lower },
  },
  create = function() end, read = function() end, delete = function() end,
}
)");
  engine::ProviderService service(dir.load());
  const auto served = service.get_provider_schema();
  const std::string text = all_text(served.diagnostics);
  CHECK_MESSAGE(text.find("resource_x.lua:4: resource test_x: attribute \"names\" is not a set, "
                          "so an element normaliser has nothing to pair") != std::string::npos,
                text);
}

TEST_CASE("upgrade functions run in order from the stored version to schema_version") {
  ProviderDir dir;
  dir.write("resource_vm.lua", R"(local tf = require("luaform")
return tf.resource {
  schema_version = 2,
  schema = { size_gb = tf.number { required = true }, name = tf.string { required = true } },
  upgrade = {
    [0] = function(raw) raw.size = tonumber(raw.size) return raw end,  -- v0 kept size as text
    [1] = function(raw) raw.size_gb = raw.size // 1024 raw.size = nil return raw end,
  },
  create = function() end, read = function() end, delete = function() end,
}
)");
  dir.write("resource_bad.lua", R"(local tf = require("luaform")
return tf.resource {
  schema_version = 2,
  schema = { n = tf.number { optional = true } },
  upgrade = { [1] = function() return "oops" end },
  create = function() end, read = function() end, delete = function() end,
}
)");
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  Instance vm(*logic, "test_vm");
  CHECK(logic->schema().resources.at("test_vm").version == 2);

  engine::Diagnostics diags;
  auto from0 =
      logic->open_session()->upgrade_state("test_vm", 0, R"({"id":"x","name":"web","size":"4096",
                                                     "gone":true})",
                                           vm.type, diags);
  REQUIRE_MESSAGE(!diags.has_errors(), all_text(diags));
  REQUIRE(from0.has_value());
  CHECK(from0->get_attribute("size_gb") == engine::Value::number(4));
  CHECK(from0->get_attribute("name") == engine::Value::string("web"));
  CHECK(from0->get_attribute("id") == engine::Value::string("x"));

  auto from1 = logic->open_session()->upgrade_state(
      "test_vm", 1, R"({"id":"x","name":"w","size":2048})", vm.type, diags);
  REQUIRE(from1.has_value());
  CHECK(from1->get_attribute("size_gb") == engine::Value::number(2));

  Instance bad(*logic, "test_bad");
  engine::Diagnostics missing;
  CHECK_FALSE(
      logic->open_session()->upgrade_state("test_bad", 0, R"({"id":"x"})", bad.type, missing));
  CHECK(all_text(missing).find("no upgrade function for version 0") != std::string::npos);
  engine::Diagnostics wrong;
  CHECK_FALSE(
      logic->open_session()->upgrade_state("test_bad", 1, R"({"id":"x"})", bad.type, wrong));
  CHECK(all_text(wrong).find("must return the upgraded state table") != std::string::npos);
}

TEST_CASE("upgrade functions get the configured client, or nil before configure") {
  ProviderDir dir;
  dir.write("provider.lua", R"(local tf = require("luaform")
return tf.provider {
  schema = { unit = tf.number { optional = true } },
  configure = function(config) return { unit = config.unit } end,
}
)");
  dir.write("resource_vm.lua", R"(local tf = require("luaform")
return tf.resource {
  schema_version = 1,
  schema = { size = tf.number { required = true } },
  upgrade = { [0] = function(raw, client)
    raw.size = raw.size * (client and client.unit or -1)
    return raw
  end },
  create = function() end, read = function() end, delete = function() end,
}
)");
  auto logic = dir.load();
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  Instance vm(*logic, "test_vm");
  engine::Diagnostics diags;
  auto before =
      logic->open_session()->upgrade_state("test_vm", 0, R"({"id":"x","size":2})", vm.type, diags);
  REQUIRE(before.has_value());
  CHECK(before->get_attribute("size") == engine::Value::number(-2));
  const engine::Type provider_type = logic->schema().provider.block.implied_type();
  REQUIRE_FALSE(
      logic
          ->configure(engine::Value::object(provider_type, {{"unit", engine::Value::number(1024)}}))
          .has_errors());
  auto after =
      logic->open_session()->upgrade_state("test_vm", 0, R"({"id":"x","size":2})", vm.type, diags);
  REQUIRE_MESSAGE(!diags.has_errors(), all_text(diags));
  REQUIRE(after.has_value());
  CHECK(after->get_attribute("size") == engine::Value::number(2048));
}

TEST_CASE("upgrade options that cannot work are load errors") {
  const char* cases[][2] = {
      {"schema_version = -1,", "schema_version must be a whole number"},
      {"schema_version = 1, upgrade = { [1] = function() end },", "is not a version below"},
      {"schema_version = 1, upgrade = { [0] = 3 },", "upgrade[0] must be a function"},
      {"upgrade = 5,", "upgrade must be a table"},
      {"schema_version = 3, upgrade = { [0] = function() end, [2] = function() end },",
       "upgrade[1] is missing"},
  };
  for (const auto& entry : cases) {
    const char* fields = entry[0];
    const char* expected = entry[1];
    const std::string text = load_errors_with_fields(fields);
    CHECK_MESSAGE(text.find(expected) != std::string::npos, (std::string(fields) + " -> " + text));
  }
}
