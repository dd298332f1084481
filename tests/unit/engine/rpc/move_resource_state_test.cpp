#include <doctest/doctest.h>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

struct MoveFixture : ServiceFixture {
  Type type;

  explicit MoveFixture(bool with_mover) {
    logic->declared.resources["test_file"] = file_schema();
    if (with_mover) {
      logic->declared.resources["test_file"].moves_state = true;
      logic->mover = [](const MoveSource& source, const Type& target,
                        Diagnostics&) -> std::optional<Value> {
        if (source.type_name != "old_file") return std::nullopt;
        return Value::object(target, {{"id", Value::string("/a")},
                                      {"path", Value::string("/a")},
                                      {"content", Value::string("x")},
                                      {"sha", Value::null(Type::string())},
                                      {"mode", Value::null(Type::string())}});
      };
    }
    type = serve().resources.at("test_file").block.implied_type();
  }
  MoveResponse move(const std::string& source_type) const {
    MoveRequest req;
    req.source = MoveSource{"registry.opentofu.org/luaform/old", source_type, 2,
                            R"({"id":"/a","filename":"/a"})"};
    req.source_private = R"({"etag":"e1"})";
    req.target_type_name = "test_file";
    return service->move_resource_state(req);
  }
};

}  // namespace

TEST_CASE("a move the target's function takes gives its state and keeps the private data") {
  MoveFixture f(true);
  CHECK(f.service->get_metadata().capabilities.move_resource_state);
  const MoveResponse resp = f.move("old_file");
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  CHECK(resp.target_state.get_attribute("content") == Value::string("x"));
  CHECK(resp.target_private == R"({"etag":"e1"})");
}

TEST_CASE("a move from a type the function does not take is an error naming both types") {
  MoveFixture f(true);
  const MoveResponse resp = f.move("other_thing");
  REQUIRE(resp.diagnostics.has_errors());
  CHECK(resp.diagnostics.items()[0].summary == "Cannot move other_thing to test_file");
  CHECK(resp.target_state.is_null());
}

TEST_CASE("without a move function the capability is off and a move is refused") {
  MoveFixture f(false);
  CHECK_FALSE(f.service->get_provider_schema().capabilities.move_resource_state);
  const MoveResponse resp = f.move("old_file");
  REQUIRE(resp.diagnostics.has_errors());
  CHECK(resp.diagnostics.items()[0].detail.find("declares no move_state function") !=
        std::string::npos);
}
