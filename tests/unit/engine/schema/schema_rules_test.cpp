// attribute_path (the dotted addresses scripts use, as attribute paths), validate_addresses, and
// validate_block's rule for element normalisers.
#include "host/engine/schema/schema_rules.h"

#include <doctest/doctest.h>

using namespace luaform::engine;

TEST_CASE("a dotted address becomes names, indexes and keys, stopping where the type does") {
  const Type disk = Type::object({{"size", Type::number()}});
  const Type type = Type::object({{"name", Type::string()},
                                  {"disk", Type::list(disk)},
                                  {"tags", Type::map(Type::string())},
                                  {"ports", Type::set(Type::number())}});
  CHECK(attribute_path(type, "name") == AttributePath{AttributeName{"name"}});
  CHECK(attribute_path(type, "disk.1.size") ==
        AttributePath{AttributeName{"disk"}, ElementIndex{1}, AttributeName{"size"}});
  CHECK(attribute_path(type, "tags.env") ==
        AttributePath{AttributeName{"tags"}, ElementKey{"env"}});
  CHECK(path_to_string(attribute_path(type, "disk.0.size")) == "disk[0].size");
  // Where the address goes wrong, the path ends at the last step that made sense.
  CHECK(attribute_path(type, "ports.80") == AttributePath{AttributeName{"ports"}});
  CHECK(attribute_path(type, "disk.x.size") == AttributePath{AttributeName{"disk"}});
  CHECK(attribute_path(type, "disk.0.weight") ==
        AttributePath{AttributeName{"disk"}, ElementIndex{0}});
  CHECK(attribute_path(type, "nothing").empty());
  CHECK(attribute_path(type, "").empty());
}

namespace {

Attribute optional_string(const std::string& name) {
  Attribute a;
  a.name = name;
  a.type = Type::string();
  a.optional = true;
  return a;
}

// The problems validate_addresses finds when `name`'s conflicts_with names `address`, in a
// schema with a single block `boot` and a list block `disk`.
std::string problems_naming(const std::string& address) {
  Block block;
  Attribute name = optional_string("name");
  name.conflicts_with = {address};
  NestedBlock boot;
  boot.type_name = "boot";
  boot.nesting = NestingMode::Single;
  boot.block.attributes = {optional_string("image")};
  NestedBlock disk;
  disk.type_name = "disk";
  disk.nesting = NestingMode::List;
  disk.block.attributes = {optional_string("size")};
  Attribute labels = optional_string("labels");
  labels.type = Type::map(Type::string());
  block.attributes = {name, labels};
  block.blocks = {boot, disk};
  Diagnostics diags;
  validate_addresses(block, "resource test_x", diags);
  std::string text;
  for (const auto& d : diags.items()) text += d.summary + "\n";
  return text;
}

}  // namespace

TEST_CASE("addresses in conflicts_with and its kin must lead somewhere in the schema") {
  for (const char* good :
       {"labels", "boot.image", "disk.0.size", "disk.3.size", "labels.env", "boot", "disk"}) {
    CAPTURE(good);
    CHECK(problems_naming(good).empty());
  }
  CHECK(problems_naming("nonexistent") ==
        "resource test_x: attribute \"name\": conflicts_with names \"nonexistent\", which leads "
        "nowhere: the top of the schema has no attribute or block \"nonexistent\"\n");
  CHECK(problems_naming("boot.0.image")
            .find("\"boot\" is a single block or object, addressed "
                  "without an index: \"boot.image\"") != std::string::npos);
  CHECK(problems_naming("disk.size")
            .find("\"disk\" is a list, whose elements are addressed by "
                  "index: \"disk.0.size\"") != std::string::npos);
  CHECK(problems_naming("disk.0.weight").find("\"disk.0\" has no attribute or block \"weight\"") !=
        std::string::npos);
  CHECK(problems_naming("labels.env.x").find("\"labels.env\" is a string") != std::string::npos);
  CHECK(problems_naming("boot..image").find("empty part") != std::string::npos);
}

TEST_CASE("an element normaliser needs a set that is not inside a set") {
  Attribute list;
  list.name = "records";
  list.type = Type::list(Type::string());
  list.optional = true;
  list.has_element_normaliser = true;
  Block block;
  block.attributes = {list};
  Diagnostics not_set;
  validate_block(block, "resource r", not_set, BlockPlace::ResourceTop);
  REQUIRE(not_set.has_errors());
  CHECK(not_set.items()[0].summary ==
        "resource r: attribute \"records\" is not a set, so an element normaliser has nothing "
        "to pair");

  block.attributes[0].type = Type::set(Type::string());
  NestedBlock outer;
  outer.type_name = "zone";
  outer.nesting = NestingMode::Set;
  outer.block = block;
  Block top;
  top.blocks = {outer};
  Diagnostics in_set;
  validate_block(top, "resource r", in_set, BlockPlace::ResourceTop);
  REQUIRE(in_set.has_errors());
  CHECK(in_set.items()[0].summary ==
        "resource r.zone: attribute \"records\" cannot have an element normaliser");

  top.blocks[0].nesting = NestingMode::List;
  top.blocks[0].has_element_normaliser = true;
  Diagnostics list_block;
  validate_block(top, "resource r", list_block, BlockPlace::ResourceTop);
  REQUIRE(list_block.has_errors());
  CHECK(list_block.items()[0].summary ==
        "resource r: block \"zone\" is not a set, so an element normaliser has nothing to pair");
}
