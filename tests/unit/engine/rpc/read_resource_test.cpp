// ReadResourceState: the logic's read refreshes the state; gone, failed and drifted objects.
#include <doctest/doctest.h>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

using FileFixture = FileServiceFixture;

}  // namespace

TEST_CASE("read that clears the id reports the object gone") {
  FileFixture f;
  f.logic->callbacks[Operation::Read] = [](ResourceData& d) {
    d.set_id("");
    return Diagnostics{};
  };
  ReadResponse resp = f.service->read_resource(ReadRequest{"test_file", f.existing(), {}});
  CHECK_FALSE(resp.diagnostics.has_errors());
  CHECK(resp.new_state.is_null());
}

TEST_CASE("read that fails keeps the current state") {
  FileFixture f;
  f.logic->callbacks[Operation::Read] = [](ResourceData&) { return failure_of("unreachable"); };
  ReadResponse resp = f.service->read_resource(ReadRequest{"test_file", f.existing(), {}});
  CHECK(resp.diagnostics.has_errors());
  CHECK(resp.new_state == f.existing());
}

TEST_CASE("read sees drift set by the function") {
  FileFixture f;
  f.logic->callbacks[Operation::Read] = [](ResourceData& d) {
    return d.set("content", Value::string("changed outside"));
  };
  ReadResponse resp = f.service->read_resource(ReadRequest{"test_file", f.existing(), {}});
  CHECK(resp.new_state.get_attribute("content") == Value::string("changed outside"));
}
