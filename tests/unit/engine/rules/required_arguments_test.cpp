// The CLI's own check of a configuration before the provider sees it: required arguments.
#include "host/engine/rules/required_arguments.h"

#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

// name (required), note (optional); disk: a list block of { size (required), label };
// boot: a single nested attribute of { device (required) }.
Block server() {
  Block block;
  block.attributes.push_back(attribute("name", Type::string(), true, false, false));
  block.attributes.push_back(attribute("note", Type::string(), false, true, false));
  NestedBlock disk;
  disk.type_name = "disk";
  disk.block.attributes = {attribute("size", Type::number(), true, false, false),
                           attribute("label", Type::string(), false, true, false)};
  block.blocks = {disk};
  auto boot = std::make_shared<NestedBlock>();
  boot->type_name = "boot";
  boot->nesting = NestingMode::Single;
  boot->block.attributes = {attribute("device", Type::string(), true, false, false)};
  Attribute as_attribute = attribute("boot", boot->implied_type(), false, true, false);
  as_attribute.nested = boot;
  block.attributes.push_back(as_attribute);
  return block;
}

std::string text(const Diagnostics& diags) {
  std::string out;
  for (const auto& d : diags.items()) {
    out += d.summary + " | " + d.detail + " @" + path_to_string(d.path) + "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("every required argument left null is missing, at any depth") {
  const Block block = server();
  const Type type = block.implied_type();
  const Type disk = block.blocks[0].block.implied_type();
  const Type boot = block.attributes[2].nested->block.implied_type();
  const Value disks =
      Value::list(disk, {Value::object(disk, {{"size", Value::number(Number::from_int(1))}}),
                         Value::object(disk, {{"label", Value::string("data")}})});
  const Value config = Value::object(
      type, {{"note", Value::string("x")}, {"disk", disks}, {"boot", Value::object(boot, {})}});

  CHECK(text(check_required_arguments(block, config)) ==
        "Missing required argument | The argument \"name\" is required, but no definition was "
        "found. @name\n"
        "Missing required argument | The argument \"device\" is required, but no definition was "
        "found. @boot.device\n"
        "Missing required argument | The argument \"size\" is required, but no definition was "
        "found. @disk[1].size\n");
}

TEST_CASE("a value not known yet is given, and a block or nested attribute left out is fine") {
  const Block block = server();
  const Type type = block.implied_type();
  CHECK(check_required_arguments(block,
                                 Value::object(type, {{"name", Value::unknown(Type::string())}}))
            .empty());
  CHECK(check_required_arguments(block, Value::unknown(type)).empty());
  CHECK(check_required_arguments(block, Value::null(type)).empty());
}
