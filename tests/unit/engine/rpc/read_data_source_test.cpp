// ReadDataSource: the logic reads from the configuration; the state is whole, with an id even
// when the author set none, and a failed read answers no state.
#include <doctest/doctest.h>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

// test_lookup: `name` (required) picks an object; `size` (optional, default 1) and `address`
// (computed) are what the read finds.
struct LookupFixture : ServiceFixture {
  Type type;

  LookupFixture() {
    Schema lookup;
    Attribute size = attribute("size", Type::number(), false, true, false);
    size.default_value = Value::number(1);
    lookup.block.attributes = {attribute("name", Type::string(), true, false, false), size,
                               attribute("address", Type::string(), false, false, true)};
    logic->declared.data_sources["test_lookup"] = lookup;
    type = serve().data_sources.at("test_lookup").block.implied_type();
  }
  ReadDataResponse read(const char* name) const {
    return service->read_data_source(
        ReadDataRequest{"test_lookup", Value::object(type, {{"name", Value::string(name)}})});
  }
};

}  // namespace

TEST_CASE("a data source reads from its configuration, with defaults, into a whole state") {
  LookupFixture f;
  f.logic->callbacks[Operation::ReadData] = [](ResourceData& d) {
    CHECK(d.get("size") == Value::number(1));  // the default, as the configuration left it out
    return d.set("address", Value::string("10.0.0.1 for " + d.get("name").as_string()));
  };
  const ReadDataResponse resp = f.read("web");
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  CHECK(resp.state.get_attribute("address") == Value::string("10.0.0.1 for web"));
  CHECK(resp.state.get_attribute("size") == Value::number(1));
  // The author set no id: the state still has one, the type's name.
  CHECK(resp.state.get_attribute("id") == Value::string("test_lookup"));
}

TEST_CASE("a data source's own id is kept, and a failed read answers no state") {
  LookupFixture f;
  f.logic->callbacks[Operation::ReadData] = [](ResourceData& d) {
    if (d.get("name") == Value::string("missing")) return failure_of("no object named missing");
    d.set_id("obj-7");
    return Diagnostics{};
  };
  CHECK(f.read("web").state.get_attribute("id") == Value::string("obj-7"));
  const ReadDataResponse failed = f.read("missing");
  REQUIRE(failed.diagnostics.has_errors());
  CHECK(failed.diagnostics.items()[0].summary == "no object named missing");
  CHECK(failed.state.is_null());
}

TEST_CASE("a data source of a type the provider lacks is an error naming it") {
  LookupFixture f;
  const ReadDataResponse resp =
      f.service->read_data_source(ReadDataRequest{"test_nothing", Value()});
  REQUIRE(resp.diagnostics.has_errors());
  CHECK(resp.diagnostics.items()[0].summary == "Unknown data source type \"test_nothing\"");
}
