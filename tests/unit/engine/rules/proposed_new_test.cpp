#include "host/engine/rules/proposed_new.h"

#include <doctest/doctest.h>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

// { name (required), size (optional), ip (computed), zone (optional + computed) } with a nested
// block `disk` of { gb (required), serial (computed) } nested as `nesting`.
Block server_block(NestingMode nesting) {
  Block b;
  b.attributes = {attribute("name", Type::string(), true, false, false),
                  attribute("size", Type::number(), false, true, false),
                  attribute("ip", Type::string(), false, false, true),
                  attribute("zone", Type::string(), false, true, true)};
  NestedBlock disk;
  disk.type_name = "disk";
  disk.nesting = nesting;
  disk.block.attributes = {attribute("gb", Type::number(), true, false, false),
                           attribute("serial", Type::string(), false, false, true)};
  b.blocks.push_back(disk);
  return b;
}

Value disk(const Block& b, int64_t gb, const char* serial = nullptr) {
  Value::Object attrs{{"gb", Value::number(gb)}};
  if (serial) attrs["serial"] = Value::string(serial);
  return Value::object(b.blocks[0].block.implied_type(), std::move(attrs));
}

Value server(const Block& b, Value::Object attrs) {
  return Value::object(b.implied_type(), std::move(attrs));
}

}  // namespace

TEST_CASE("a new object is proposed as configured") {
  const Block b = server_block(NestingMode::List);
  const Value config = server(b, {{"name", Value::string("web")}});
  CHECK(proposed_new_state(b, Value::null(b.implied_type()), config) == config);
}

TEST_CASE("computed attributes the configuration leaves null keep their stored values") {
  const Block b = server_block(NestingMode::List);
  const Value prior = server(b, {{"name", Value::string("web")},
                                 {"size", Value::number(2)},
                                 {"ip", Value::string("10.0.0.1")},
                                 {"zone", Value::string("a")}});
  const Value config = server(b, {{"name", Value::string("web")}, {"zone", Value::string("b")}});
  const Value proposed = proposed_new_state(b, prior, config);
  CHECK(proposed.get_attribute("ip") == Value::string("10.0.0.1"));  // computed, kept
  CHECK(proposed.get_attribute("zone") == Value::string("b"));       // configured wins
  CHECK(proposed.get_attribute("size").is_null());  // optional only: removed from config
}

TEST_CASE("list and set blocks are paired with their stored elements") {
  for (NestingMode nesting : {NestingMode::List, NestingMode::Set}) {
    CAPTURE(static_cast<int>(nesting));
    const Block b = server_block(nesting);
    const Type disk_type = b.blocks[0].block.implied_type();
    auto disks = [&](Value::List elements) {
      return nesting == NestingMode::Set ? Value::set(disk_type, std::move(elements))
                                         : Value::list(disk_type, std::move(elements));
    };
    const Value prior = server(b, {{"name", Value::string("web")},
                                   {"disk", disks({disk(b, 10, "s-10"), disk(b, 20, "s-20")})}});
    const Value config =
        server(b, {{"name", Value::string("web")}, {"disk", disks({disk(b, 10), disk(b, 30)})}});
    const Value proposed = proposed_new_state(b, prior, config);
    const Value expected = disks({disk(b, 10, "s-10"), disk(b, 30)});
    if (nesting == NestingMode::List) {
      // By index: the second element keeps the second stored serial.
      CHECK(proposed.get_attribute("disk") == disks({disk(b, 10, "s-10"), disk(b, 30, "s-20")}));
    } else {
      // By what the configuration decides: 30 GB is a new element with no serial yet.
      CHECK(proposed.get_attribute("disk") == expected);
    }
  }
}

TEST_CASE("a destroyed object is proposed as null") {
  const Block b = server_block(NestingMode::List);
  const Value prior = server(b, {{"name", Value::string("web")}});
  CHECK(proposed_new_state(b, prior, Value::null(b.implied_type())).is_null());
}
