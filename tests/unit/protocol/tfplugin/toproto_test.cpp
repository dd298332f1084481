#include "host/protocol/tfplugin/toproto.h"

#include <doctest/doctest.h>

#include "host/engine/codec/json_codec.h"
#include "host/protocol/proto/tfplugin5.pb.h"
#include "host/protocol/proto/tfplugin6.pb.h"
#include "tests/unit/protocol/test_provider.h"

namespace luaform::protocol {
namespace {

using engine::Type;

engine::Block sample_block() {
  engine::Block b;
  engine::Attribute name;
  name.name = "name";
  name.type = Type::string();
  name.required = true;
  name.description = "The **name**.";
  name.description_markdown = true;
  engine::Attribute secret;
  secret.name = "secret";
  secret.type = Type::map(Type::number());
  secret.optional = true;
  secret.computed = true;
  secret.sensitive = true;
  secret.deprecated = "use name";
  b.attributes = {name, secret};
  engine::NestedBlock disk;
  disk.type_name = "disk";
  disk.nesting = engine::NestingMode::Set;
  disk.min_items = 1;
  disk.max_items = 3;
  engine::Attribute size;
  size.name = "size";
  size.type = Type::number();
  size.optional = true;
  disk.block.attributes = {size};
  disk.block.description = "A disk.";
  b.blocks = {disk};
  b.description = "plain text";
  b.deprecated = "gone soon";
  return b;
}

TEST_CASE("a computed block says so in its block (protocol 6.11)") {
  engine::Block b = sample_block();
  b.blocks[0].min_items = 0;
  b.blocks[0].computed = true;
  tfplugin6::Schema::Block out;
  toproto::schema_block(b, &out);
  CHECK(out.block_types(0).block().computed());
}

TEST_CASE("schema blocks carry types as cty JSON, flags, descriptions and nesting (v6)") {
  tfplugin6::Schema::Block out;
  toproto::schema_block(sample_block(), &out);

  REQUIRE(out.attributes_size() == 2);
  const auto& name = out.attributes(0);
  CHECK(name.name() == "name");
  CHECK(name.type() == engine::encode_type_json(Type::string()));
  CHECK(name.type() == "\"string\"");
  CHECK(name.required());
  CHECK_FALSE(name.optional());
  CHECK(name.description() == "The **name**.");
  CHECK(name.description_kind() == tfplugin6::MARKDOWN);
  CHECK_FALSE(name.has_nested_type());

  const auto& secret = out.attributes(1);
  CHECK(secret.type() == "[\"map\",\"number\"]");
  CHECK(secret.optional());
  CHECK(secret.computed());
  CHECK(secret.sensitive());
  CHECK(secret.deprecated());
  CHECK(secret.description_kind() == tfplugin6::PLAIN);

  REQUIRE(out.block_types_size() == 1);
  const auto& disk = out.block_types(0);
  CHECK(disk.type_name() == "disk");
  CHECK(disk.nesting() == tfplugin6::Schema::NestedBlock::SET);
  CHECK(disk.min_items() == 1);
  CHECK(disk.max_items() == 3);
  CHECK_FALSE(disk.block().computed());
  CHECK(disk.block().description() == "A disk.");
  REQUIRE(disk.block().attributes_size() == 1);
  CHECK(disk.block().attributes(0).name() == "size");

  CHECK(out.description() == "plain text");
  CHECK(out.description_kind() == tfplugin6::PLAIN);
  CHECK(out.deprecated());
}

TEST_CASE("every nesting mode maps to the protocol's enum value of the same name") {
  using N = tfplugin6::Schema::NestedBlock;
  CHECK(toproto::nesting_mode<N>(engine::NestingMode::Single) == N::SINGLE);
  CHECK(toproto::nesting_mode<N>(engine::NestingMode::List) == N::LIST);
  CHECK(toproto::nesting_mode<N>(engine::NestingMode::Set) == N::SET);
  CHECK(toproto::nesting_mode<N>(engine::NestingMode::Map) == N::MAP);
  CHECK(toproto::nesting_mode<N>(engine::NestingMode::Group) == N::GROUP);
}

TEST_CASE("protocol 5 schemas are converted by the same rules") {
  tfplugin5::Schema::Block out;
  toproto::schema_block(sample_block(), &out);
  REQUIRE(out.attributes_size() == 2);
  CHECK(out.attributes(0).description_kind() == tfplugin5::MARKDOWN);
  CHECK(out.attributes(1).sensitive());
  REQUIRE(out.block_types_size() == 1);
  CHECK(out.block_types(0).nesting() == tfplugin5::Schema::NestedBlock::SET);
}

TEST_CASE("diagnostics keep severity, text and attribute path steps") {
  engine::Diagnostics diags;
  diags.error("bad size", "must be positive",
              {engine::AttributeName{"disk"}, engine::ElementIndex{2},
               engine::AttributeName{"tags"}, engine::ElementKey{"env"}});
  diags.warning("heads up");

  tfplugin6::ValidateResourceConfig::Response resp;
  toproto::diagnostics(diags, &resp);
  REQUIRE(resp.diagnostics_size() == 2);

  const auto& err = resp.diagnostics(0);
  CHECK(err.severity() == tfplugin6::Diagnostic::ERROR);
  CHECK(err.summary() == "bad size");
  CHECK(err.detail() == "must be positive");
  REQUIRE(err.has_attribute());
  const auto& steps = err.attribute().steps();
  REQUIRE(steps.size() == 4);
  CHECK(steps[0].attribute_name() == "disk");
  CHECK(steps[1].element_key_int() == 2);
  CHECK(steps[2].attribute_name() == "tags");
  CHECK(steps[3].element_key_string() == "env");

  const auto& warn = resp.diagnostics(1);
  CHECK(warn.severity() == tfplugin6::Diagnostic::WARNING);
  // A diagnostic about nothing in particular has no path at all, not an empty one.
  CHECK_FALSE(warn.has_attribute());
}

TEST_CASE("the provider schema response advertises optional schema fetches and no plan_destroy") {
  auto service = testing::file_provider();
  tfplugin6::GetProviderSchema::Response resp;
  toproto::provider_schema(service->get_provider_schema(), &resp);

  CHECK(resp.server_capabilities().get_provider_schema_optional());
  CHECK_FALSE(resp.server_capabilities().plan_destroy());
  CHECK(resp.diagnostics_size() == 0);
  CHECK(resp.has_provider());
  REQUIRE(resp.resource_schemas().count("test_file") == 1);
  REQUIRE(resp.data_source_schemas().count("test_stat") == 1);
  const auto& file = resp.resource_schemas().at("test_file").block();
  bool has_path = false;
  for (const auto& a : file.attributes()) has_path = has_path || a.name() == "path";
  CHECK(has_path);
}

TEST_CASE("a schema that failed to load still sends a provider block beside the diagnostics") {
  engine::GetProviderSchemaResponse failed;
  failed.diagnostics.error("syntax error in widget.lua");
  tfplugin5::GetProviderSchema::Response resp;
  toproto::provider_schema(failed, &resp);
  CHECK(resp.has_provider());
  CHECK(resp.provider().has_block());
  REQUIRE(resp.diagnostics_size() == 1);
  CHECK(resp.diagnostics(0).summary() == "syntax error in widget.lua");
}

TEST_CASE("nested attributes are sent as nested_type on v6 and refused on v5") {
  auto nested = std::make_shared<engine::NestedBlock>();
  nested->type_name = "subnets";
  nested->nesting = engine::NestingMode::List;
  engine::Attribute cidr;
  cidr.name = "cidr";
  cidr.type = Type::string();
  cidr.required = true;
  nested->block.attributes = {cidr};
  engine::Attribute subnets;
  subnets.name = "subnets";
  subnets.type = nested->implied_type();
  subnets.optional = true;
  subnets.nested = nested;
  engine::ProviderSchema declared;
  declared.resources["test_net"].block.attributes = {subnets};
  engine::GetProviderSchemaResponse response;
  response.schema = &declared;

  tfplugin6::GetProviderSchema::Response v6;
  toproto::provider_schema(response, &v6);
  CHECK(v6.diagnostics_size() == 0);
  const auto& attr = v6.resource_schemas().at("test_net").block().attributes(0);
  CHECK(attr.type().empty());
  CHECK(attr.nested_type().nesting() == tfplugin6::Schema::Object::LIST);
  REQUIRE(attr.nested_type().attributes_size() == 1);
  CHECK(attr.nested_type().attributes(0).name() == "cidr");
  CHECK(attr.nested_type().attributes(0).type() == "\"string\"");
  CHECK(attr.nested_type().attributes(0).required());

  tfplugin5::GetProviderSchema::Response v5;
  toproto::provider_schema(response, &v5);
  REQUIRE(v5.diagnostics_size() == 1);
  CHECK(v5.diagnostics(0).summary() == "This provider needs protocol 6");
  CHECK(v5.resource_schemas().empty());
  CHECK(v5.has_provider());
}

TEST_CASE("dynamic values prefer msgpack and fall back to JSON") {
  tfplugin6::DynamicValue out;
  toproto::dynamic_value(engine::wire::DynamicValue{"\x81", "{}"}, &out);
  CHECK(out.msgpack() == "\x81");
  CHECK(out.json().empty());
  tfplugin6::DynamicValue json_only;
  toproto::dynamic_value(engine::wire::DynamicValue{"", "{}"}, &json_only);
  CHECK(json_only.json() == "{}");
}

TEST_CASE("plans report requires_replace paths and never claim the legacy type system") {
  engine::wire::PlanResponse plan;
  plan.planned_state.msgpack = "\xc0";
  plan.requires_replace = {{engine::AttributeName{"path"}}};
  plan.planned_private = "p";
  tfplugin6::PlanResourceChange::Response resp;
  toproto::plan_response(plan, &resp);
  CHECK(resp.planned_state().msgpack() == "\xc0");
  REQUIRE(resp.requires_replace_size() == 1);
  CHECK(resp.requires_replace(0).steps(0).attribute_name() == "path");
  CHECK(resp.planned_private() == "p");
  CHECK_FALSE(resp.legacy_type_system());
}

TEST_CASE("functions are described with typed parameters, flags and texts on both protocols") {
  engine::FunctionParameter text;
  text.name = "text";
  text.type = Type::string();
  text.allow_null = true;
  text.description = "The `text`.";
  text.description_markdown = true;
  engine::FunctionParameter rest;
  rest.name = "rest";
  rest.type = Type::dynamic();
  rest.allow_unknown = true;
  engine::Function f;
  f.parameters = {text};
  f.variadic = rest;
  f.returns = Type::list(Type::number());
  f.summary = "Sums";
  f.description = "Sums things.";
  f.deprecated = "use add";
  engine::ProviderSchema schema;
  schema.functions["sum"] = f;
  engine::GetProviderSchemaResponse r;
  r.schema = &schema;

  tfplugin6::GetProviderSchema::Response v6;
  toproto::provider_schema(r, &v6);
  const auto& sum = v6.functions().at("sum");
  REQUIRE(sum.parameters_size() == 1);
  CHECK(sum.parameters(0).name() == "text");
  CHECK(sum.parameters(0).type() == "\"string\"");
  CHECK(sum.parameters(0).allow_null_value());
  CHECK_FALSE(sum.parameters(0).allow_unknown_values());
  CHECK(sum.parameters(0).description_kind() == tfplugin6::MARKDOWN);
  CHECK(sum.variadic_parameter().type() == "\"dynamic\"");
  CHECK(sum.variadic_parameter().allow_unknown_values());
  CHECK(sum.return_().type() == R"(["list","number"])");
  CHECK(sum.summary() == "Sums");
  CHECK(sum.description() == "Sums things.");
  CHECK(sum.deprecation_message() == "use add");

  tfplugin5::GetProviderSchema::Response v5;
  toproto::provider_schema(r, &v5);
  CHECK(v5.functions().at("sum").SerializeAsString() == sum.SerializeAsString());
}

TEST_CASE("a function call answers with its result, or with the error and the argument") {
  engine::wire::CallFunctionResponse ok;
  ok.result.msgpack = "\xa1x";
  tfplugin6::CallFunction::Response resp;
  toproto::call_function_response(ok, &resp);
  CHECK(resp.result().msgpack() == "\xa1x");
  CHECK_FALSE(resp.has_error());

  engine::wire::CallFunctionResponse failed;
  failed.error = engine::FunctionFailure{"bad", 2};
  tfplugin5::CallFunction::Response resp5;
  toproto::call_function_response(failed, &resp5);
  CHECK_FALSE(resp5.has_result());
  CHECK(resp5.error().text() == "bad");
  CHECK(resp5.error().function_argument() == 2);
}

TEST_CASE("a deferred answer carries its reason, and an answer that is not deferred none") {
  engine::wire::PlanResponse plan;
  tfplugin6::PlanResourceChange::Response now;
  toproto::plan_response(plan, &now);
  CHECK_FALSE(now.has_deferred());

  plan.deferred = engine::DeferralReason::ProviderConfigUnknown;
  tfplugin5::PlanResourceChange::Response later;
  toproto::plan_response(plan, &later);
  REQUIRE(later.has_deferred());
  CHECK(later.deferred().reason() == tfplugin5::Deferred::PROVIDER_CONFIG_UNKNOWN);

  engine::wire::ReadDataResponse data;
  data.deferred = engine::DeferralReason::ProviderConfigUnknown;
  tfplugin6::ReadDataSource::Response read;
  toproto::read_data_response(data, &read);
  CHECK(read.deferred().reason() == tfplugin6::Deferred::PROVIDER_CONFIG_UNKNOWN);
}

TEST_CASE("a listed object's event carries its identity, name, object and warnings") {
  engine::wire::ListEvent e;
  e.identity.msgpack = std::string("\x81\xa4") + "path\xa1" + "a";
  e.display_name = "a";
  e.resource_object.msgpack = "\x80";
  e.diagnostics.warning("Slow", "the listing took long");
  tfplugin6::ListResource::Event event;
  toproto::list_event(e, &event);
  CHECK(event.identity().identity_data().msgpack() == e.identity.msgpack);
  CHECK(event.display_name() == "a");
  CHECK(event.resource_object().msgpack() == "\x80");
  REQUIRE(event.diagnostic_size() == 1);
  CHECK(event.diagnostic(0).summary() == "Slow");

  // An event of diagnostics alone has no identity and no object.
  engine::wire::ListEvent failed;
  failed.diagnostics.error("Listing failed");
  tfplugin5::ListResource::Event only;
  toproto::list_event(failed, &only);
  CHECK_FALSE(only.has_identity());
  CHECK_FALSE(only.has_resource_object());
  CHECK(only.diagnostic(0).severity() == tfplugin5::Diagnostic::ERROR);
}

TEST_CASE("an action's events are a progress message, or its completion with diagnostics") {
  engine::ActionEvent progress;
  progress.progress = "copying 3 of 10";
  tfplugin6::InvokeAction::Event first;
  toproto::action_event(progress, &first);
  CHECK(first.progress().message() == "copying 3 of 10");
  CHECK_FALSE(first.has_completed());

  engine::ActionEvent done;
  done.completed = true;
  done.diagnostics.error("Refused");
  tfplugin5::InvokeAction::Event last;
  toproto::action_event(done, &last);
  CHECK_FALSE(last.has_progress());
  REQUIRE(last.has_completed());
  CHECK(last.completed().diagnostics(0).summary() == "Refused");

  // A clean completion is still a completion (the CLI panics on an event that is neither).
  engine::ActionEvent clean;
  clean.completed = true;
  tfplugin6::InvokeAction::Event end;
  toproto::action_event(clean, &end);
  CHECK(end.has_completed());
}

TEST_CASE("action and list schemas are served, the action's wrapped in an ActionSchema") {
  engine::ProviderSchema schema;
  engine::Schema filters;
  filters.block.description = "Servers by name";
  schema.list_resources["demo_server"] = filters;
  engine::Schema reboot;
  reboot.block.description = "Reboots";
  schema.actions["demo_reboot"] = reboot;
  engine::GetProviderSchemaResponse r;
  r.schema = &schema;
  tfplugin6::GetProviderSchema::Response resp;
  toproto::provider_schema(r, &resp);
  CHECK(resp.list_resource_schemas().at("demo_server").block().description() == "Servers by name");
  REQUIRE(resp.action_schemas().at("demo_reboot").has_schema());
  CHECK(resp.action_schemas().at("demo_reboot").schema().block().description() == "Reboots");
}

// Text that is not UTF-8: a Latin-1 "été", a "café" cut inside its é, an ANSI escape.
const std::string kLatin1 = "\xE9t\xE9";
const std::string kCut = "caf\xC3";
const std::string kFFFD = "\xEF\xBF\xBD";

// Whether `message` reads back from its bytes as the CLI reads it: proto3's strings must be
// UTF-8, and protobuf refuses the whole message otherwise (Go's "string field contains invalid
// UTF-8"; C++ parses as strictly).
template <class Message>
bool cli_accepts(const Message& message) {
  Message read;
  return read.ParseFromString(message.SerializeAsString());
}

TEST_CASE("a message with a string that is not UTF-8 is refused whole when read back") {
  tfplugin6::Diagnostic bad;
  bad.set_summary(kCut);  // what the host sent before it repaired text
  CHECK_FALSE(cli_accepts(bad));
}

TEST_CASE("diagnostics carry text that is not UTF-8 as U+FFFD, in every field and path step") {
  engine::Diagnostics diags;
  diags.error(
      kCut, "the server said " + kLatin1,
      {engine::AttributeName{"t" + kLatin1}, engine::ElementKey{kCut}, engine::ElementIndex{1}});
  diags.warning(kCut);

  tfplugin6::ApplyResourceChange::Response v6;
  v6.mutable_new_state()->set_msgpack(
      "\x81\xa2id\xa1"
      "1");  // bytes: sent as they are
  toproto::diagnostics(diags, &v6);
  CHECK(cli_accepts(v6));
  CHECK(v6.new_state().msgpack() ==
        "\x81\xa2id\xa1"
        "1");
  REQUIRE(v6.diagnostics_size() == 2);
  CHECK(v6.diagnostics(0).summary() == "caf" + kFFFD);
  CHECK(v6.diagnostics(0).detail() == "the server said " + kFFFD + "t" + kFFFD);
  const auto& steps = v6.diagnostics(0).attribute().steps();
  REQUIRE(steps.size() == 3);
  CHECK(steps[0].attribute_name() == "t" + kFFFD + "t" + kFFFD);
  CHECK(steps[1].element_key_string() == "caf" + kFFFD);
  CHECK(steps[2].element_key_int() == 1);
  CHECK(v6.diagnostics(1).summary() == "caf" + kFFFD);

  tfplugin5::ApplyResourceChange::Response v5;
  toproto::diagnostics(diags, &v5);
  CHECK(cli_accepts(v5));
  CHECK(v5.diagnostics(0).attribute().steps(1).element_key_string() == "caf" + kFFFD);

  // Requires-replace paths are attribute paths too.
  engine::wire::PlanResponse plan;
  plan.requires_replace = {{engine::AttributeName{"tags"}, engine::ElementKey{kLatin1}}};
  tfplugin6::PlanResourceChange::Response planned;
  toproto::plan_response(plan, &planned);
  CHECK(cli_accepts(planned));
}

TEST_CASE("a function's error, an action's progress and a listed name are made UTF-8") {
  engine::wire::CallFunctionResponse failed;
  failed.error = engine::FunctionFailure{"no " + kCut, 1};
  tfplugin6::CallFunction::Response call;
  toproto::call_function_response(failed, &call);
  CHECK(cli_accepts(call));
  CHECK(call.error().text() == "no caf" + kFFFD);

  engine::ActionEvent progress;
  progress.progress = "copying " + kLatin1;
  tfplugin5::InvokeAction::Event event;
  toproto::action_event(progress, &event);
  CHECK(cli_accepts(event));
  CHECK(event.progress().message() == "copying " + kFFFD + "t" + kFFFD);

  engine::wire::ListEvent listed;
  listed.display_name = kCut;
  listed.diagnostics.warning(kLatin1);
  tfplugin6::ListResource::Event found;
  toproto::list_event(listed, &found);
  CHECK(cli_accepts(found));
  CHECK(found.display_name() == "caf" + kFFFD);
  CHECK(found.diagnostic(0).summary() == kFFFD + "t" + kFFFD);
}

TEST_CASE("a listed name's control characters are escaped: it cannot forge a result line") {
  engine::wire::ListEvent listed;
  listed.display_name = "Dune\nlist.shelf_book.all isbn=999 \x1b[31mForged\x1b[0m\r\t";
  tfplugin5::ListResource::Event found;
  toproto::list_event(listed, &found);
  CHECK(found.display_name() ==
        "Dune\\nlist.shelf_book.all isbn=999 \\x1b[31mForged\\x1b[0m\\r\\t");
  listed.display_name = "caf\xC3\xA9 \xE2\x82\xAC";  // well-formed and printable: as it is
  tfplugin6::ListResource::Event plain;
  toproto::list_event(listed, &plain);
  CHECK(plain.display_name() == "caf\xC3\xA9 \xE2\x82\xAC");
}

TEST_CASE("schema names and texts from scripts are made UTF-8, map keys included") {
  engine::ProviderSchema schema;
  engine::Schema resource;
  resource.block = sample_block();
  resource.block.description = "Caf" + kLatin1;
  resource.block.attributes[0].description = kCut;
  resource.block.attributes[1].deprecated = kLatin1;
  resource.block.blocks[0].type_name = "d" + kLatin1;
  schema.resources["demo_" + kCut] = resource;
  engine::Function f;
  f.returns = Type::string();
  f.summary = kCut;
  f.description = kLatin1;
  f.deprecated = kCut;
  engine::FunctionParameter p;
  p.name = kCut;
  p.type = Type::string();
  p.description = kLatin1;
  f.parameters = {p};
  schema.functions["f" + kLatin1] = f;
  engine::GetProviderSchemaResponse r;
  r.schema = &schema;

  tfplugin6::GetProviderSchema::Response v6;
  toproto::provider_schema(r, &v6);
  CHECK(cli_accepts(v6));
  const auto& block = v6.resource_schemas().at("demo_caf" + kFFFD).block();
  CHECK(block.description() == "Caf" + kFFFD + "t" + kFFFD);
  CHECK(block.attributes(0).description() == "caf" + kFFFD);
  CHECK(block.block_types(0).type_name() == "d" + kFFFD + "t" + kFFFD);
  const auto& function = v6.functions().at("f" + kFFFD + "t" + kFFFD);
  CHECK(function.summary() == "caf" + kFFFD);
  CHECK(function.parameters(0).name() == "caf" + kFFFD);

  tfplugin5::GetProviderSchema::Response v5;
  toproto::provider_schema(r, &v5);
  CHECK(cli_accepts(v5));

  engine::GetMetadataResponse metadata;
  metadata.resources = {"demo_" + kCut};
  metadata.functions = {"f" + kLatin1};
  tfplugin6::GetProviderMetadata::Response meta;
  toproto::metadata_response(metadata, &meta);
  CHECK(cli_accepts(meta));
  CHECK(meta.resources(0).type_name() == "demo_caf" + kFFFD);
}

}  // namespace
}  // namespace luaform::protocol
