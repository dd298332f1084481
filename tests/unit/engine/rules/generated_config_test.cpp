// GenerateResourceConfig: a stored object as the configuration a user would write, which then
// plans with nothing to change.
#include "host/engine/rules/generated_config.h"

#include <doctest/doctest.h>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

// A server: name (required), size (optional, default 1), nickname (optional), region
// (optional and computed), ip (computed), password (write-only), old_name (deprecated), token
// (optional, sensitive), disk blocks (size required, kind optional with default "ssd") and the
// operational timeouts block, plus the served id.
Block server_block() {
  Block b;
  Attribute size = attribute("size", Type::number(), false, true, false);
  size.default_value = Value::number(1);
  Attribute password = attribute("password", Type::string(), false, true, false);
  password.write_only = true;
  Attribute old_name = attribute("old_name", Type::string(), false, true, false);
  old_name.deprecated = "use name";
  Attribute token = attribute("token", Type::string(), false, true, false);
  token.sensitive = true;
  b.attributes = {attribute("id", Type::string(), false, true, true),
                  attribute("name", Type::string(), true, false, false),
                  size,
                  attribute("nickname", Type::string(), false, true, false),
                  attribute("region", Type::string(), false, true, true),
                  attribute("ip", Type::string(), false, false, true),
                  password,
                  old_name,
                  token,
                  attribute("tags", Type::map(Type::string()), false, true, false)};
  NestedBlock disk;
  disk.type_name = "disk";
  Attribute kind = attribute("kind", Type::string(), false, true, false);
  kind.default_value = Value::string("ssd");
  disk.block.attributes = {attribute("size", Type::number(), true, false, false), kind,
                           attribute("serial", Type::string(), false, false, true)};
  NestedBlock timeouts;
  timeouts.type_name = "timeouts";
  timeouts.nesting = NestingMode::Single;
  timeouts.operational = true;
  timeouts.block.attributes = {attribute("create", Type::string(), false, true, false)};
  b.blocks = {disk, timeouts};
  return b;
}

Value disk(const Type& type, int64_t size, const std::string& kind) {
  return Value::object(type, {{"size", Value::number(size)},
                              {"kind", Value::string(kind)},
                              {"serial", Value::string("SN-" + std::to_string(size))}});
}

}  // namespace

TEST_CASE("generated configuration keeps the arguments a user sets and leaves out the rest") {
  const Block block = server_block();
  const Type type = block.implied_type();
  const Type disk_type = block.find_block("disk")->block.implied_type();
  const Type timeouts_type = block.find_block("timeouts")->implied_type();
  const Value state = Value::object(
      type,
      {{"id", Value::string("srv-1")},
       {"name", Value::string("web")},
       {"size", Value::number(1)},         // the default
       {"nickname", Value::string("")},    // the zero value: unset
       {"region", Value::string("eu-1")},  // optional and computed: kept
       {"ip", Value::string("10.0.0.1")},  // computed only
       {"password", Value::null(Type::string())},
       {"old_name", Value::string("www")},  // deprecated
       {"token", Value::string("s3cret")},  // sensitive, but the user's
       {"tags", Value::map(Type::string(), {})},
       {"disk", Value::list(disk_type, {disk(disk_type, 10, "ssd"), disk(disk_type, 20, "hdd")})},
       {"timeouts", Value::object(timeouts_type, {{"create", Value::string("5m")}})}});

  const Value config = config_from_state(block, state);

  CHECK(config.type() == type);
  CHECK(config.get_attribute("id").is_null());
  CHECK(config.get_attribute("name") == Value::string("web"));
  CHECK(config.get_attribute("size").is_null());
  CHECK(config.get_attribute("nickname").is_null());
  CHECK(config.get_attribute("region") == Value::string("eu-1"));
  CHECK(config.get_attribute("ip").is_null());
  CHECK(config.get_attribute("password").is_null());
  // A deprecated argument with a value is written: without it the plan would change it. Its
  // deprecation warning then says what to use instead.
  CHECK(config.get_attribute("old_name") == Value::string("www"));
  CHECK(config.get_attribute("token") == Value::string("s3cret"));
  CHECK(config.get_attribute("tags").is_null());
  CHECK(config.get_attribute("timeouts").is_null());
  const Value disks = config.get_attribute("disk");
  REQUIRE(disks.length() == 2);
  CHECK(disks.elements()[0].get_attribute("size") == Value::number(10));
  CHECK(disks.elements()[0].get_attribute("kind").is_null());
  CHECK(disks.elements()[0].get_attribute("serial").is_null());
  CHECK(disks.elements()[1].get_attribute("kind") == Value::string("hdd"));
}

TEST_CASE("a value that differs from the default, even the zero value, is kept") {
  Block block;
  Attribute enabled = attribute("enabled", Type::boolean(), false, true, false);
  enabled.default_value = Value::boolean(true);
  Attribute count = attribute("count", Type::number(), false, true, false);
  block.attributes = {enabled, count};
  const Value state = Value::object(
      block.implied_type(), {{"enabled", Value::boolean(false)}, {"count", Value::number(3)}});
  const Value config = config_from_state(block, state);
  CHECK(config.get_attribute("enabled") == Value::boolean(false));
  CHECK(config.get_attribute("count") == Value::number(3));
}

TEST_CASE("no stored object generates no configuration") {
  const Block block = server_block();
  CHECK(config_from_state(block, Value::null(block.implied_type())).is_null());
}
