// ImportResourceState: by id alone, or through the resource's own import function.
#include <doctest/doctest.h>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

using FileFixture = FileServiceFixture;

}  // namespace

TEST_CASE("import by id returns an object holding only the id") {
  FileFixture f;
  ImportResponse resp = f.service->import_resource_state(ImportRequest{"test_file", "/x"});
  REQUIRE(resp.imported.size() == 1);
  Value state = resp.imported[0].state;
  CHECK(state.get_attribute("id") == Value::string("/x"));
  CHECK(state.get_attribute("path").is_null());
  // Attributes with defaults hold them, so that a configuration leaving them out plans no
  // change after the import.
  CHECK(state.get_attribute("content") == Value::string(""));
}

TEST_CASE("an import function reads the import id into attributes and sets the real id") {
  FileFixture f;
  f.logic->callbacks[Operation::Import] = [](ResourceData& d) {
    CHECK(d.id() == "disk1:/x");
    d.set_id("/x");
    Diagnostics diags = d.set("mode", Value::string("0600"));
    diags.append(d.set("content", Value::string("read from the API")));
    return diags;
  };
  ImportResponse resp = f.service->import_resource_state(ImportRequest{"test_file", "disk1:/x"});
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  REQUIRE(resp.imported.size() == 1);
  Value state = resp.imported[0].state;
  CHECK(state.get_attribute("id") == Value::string("/x"));
  CHECK(state.get_attribute("mode") == Value::string("0600"));
  CHECK(state.get_attribute("content") == Value::string("read from the API"));  // not defaulted
}

TEST_CASE("an import function that fails or clears the id imports nothing") {
  FileFixture f;
  f.logic->callbacks[Operation::Import] = [](ResourceData&) { return failure_of("bad id"); };
  ImportResponse failed = f.service->import_resource_state(ImportRequest{"test_file", "x"});
  CHECK(failed.diagnostics.has_errors());
  CHECK(failed.imported.empty());
  f.logic->callbacks[Operation::Import] = [](ResourceData& d) {
    d.set_id("");
    return Diagnostics{};
  };
  ImportResponse cleared = f.service->import_resource_state(ImportRequest{"test_file", "x"});
  REQUIRE(cleared.diagnostics.has_errors());
  CHECK(cleared.diagnostics.items()[0].summary == "Cannot import test_file \"x\"");
  CHECK(cleared.imported.empty());
}

TEST_CASE("import of a type without an importer is an error") {
  FileFixture f(/*has_update=*/true, /*importable=*/false);
  ImportResponse resp = f.service->import_resource_state(ImportRequest{"test_file", "/x"});
  CHECK(resp.diagnostics.has_errors());
  CHECK(resp.imported.empty());
}
