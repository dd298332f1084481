#include "host/engine/schema/schema.h"

#include <doctest/doctest.h>

using namespace luaform::engine;

namespace {

Attribute attr(const char* name, Type t) {
  Attribute a;
  a.name = name;
  a.type = std::move(t);
  a.optional = true;
  return a;
}

NestedBlock nested(const char* name, NestingMode mode, Block block) {
  NestedBlock b;
  b.type_name = name;
  b.nesting = mode;
  b.block = std::move(block);
  return b;
}

}  // namespace

TEST_CASE("a block's implied type has one attribute per attribute and per nested block") {
  Block disk;
  disk.attributes.push_back(attr("size", Type::number()));
  Block b;
  b.attributes.push_back(attr("name", Type::string()));
  b.blocks.push_back(nested("single", NestingMode::Single, disk));
  b.blocks.push_back(nested("group", NestingMode::Group, disk));
  b.blocks.push_back(nested("list", NestingMode::List, disk));
  b.blocks.push_back(nested("set", NestingMode::Set, disk));
  b.blocks.push_back(nested("map", NestingMode::Map, disk));
  Type object = Type::object({{"size", Type::number()}});
  CHECK(b.implied_type() == Type::object({{"name", Type::string()},
                                          {"single", object},
                                          {"group", object},
                                          {"list", Type::list(object)},
                                          {"set", Type::set(object)},
                                          {"map", Type::map(object)}}));
}

TEST_CASE("list and map blocks with dynamic attributes are dynamically typed") {
  Block any;
  any.attributes.push_back(attr("v", Type::dynamic()));
  CHECK(nested("l", NestingMode::List, any).implied_type() == Type::dynamic());
  CHECK(nested("m", NestingMode::Map, any).implied_type() == Type::dynamic());
  CHECK(nested("s", NestingMode::Single, any).implied_type() ==
        Type::object({{"v", Type::dynamic()}}));
}

TEST_CASE("an empty block implies an empty object") {
  CHECK(Block{}.implied_type() == Type::object({}));
}

TEST_CASE("find_attribute and find_block look names up, null when absent") {
  Block b;
  b.attributes.push_back(attr("name", Type::string()));
  b.blocks.push_back(nested("disk", NestingMode::List, Block{}));
  REQUIRE(b.find_attribute("name") != nullptr);
  CHECK(b.find_attribute("name")->type == Type::string());
  CHECK(b.find_attribute("disk") == nullptr);
  REQUIRE(b.find_block("disk") != nullptr);
  CHECK(b.find_block("disk")->nesting == NestingMode::List);
  CHECK(b.find_block("name") == nullptr);
}

TEST_CASE("settle_types builds every implied type of a schema once, nested ones too") {
  Block disk;
  disk.attributes.push_back(attr("size", Type::number()));
  auto inner = std::make_shared<NestedBlock>(nested("part", NestingMode::List, disk));
  Attribute parts = attr("parts", inner->implied_type());
  parts.nested = inner;
  Schema server;
  server.block.attributes.push_back(attr("name", Type::string()));
  server.block.attributes.push_back(parts);
  server.block.blocks.push_back(nested("disk", NestingMode::Set, disk));
  server.identity = ResourceIdentity{};
  IdentityAttribute name;
  name.name = "name";
  name.type = Type::string();
  server.identity->attributes.push_back(name);
  ProviderSchema schema;
  schema.resources["server"] = server;
  schema.actions["reboot"] = server;

  settle_types(schema);

  for (const Schema* settled : {&schema.resources.at("server"), &schema.actions.at("reboot")}) {
    REQUIRE(settled->block.settled_type);
    CHECK(*settled->block.settled_type == server.block.implied_type());
    REQUIRE(settled->block.blocks[0].settled_type);
    CHECK(*settled->block.blocks[0].settled_type == Type::set(disk.implied_type()));
    REQUIRE(settled->block.attributes[1].nested->settled_type);
    CHECK(settled->block.attributes[1].nested->block.settled_type == disk.implied_type());
    REQUIRE(settled->identity->settled_type);
    CHECK(*settled->identity->settled_type == Type::object({{"name", Type::string()}}));
  }
  // The schema it was copied from is as it was: it builds its type on each call.
  CHECK_FALSE(server.block.settled_type);
  CHECK_FALSE(inner->settled_type);
}
