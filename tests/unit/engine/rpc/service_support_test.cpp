// What the RPCs of ProviderService share (service_support.cpp): finding a type's schema, one
// session per RPC that hides its secrets in the answer, starting an import from an identity, and
// keeping the earlier spelling of values the script calls the same.
#include "host/engine/rpc/service_support.h"

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "identity_fixture.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

TEST_CASE("a type's schema is found by name; an unknown one is an error naming kind and name") {
  std::map<std::string, Schema> schemas{{"test_file", file_schema()}};
  Diagnostics diags;
  CHECK(detail::find_schema(schemas, "resource", "test_file", diags) == &schemas["test_file"]);
  CHECK(diags.empty());
  CHECK(detail::find_schema(schemas, "data source", "test_files", diags) == nullptr);
  REQUIRE(diags.items().size() == 1);
  CHECK(diags.items()[0].summary == "Unknown data source type \"test_files\"");
  CHECK(diags.items()[0].detail.find("no data source named \"test_files\"") != std::string::npos);
}

TEST_CASE("an RPC's session hides the provider's secrets and its own in what it answers") {
  ScriptedLogic logic;
  auto provider_secrets =
      std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"provider-t0ken"});
  const Diagnostics answered =
      detail::in_session<Diagnostics>(logic, provider_secrets, [](Session& session) {
        session.secrets().add(std::string("object-s3cret"));
        Diagnostics d;
        d.error("refused provider-t0ken", "the object's object-s3cret was wrong");
        return d;
      });
  REQUIRE(answered.items().size() == 1);
  CHECK(answered.items()[0].summary.find("provider-t0ken") == std::string::npos);
  CHECK(answered.items()[0].detail.find("object-s3cret") == std::string::npos);
  CHECK(answered.items()[0].detail.find("was wrong") != std::string::npos);

  // A response that is not diagnostics alone has its diagnostics hidden the same way.
  const GenerateConfigResponse response =
      detail::in_session<GenerateConfigResponse>(logic, provider_secrets, [](Session&) {
        GenerateConfigResponse r;
        r.diagnostics.warning("saw provider-t0ken");
        return r;
      });
  CHECK(response.diagnostics.items()[0].summary.find("provider-t0ken") == std::string::npos);
}

TEST_CASE("an import by identity starts from the identity's attributes of the same name") {
  IdentityFixture f;
  const Schema& schema = f.service->get_provider_schema().schema->resources.at("test_file");
  ResourceData d(schema, Value::null(f.type), Value::null(f.type), Value::null(f.type));
  Diagnostics diags;
  REQUIRE(detail::start_from_identity(schema, f.identity("/a", "0600"), "test_file", d, diags));
  CHECK(diags.empty());
  CHECK(d.get("path") == Value::string("/a"));
  CHECK(d.get("mode") == Value::string("0600"));
  CHECK(d.identity() == f.identity("/a", "0600"));  // owner, unset, stays unset
}

TEST_CASE("an import by identity without an attribute import requires is refused, naming it") {
  IdentityFixture f;
  const Schema& schema = f.service->get_provider_schema().schema->resources.at("test_file");
  ResourceData d(schema, Value::null(f.type), Value::null(f.type), Value::null(f.type));
  Diagnostics diags;
  const Value no_path =
      f.identity("/a", "0600").with_attribute("path", Value::null(Type::string()));
  CHECK_FALSE(detail::start_from_identity(schema, no_path, "test_file", d, diags));
  REQUIRE(diags.has_errors());
  CHECK(diags.items()[0].summary == "Cannot import test_file by identity");
  CHECK(diags.items()[0].path == AttributePath{AttributeName{"path"}});
  CHECK(d.get("mode").is_null());  // nothing was started from it
}

TEST_CASE("values the script calls the same keep their earlier spelling; others take the later") {
  ScriptedLogic logic;
  Schema schema = file_schema();
  const Type type = schema.block.implied_type();
  const auto file = [&](const char* content, const char* mode) {
    return Value::object(type, {{"path", Value::string("/a")},
                                {"content", Value::string(content)},
                                {"mode", Value::string(mode)}});
  };
  logic.equivalences["content"] = [](const Value& earlier, const Value& later) {
    return earlier.as_string() + "\n" == later.as_string();
  };
  Session session(logic);
  Diagnostics diags;
  // No attribute says it has an equivalence: the later object, and no script asked.
  CHECK(detail::keep_same_values(session, "test_file", schema, file("x", "0644"),
                                 file("x\n", "0600"), diags) == file("x\n", "0600"));
  CHECK(logic.compared.empty());

  for (auto& attr : schema.block.attributes) {
    if (attr.name == "content") attr.has_equivalence = true;
  }
  CHECK(detail::keep_same_values(session, "test_file", schema, file("x", "0644"),
                                 file("x\n", "0600"), diags) == file("x", "0600"));
  CHECK(detail::keep_same_values(session, "test_file", schema, file("x", "0644"), file("y", "0644"),
                                 diags) == file("y", "0644"));
  CHECK(diags.empty());
}
