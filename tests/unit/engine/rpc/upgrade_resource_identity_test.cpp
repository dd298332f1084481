// GetResourceIdentitySchemas and UpgradeResourceIdentity: which resources have an identity
// schema, and a stored identity read at the current version, upgraded from an older one by the
// script, or refused (a newer version, no upgrade, no identity, no such resource).
#include <doctest/doctest.h>

#include "identity_fixture.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

TEST_CASE("only resources that declare an identity have an identity schema") {
  IdentityFixture f;
  const GetIdentitySchemasResponse resp = f.service->get_resource_identity_schemas();
  REQUIRE(resp.identities.size() == 1);
  const ResourceIdentity* identity = resp.identities.at("test_file");
  REQUIRE(identity != nullptr);
  CHECK(identity->attributes.size() == 3);
  CHECK_FALSE(resp.diagnostics.has_errors());
}

TEST_CASE("a stored identity of the current version is read as it is") {
  IdentityFixture f;
  const UpgradeIdentityResponse resp = f.service->upgrade_resource_identity(
      {"test_file", 0, R"({"path":"/a","mode":"0644","owner":null})"});
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  CHECK(resp.upgraded_identity == f.identity("/a", "0644"));
}

TEST_CASE("an older identity goes through the script's identity upgrade") {
  IdentityFixture f(false, 1);
  f.logic->identity_upgrader = [&f](int64_t from, const std::string& raw, const Type& current,
                                    Diagnostics& diags) -> std::optional<Value> {
    CHECK(from == 0);
    CHECK(raw == R"({"file":"/a"})");
    CHECK(current == f.identity_type);
    (void)diags;
    return Value::object(current, {{"path", Value::string("/a")}});
  };
  const UpgradeIdentityResponse resp =
      f.service->upgrade_resource_identity({"test_file", 0, R"({"file":"/a"})"});
  REQUIRE_FALSE(resp.diagnostics.has_errors());
  CHECK(resp.upgraded_identity.get_attribute("path") == Value::string("/a"));
}

TEST_CASE("an identity that cannot be upgraded or is from a newer provider is refused") {
  IdentityFixture f(false, 1);
  const UpgradeIdentityResponse no_upgrade =
      f.service->upgrade_resource_identity({"test_file", 0, R"({"file":"/a"})"});
  REQUIRE(no_upgrade.diagnostics.has_errors());
  CHECK(no_upgrade.diagnostics.items()[0].detail.ends_with(
      "and it declares no identity upgrade from version 0."));
  CHECK(no_upgrade.upgraded_identity.is_null());

  const UpgradeIdentityResponse newer =
      f.service->upgrade_resource_identity({"test_file", 2, R"({"path":"/a"})"});
  REQUIRE(newer.diagnostics.has_errors());
  CHECK(newer.diagnostics.items()[0].summary == "Identity of test_file is from a newer provider");
}

TEST_CASE("an identity of an unknown resource, or of one that declares none, is refused") {
  IdentityFixture f;
  const UpgradeIdentityResponse unknown =
      f.service->upgrade_resource_identity({"test_nothing", 0, R"({"path":"/a"})"});
  REQUIRE(unknown.diagnostics.has_errors());
  CHECK(unknown.diagnostics.items()[0].summary == "Unknown resource type \"test_nothing\"");
  CHECK(unknown.upgraded_identity.is_null());

  const UpgradeIdentityResponse plain =
      f.service->upgrade_resource_identity({"test_plain", 0, R"({"path":"/a"})"});
  REQUIRE(plain.diagnostics.has_errors());
  CHECK(plain.diagnostics.items()[0].summary == "Resource test_plain has no identity");
}

TEST_CASE("a stored identity that does not match its schema is an error, not a value") {
  IdentityFixture f;
  const UpgradeIdentityResponse resp =
      f.service->upgrade_resource_identity({"test_file", 0, R"({"path":["not","text"]})"});
  CHECK(resp.diagnostics.has_errors());
  CHECK(resp.upgraded_identity.is_null());
}

TEST_CASE("an identity upgrade's errors are the answer, with no identity") {
  IdentityFixture f(false, 1);
  f.logic->identity_upgrader = [](int64_t, const std::string&, const Type& current,
                                  Diagnostics& diags) -> std::optional<Value> {
    diags.error("the old identity names no file");
    return Value::object(current, {{"path", Value::string("/wrong")}});
  };
  const UpgradeIdentityResponse resp =
      f.service->upgrade_resource_identity({"test_file", 0, R"({"file":"/a"})"});
  REQUIRE(resp.diagnostics.has_errors());
  CHECK(resp.diagnostics.items()[0].summary == "the old identity names no file");
  CHECK(resp.upgraded_identity.is_null());
}
