// GenerateResourceConfig: the configuration the CLI writes for a stored object (after an import
// block with -generate-config-out, and for `terraform query`), which must then plan with nothing
// to change. The rule that makes it is rules/generated_config.cpp's (tested beside it).
#include <doctest/doctest.h>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

TEST_CASE("the provider generates configuration, and plans it with nothing to change") {
  auto logic = std::make_shared<ScriptedLogic>();
  logic->declared.resources["test_file"] = file_schema();
  ProviderService service(logic);
  CHECK(service.get_provider_schema().capabilities.generate_resource_config);
  const Type type =
      service.get_provider_schema().schema->resources.at("test_file").block.implied_type();
  const Value state = Value::object(type, {{"id", Value::string("/a")},
                                           {"path", Value::string("/a")},
                                           {"content", Value::string("")},
                                           {"sha", Value::string("e3b0")},
                                           {"mode", Value::string("0644")}});

  const GenerateConfigResponse generated =
      service.generate_resource_config(GenerateConfigRequest{"test_file", state});
  REQUIRE_FALSE(generated.diagnostics.has_errors());
  const Value config = generated.config;
  CHECK(config.get_attribute("path") == Value::string("/a"));
  CHECK(config.get_attribute("content").is_null());
  CHECK(config.get_attribute("sha").is_null());
  CHECK(config.get_attribute("mode") == Value::string("0644"));

  // The CLI proposes the config plus the stored values of computed attributes it leaves null.
  Value proposed = config.with_attribute("id", state.get_attribute("id"))
                       .with_attribute("sha", state.get_attribute("sha"));
  const PlanResponse plan =
      service.plan_resource_change(PlanRequest{"test_file", state, proposed, config, {}});
  REQUIRE_FALSE(plan.diagnostics.has_errors());
  CHECK(plan.planned_state == state);
  CHECK(plan.requires_replace.empty());

  const GenerateConfigResponse unknown =
      service.generate_resource_config(GenerateConfigRequest{"test_nothing", state});
  REQUIRE(unknown.diagnostics.has_errors());
  CHECK(unknown.diagnostics.items()[0].summary == "Unknown resource type \"test_nothing\"");
}

TEST_CASE("generated configuration leaves out what only the provider sets, secrets included") {
  auto logic = std::make_shared<ScriptedLogic>();
  Schema s = file_schema();
  Attribute token = attribute("token", Type::string(), false, true, false);
  token.sensitive = true;
  Attribute secret = attribute("secret", Type::string(), false, false, true);
  secret.sensitive = true;
  s.block.attributes.push_back(token);
  s.block.attributes.push_back(secret);
  logic->declared.resources["test_file"] = s;
  ProviderService service(logic);
  const Type type =
      service.get_provider_schema().schema->resources.at("test_file").block.implied_type();
  const Value state = Value::object(type, {{"id", Value::string("/a")},
                                           {"path", Value::string("/a")},
                                           {"content", Value::string("x")},
                                           {"sha", Value::string("e3b0")},
                                           {"mode", Value::string("0644")},
                                           {"token", Value::string("t0k3n")},
                                           {"secret", Value::string("made by the server")}});
  const GenerateConfigResponse generated =
      service.generate_resource_config(GenerateConfigRequest{"test_file", state});
  REQUIRE_FALSE(generated.diagnostics.has_errors());
  // A sensitive argument the user sets is theirs to write; a computed secret is the provider's.
  CHECK(generated.config.get_attribute("token") == Value::string("t0k3n"));
  CHECK(generated.config.get_attribute("secret").is_null());
  CHECK(generated.config.get_attribute("id").is_null());
}
