// An argument the configuration leaves unset: null and its zero value are the same value, in
// read, plan and apply, at the top and inside blocks; a configured zero value is kept.
#include <doctest/doctest.h>

#include "host/engine/rules/zero_values.h"
#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

// resource "test_user": name (required), nickname (optional, force_new), age, admin, groups
// (list of strings), labels (map of strings), all optional; contact: a list block of
// { email (required), phone (optional) }; keys: a set block of { name (required), note
// (optional) }.
Schema user_schema() {
  Schema s;
  Attribute nickname = attribute("nickname", Type::string(), false, true, false);
  nickname.force_new = true;
  s.block.attributes = {attribute("name", Type::string(), true, false, false),
                        nickname,
                        attribute("age", Type::number(), false, true, false),
                        attribute("admin", Type::boolean(), false, true, false),
                        attribute("groups", Type::list(Type::string()), false, true, false),
                        attribute("labels", Type::map(Type::string()), false, true, false)};
  NestedBlock contact;
  contact.type_name = "contact";
  contact.block.attributes = {attribute("email", Type::string(), true, false, false),
                              attribute("phone", Type::string(), false, true, false)};
  NestedBlock keys;
  keys.type_name = "keys";
  keys.nesting = NestingMode::Set;
  keys.block.attributes = {attribute("name", Type::string(), true, false, false),
                           attribute("note", Type::string(), false, true, false)};
  s.block.blocks = {contact, keys};
  return s;
}

struct UserFixture : ServiceFixture {
  Type type, contact_type, key_type;

  explicit UserFixture(bool has_update = true) {
    logic->declared.resources["test_user"] = user_schema();
    logic->declared.resources["test_user"].has_update = has_update;
    const Block& block = serve().resources.at("test_user").block;
    type = block.implied_type();
    contact_type = block.find_block("contact")->block.implied_type();
    key_type = block.find_block("keys")->block.implied_type();
  }
  // The configuration that sets only the name, as the CLI sends it (blocks as empty lists).
  Value config() const {
    return Value::object(type, {{"name", Value::string("ann")},
                                {"contact", Value::list(contact_type, {})},
                                {"keys", Value::set(key_type, {})}});
  }
  Value contact(const std::string& email, Value phone) const {
    return Value::object(contact_type, {{"email", Value::string(email)}, {"phone", phone}});
  }
  Value key(const std::string& name, Value note) const {
    return Value::object(key_type, {{"name", Value::string(name)}, {"note", note}});
  }
  // What an author's read sets from an API that answers unset fields with their zero values.
  void read_back_zero_values(ResourceData& d) const {
    d.set("name", Value::string("ann"));
    d.set("nickname", Value::string(""));
    d.set("age", Value::number(0));
    d.set("admin", Value::boolean(false));
    d.set("groups", Value::list(Type::string(), {}));
    d.set("labels", Value::map(Type::string(), {}));
  }
  Value stored_after_create() const { return config().with_attribute("id", Value::string("u1")); }
  // Planned as the CLI proposes it: the config, with the stored id.
  PlanResponse plan(const Value& prior, const Value& config) const {
    const Value proposed =
        prior.is_null() ? config : config.with_attribute("id", prior.get_attribute("id"));
    return service->plan_resource_change(PlanRequest{"test_user", prior, proposed, config, {}});
  }
  ReadResponse read(const Value& current) const {
    return service->read_resource(ReadRequest{"test_user", current, {}, {}});
  }
};

}  // namespace

TEST_CASE("zero values: \"\", 0, false and empty collections, nothing else") {
  CHECK(is_zero_value(Value::string("")));
  CHECK(is_zero_value(Value::number(0)));
  CHECK(is_zero_value(Value::boolean(false)));
  CHECK(is_zero_value(Value::list(Type::string(), {})));
  CHECK(is_zero_value(Value::map(Type::number(), {})));
  CHECK_FALSE(is_zero_value(Value::string(" ")));
  CHECK_FALSE(is_zero_value(Value::number(Number::from_double(0.5))));
  CHECK_FALSE(is_zero_value(Value::null(Type::string())));
  CHECK_FALSE(is_zero_value(Value::unknown(Type::string())));
  CHECK(same_but_for_zero(Value::null(Type::string()), Value::string("")));
  CHECK_FALSE(same_but_for_zero(Value::string("a"), Value::string("")));
}

TEST_CASE("read: zero values read back for unset arguments keep the stored nulls") {
  UserFixture f;
  f.logic->callbacks[Operation::Read] = [&](ResourceData& d) {
    f.read_back_zero_values(d);
    d.set("contact", Value::list(f.contact_type, {f.contact("a@x", Value::string(""))}));
    return Diagnostics{};
  };
  const Value stored = f.stored_after_create().with_attribute(
      "contact", Value::list(f.contact_type, {f.contact("a@x", Value::null(Type::string()))}));
  const ReadResponse resp = f.read(stored);
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  CHECK(resp.new_state == stored);
}

TEST_CASE("read: a configured zero value stays, and a real change from it shows") {
  UserFixture f;
  std::string nickname;
  f.logic->callbacks[Operation::Read] = [&](ResourceData& d) {
    f.read_back_zero_values(d);
    d.set("nickname", Value::string(nickname));
    return Diagnostics{};
  };
  const Value stored = f.stored_after_create().with_attribute("nickname", Value::string(""));
  CHECK(f.read(stored).new_state.get_attribute("nickname") == Value::string(""));
  nickname = "annie";
  CHECK(f.read(stored).new_state.get_attribute("nickname") == Value::string("annie"));
}

TEST_CASE("read: a null read back where the state holds a configured empty list keeps it") {
  UserFixture f;
  f.logic->callbacks[Operation::Read] = [&](ResourceData& d) {
    d.set("groups", Value::null(Type::list(Type::string())));
    return Diagnostics{};
  };
  const Value stored =
      f.stored_after_create().with_attribute("groups", Value::list(Type::string(), {}));
  CHECK(f.read(stored).new_state == stored);
}

TEST_CASE("read: set block elements read back with zero values keep their stored spelling") {
  UserFixture f;
  f.logic->callbacks[Operation::Read] = [&](ResourceData& d) {
    d.set("keys", Value::set(f.key_type,
                             {f.key("a", Value::string("")), f.key("b", Value::string("kept"))}));
    return Diagnostics{};
  };
  const Value stored = f.stored_after_create().with_attribute(
      "keys", Value::set(f.key_type, {f.key("a", Value::null(Type::string())),
                                      f.key("b", Value::string("kept"))}));
  CHECK(f.read(stored).new_state == stored);
}

TEST_CASE("read: a block the stored object lacked reads back its unset arguments as null") {
  // After an import the stored object holds the id alone: its blocks are empty. A read that
  // fills them in with an API's zero values must store nulls for the unset arguments, as at the
  // top of the object; it kept "" there, and the next plan showed `- phone = "" -> null`.
  UserFixture f;
  f.logic->callbacks[Operation::Read] = [&](ResourceData& d) {
    f.read_back_zero_values(d);
    d.set("contact", Value::list(f.contact_type, {f.contact("a@x", Value::string(""))}));
    return Diagnostics{};
  };
  const Value imported = Value::object(f.type, {{"id", Value::string("u1")}});
  const Value read = f.read(imported).new_state;
  const Value contact = read.get_attribute("contact").elements().at(0);
  CHECK(contact.get_attribute("email") == Value::string("a@x"));
  CHECK(contact.get_attribute("phone").is_null());
  CHECK(read.get_attribute("nickname").is_null());
  // A list a refresh finds longer: the new element is paired with nulls, the old one as ever.
  const Value stored = f.stored_after_create().with_attribute(
      "contact", Value::list(f.contact_type, {f.contact("a@x", Value::string(""))}));
  f.logic->callbacks[Operation::Read] = [&](ResourceData& d) {
    d.set("contact", Value::list(f.contact_type, {f.contact("a@x", Value::string("")),
                                                  f.contact("b@x", Value::string(""))}));
    return Diagnostics{};
  };
  const Value grown = f.read(stored).new_state.get_attribute("contact");
  CHECK(grown.elements().at(0).get_attribute("phone") == Value::string(""));
  CHECK(grown.elements().at(1).get_attribute("phone").is_null());
}

TEST_CASE("apply: create that sets zero values for unset arguments saves the planned nulls") {
  UserFixture f;
  f.logic->callbacks[Operation::Create] = [&](ResourceData& d) {
    d.set_id("u1");
    f.read_back_zero_values(d);
    return Diagnostics{};
  };
  const PlanResponse planned = f.plan(Value::null(f.type), f.config());
  REQUIRE_FALSE(planned.diagnostics.has_errors());
  const ApplyResponse resp = f.service->apply_resource_change(
      ApplyRequest{"test_user", Value::null(f.type), planned.planned_state, f.config(), {}});
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  CHECK(resp.new_state == f.stored_after_create());
}

TEST_CASE("plan: a state holding zero values where the config leaves the arguments unset") {
  UserFixture f;
  // As an earlier version saved it: the zero values read back.
  const Value prior = f.stored_after_create()
                          .with_attribute("nickname", Value::string(""))
                          .with_attribute("age", Value::number(0))
                          .with_attribute("groups", Value::list(Type::string(), {}));
  const PlanResponse resp = f.plan(prior, f.config());
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  // nickname forces a new resource, but a difference of spelling replaces nothing.
  CHECK(resp.requires_replace.empty());
  // The CLI requires the config's null for a non-computed argument: the plan says so, and the
  // update it asks for changes nothing for the script.
  bool changed = true;
  f.logic->callbacks[Operation::Update] = [&](ResourceData& d) {
    changed = d.has_change("nickname") || d.has_change("age") || d.has_change("groups");
    return Diagnostics{};
  };
  const ApplyResponse applied = f.service->apply_resource_change(
      ApplyRequest{"test_user", prior, resp.planned_state, f.config(), {}});
  REQUIRE_FALSE(applied.diagnostics.has_errors());
  CHECK_FALSE(changed);
  CHECK(applied.new_state == f.stored_after_create());
}

TEST_CASE("plan: a real change from the zero value replaces a force_new argument") {
  UserFixture f;
  const Value prior = f.stored_after_create().with_attribute("nickname", Value::string(""));
  const Value config = f.config().with_attribute("nickname", Value::string("annie"));
  const PlanResponse resp = f.plan(prior, config);
  REQUIRE(resp.requires_replace.size() == 1);
  CHECK(resp.requires_replace[0] == AttributePath{AttributeName{"nickname"}});
}

TEST_CASE("without an update function, a difference of zero spelling is saved, not refused") {
  UserFixture f(/*has_update=*/false);
  const Value prior = f.stored_after_create().with_attribute("admin", Value::boolean(false));
  const PlanResponse planned = f.plan(prior, f.config());
  REQUIRE_FALSE(planned.diagnostics.has_errors());
  CHECK(planned.requires_replace.empty());
  const ApplyResponse resp = f.service->apply_resource_change(
      ApplyRequest{"test_user", prior, planned.planned_state, f.config(), {}});
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  CHECK(resp.new_state == f.stored_after_create());
}

TEST_CASE("has_change: null and the zero value are no change; a real change is") {
  UserFixture f;
  const Value prior =
      f.stored_after_create().with_attribute("labels", Value::map(Type::string(), {}));
  ResourceData d(f.service->get_provider_schema().schema->resources.at("test_user"), prior,
                 f.config(), f.config().with_attribute("age", Value::number(3)));
  CHECK_FALSE(d.has_change("labels"));
  CHECK_FALSE(d.has_change("nickname"));
  CHECK(d.has_change("age"));
}
