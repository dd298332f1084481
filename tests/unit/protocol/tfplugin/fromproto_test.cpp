#include "host/protocol/tfplugin/fromproto.h"

#include <doctest/doctest.h>

#include "host/protocol/proto/tfplugin5.pb.h"
#include "host/protocol/proto/tfplugin6.pb.h"

namespace luaform::protocol {
namespace {

TEST_CASE("plan requests carry every state, the config and the prior private data") {
  tfplugin6::PlanResourceChange::Request req;
  req.set_type_name("test_file");
  req.mutable_prior_state()->set_msgpack("prior");
  req.mutable_proposed_new_state()->set_msgpack("proposed");
  req.mutable_config()->set_json("{\"path\":\"x\"}");
  req.set_prior_private("secret");
  auto out = fromproto::plan_request(req);
  CHECK(out.type_name == "test_file");
  CHECK(out.prior_state.msgpack == "prior");
  CHECK(out.proposed_new_state.msgpack == "proposed");
  CHECK(out.config.json == "{\"path\":\"x\"}");
  CHECK(out.prior_private == "secret");
}

TEST_CASE("an unset DynamicValue arrives as an empty engine value") {
  tfplugin5::ApplyResourceChange::Request req;
  req.set_type_name("test_file");
  auto out = fromproto::apply_request(req);
  CHECK(out.planned_state.empty());
  CHECK(out.prior_state.empty());
}

TEST_CASE("upgrade requests pass JSON and flatmap raw state through") {
  tfplugin5::UpgradeResourceState::Request req;
  req.set_type_name("test_file");
  req.set_version(3);
  req.mutable_raw_state()->set_json("{\"id\":\"1\"}");
  (*req.mutable_raw_state()->mutable_flatmap())["id"] = "1";
  auto out = fromproto::upgrade_request(req);
  CHECK(out.version == 3);
  CHECK(out.raw_state_json == "{\"id\":\"1\"}");
  CHECK(out.raw_state_flatmap.at("id") == "1");
}

TEST_CASE("attribute paths from the CLI become engine paths step by step") {
  tfplugin6::AttributePath path;
  path.add_steps()->set_attribute_name("disk");
  path.add_steps()->set_element_key_int(1);
  path.add_steps()->set_element_key_string("k");
  auto out = fromproto::attribute_path(path);
  REQUIRE(out.size() == 3);
  CHECK(std::get<engine::AttributeName>(out[0]).name == "disk");
  CHECK(std::get<engine::ElementIndex>(out[1]).index == 1);
  CHECK(std::get<engine::ElementKey>(out[2]).key == "k");
}

TEST_CASE("read requests keep the private data the CLI stored") {
  tfplugin6::ReadResource::Request req;
  req.set_type_name("test_file");
  req.mutable_current_state()->set_msgpack("state");
  req.set_private_("opaque");
  auto out = fromproto::read_request(req);
  CHECK(out.current_state.msgpack == "state");
  CHECK(out.private_data == "opaque");
}

}  // namespace
}  // namespace luaform::protocol

namespace luaform::protocol {

TEST_CASE("a CLI that allows deferrals says so in each request that can be deferred") {
  tfplugin6::PlanResourceChange::Request plan;
  CHECK_FALSE(fromproto::plan_request(plan).deferral_allowed);
  plan.mutable_client_capabilities()->set_deferral_allowed(true);
  CHECK(fromproto::plan_request(plan).deferral_allowed);

  tfplugin5::ReadResource::Request read;
  read.mutable_client_capabilities()->set_deferral_allowed(true);
  CHECK(fromproto::read_request(read).deferral_allowed);
  tfplugin6::ReadDataSource::Request data;
  data.mutable_client_capabilities()->set_deferral_allowed(true);
  CHECK(fromproto::read_data_request(data).deferral_allowed);
  tfplugin5::Configure::Request configure;
  configure.mutable_client_capabilities()->set_deferral_allowed(true);
  CHECK(fromproto::configure_request(configure).deferral_allowed);
  tfplugin6::OpenEphemeralResource::Request open;
  CHECK_FALSE(fromproto::open_ephemeral_request(open).deferral_allowed);
  open.mutable_client_capabilities()->set_deferral_allowed(true);
  CHECK(fromproto::open_ephemeral_request(open).deferral_allowed);
}

TEST_CASE(
    "a plan request of protocol 6.11 carries the first plan's private data and the "
    "client's computed blocks") {
  tfplugin6::PlanResourceChange::Request plan;
  CHECK_FALSE(fromproto::plan_request(plan).computed_blocks_allowed);
  plan.mutable_client_capabilities()->set_computed_blocks_allowed(true);
  plan.set_prior_private("stored");
  plan.set_planned_private("first plan");
  const auto out = fromproto::plan_request(plan);
  CHECK(out.computed_blocks_allowed);
  CHECK(out.prior_private == "stored");
  CHECK(out.planned_private == "first plan");
  // Protocol 5 has neither.
  tfplugin5::PlanResourceChange::Request five;
  five.set_prior_private("stored");
  CHECK(fromproto::plan_request(five).planned_private.empty());
  CHECK_FALSE(fromproto::plan_request(five).computed_blocks_allowed);
}

}  // namespace luaform::protocol

namespace luaform::protocol {

TEST_CASE("list and action requests carry what the CLI asked for") {
  tfplugin6::ListResource::Request list;
  list.set_type_name("demo_server");
  list.mutable_config()->set_msgpack("\x80");
  list.set_include_resource_object(true);
  list.set_limit(7);
  const engine::wire::ListRequest l = fromproto::list_request(list);
  CHECK(l.type_name == "demo_server");
  CHECK(l.config.msgpack == "\x80");
  CHECK(l.include_resource_object);
  CHECK(l.limit == 7);

  tfplugin5::InvokeAction::Request invoke;
  invoke.set_action_type("demo_reboot");
  invoke.mutable_config()->set_msgpack("\x80");
  const engine::wire::ActionRequest a = fromproto::action_request(invoke);
  CHECK(a.type_name == "demo_reboot");
  CHECK(a.config.msgpack == "\x80");
}

}  // namespace luaform::protocol
