// InternalValidate over the whole provider (host/engine/rpc/declared_schema.h): a definition the
// schema's rules refuse is left out, at the line that declared it, and every other type serves.
// Before, one such mistake failed GetProviderSchema, and with it every plan of every type.
#include <doctest/doctest.h>

#include "host/engine/rpc/declared_schema.h"
#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

// A resource whose set block's attribute has requires_replace_if: refused by the rules.
Schema pool_schema() {
  Schema s = file_schema();
  Attribute weight = attribute("weight", Type::number(), false, true, false);
  weight.has_requires_replace_if = true;
  weight.declared_at = "resource_pool.lua:12";
  NestedBlock member;
  member.type_name = "member";
  member.nesting = NestingMode::Set;
  member.block.attributes = {weight};
  s.block.blocks = {member};
  return s;
}

}  // namespace

TEST_CASE("a definition the schema's rules refuse is left out at its line; the others serve") {
  auto logic = std::make_shared<ScriptedLogic>();
  logic->declared.resources["test_pool"] = pool_schema();
  logic->declared.resources["test_file"] = file_schema();
  ProviderService service(logic);
  const GetProviderSchemaResponse schema = service.get_provider_schema();
  CHECK(schema.diagnostics.items().size() == 1);  // told with every RPC, until a claim is set
  REQUIRE(service.load_problems().items().size() == 1);
  const Diagnostic& warning = service.load_problems().items()[0];
  CHECK(warning.severity == Severity::Warning);
  CHECK(warning.summary == "Cannot use resource test_pool: it is left out");
  CHECK(warning.detail.starts_with(
      "resource_pool.lua:12: resource test_pool.member: attribute \"weight\" cannot have "
      "requires_replace_if: It is inside a set"));
  // The stand-in has no arguments; the other resource keeps its whole schema.
  REQUIRE(schema.schema->resources.count("test_pool") == 1);
  CHECK(schema.schema->resources.at("test_pool").block.find_attribute("path") == nullptr);
  CHECK(schema.schema->resources.at("test_file").block.find_attribute("path") != nullptr);

  // A configuration of the left-out type is refused, saying why; the other one validates.
  const Type pool = schema.schema->resources.at("test_pool").block.implied_type();
  const Diagnostics refused = service.validate_resource_config({"test_pool", Value::null(pool)});
  REQUIRE(refused.has_errors());
  CHECK(refused.items()[0].summary == "Cannot use test_pool: its script does not load");
  CHECK(refused.items()[0].detail.starts_with("resource_pool.lua:12: "));
  // Once per CLI command: with ValidateProviderConfig alone, in the process whose claim
  // succeeds, asked once; the other RPCs give errors only.
  int claims = 0;
  service.tell_load_warnings_once([&] {
    ++claims;
    return false;
  });
  const Type provider = schema.schema->provider.block.implied_type();
  CHECK(service.validate_provider_config({"", Value::null(provider)}).empty());
  CHECK(service.validate_provider_config({"", Value::null(provider)}).empty());
  CHECK(claims == 1);
  CHECK(service.get_provider_schema().diagnostics.empty());
  ProviderService first(logic);
  first.tell_load_warnings_once([] { return true; });
  CHECK(first.validate_provider_config({"", Value::null(provider)}).items().size() == 1);
  CHECK(first.get_provider_schema().diagnostics.empty());

  const Type file = schema.schema->resources.at("test_file").block.implied_type();
  CHECK_FALSE(service.validate_resource_config({"test_file", Value::null(file)}).has_errors());
}

TEST_CASE("functions, list resources and the provider block each answer for themselves") {
  ProviderSchema declared;
  declared.resources["test_file"] = file_schema();
  declared.list_resources["test_file"] = Schema{};  // its resource has no identity
  Function bad;
  bad.returns = Type::string();
  FunctionParameter nameless;  // a parameter without a name
  nameless.type = Type::string();
  bad.parameters = {nameless};
  declared.functions["broken"] = bad;
  Function good;
  good.returns = Type::string();
  declared.functions["fine"] = good;

  Diagnostics diags;
  const ProviderSchema checked = with_problems_left_out(declared, diags);
  CHECK_FALSE(diags.has_errors());
  // A function left out is gone (the CLI checks signatures first); a list resource stands in.
  CHECK(checked.functions.count("broken") == 0);
  CHECK(checked.functions.count("fine") == 1);
  CHECK(checked.list_resources.count("test_file") == 1);
  CHECK(checked.left_out.count(left_out_key(SchemaOwner::ListResource, "test_file")) == 1);
  CHECK(checked.left_out.count(left_out_key(SchemaOwner::Resource, "test_file")) == 0);

  // The provider block's own problems stay errors: nothing could be configured without it.
  ProviderSchema broken_provider;
  Attribute both = attribute("endpoint", Type::string(), true, true, false);
  broken_provider.provider.block.attributes = {both};
  Diagnostics provider_diags;
  with_problems_left_out(broken_provider, provider_diags);
  CHECK(provider_diags.has_errors());
}

TEST_CASE("a state store's argument named provider is refused: the block holds the provider's") {
  auto logic = std::make_shared<ScriptedLogic>();
  Schema store;
  store.block.attributes = {attribute("provider", Type::string(), false, true, false)};
  logic->declared.state_stores["test_store"] = store;
  logic->declared.state_stores["test_other"] = Schema{};
  ProviderService service(logic);
  REQUIRE(service.load_problems().items().size() == 1);
  const Diagnostic& warning = service.load_problems().items()[0];
  CHECK(warning.summary == "Cannot use state store test_store: it is left out");
  CHECK(warning.detail.starts_with("state store test_store: \"provider\" is reserved"));
  CHECK(service.get_metadata().state_stores ==
        std::vector<std::string>{"test_other", "test_store"});
}
