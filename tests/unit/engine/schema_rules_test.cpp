// attribute_path: the dotted addresses scripts use (d:get, tf.fail's path) as attribute paths.
#include "host/engine/schema_rules.h"

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
