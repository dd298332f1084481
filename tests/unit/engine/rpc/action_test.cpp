// Actions: PlanAction asks the action's check once its configuration is known; InvokeAction
// streams progress as the action reports it and ends with exactly one completed event.
#include <doctest/doctest.h>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

struct ActionFixture : ServiceFixture {
  Type type;

  ActionFixture() {
    Schema notify;
    Attribute message = attribute("message", Type::string(), true, false, false);
    Attribute times = attribute("times", Type::number(), false, true, false);
    times.default_value = Value::number(1);
    times.has_validate = true;
    Attribute token = attribute("token", Type::string(), false, true, false);
    token.sensitive = true;
    notify.block.attributes = {message, times, token};
    logic->declared.actions["test_notify"] = notify;
    type = serve().actions.at("test_notify").block.implied_type();
  }
  Value config(const std::string& message, Value token = Value::null(Type::string())) const {
    return Value::object(type, {{"message", Value::string(message)},
                                {"times", Value::null(Type::number())},
                                {"token", std::move(token)}});
  }
  std::vector<ActionEvent> invoke(const Value& config) const {
    std::vector<ActionEvent> events;
    service->invoke_action(ActionRequest{"test_notify", config},
                           [&](const ActionEvent& e) { events.push_back(e); });
    return events;
  }
};

}  // namespace

TEST_CASE("an action is announced with its schema, and its configuration is validated by it") {
  ActionFixture f;
  CHECK(f.service->get_metadata().actions == std::vector<std::string>{"test_notify"});
  // The action's own checks of its arguments run as a resource's do.
  f.logic->validators["times"] = [](const Value& v) {
    Diagnostics diags;
    if (v.as_number().to_double() < 1) diags.error("times must be at least 1");
    return diags;
  };
  const Value zero = f.config("hi").with_attribute("times", Value::number(0));
  CHECK(f.service->validate_action_config(ValidateRequest{"test_notify", zero}).has_errors());
  CHECK_FALSE(f.service->validate_action_config(ValidateRequest{"test_notify", f.config("hi")})
                  .has_errors());
  CHECK(f.service->validate_action_config(ValidateRequest{"test_other", f.config("hi")})
            .has_errors());
}

TEST_CASE("the plan asks the action's check with the configuration and its defaults") {
  ActionFixture f;
  Value seen;
  f.logic->action_planner = [&](const Value& config) {
    seen = config;
    Diagnostics diags;
    if (config.get_attribute("message").as_string() == "no") diags.error("No is not a message");
    return diags;
  };
  CHECK_FALSE(f.service->plan_action(ActionRequest{"test_notify", f.config("hi")})
                  .diagnostics.has_errors());
  CHECK(seen.get_attribute("times") == Value::number(1));
  const Diagnostics refused =
      f.service->plan_action(ActionRequest{"test_notify", f.config("no")}).diagnostics;
  REQUIRE(refused.has_errors());
  CHECK(refused.items()[0].summary == "No is not a message");
}

TEST_CASE("a configuration not known at plan time is checked at the invoke, before it runs") {
  ActionFixture f;
  int asked = 0;
  f.logic->action_planner = [&](const Value& config) {
    ++asked;
    Diagnostics diags;
    if (config.get_attribute("message").as_string() == "no") diags.error("No is not a message");
    return diags;
  };
  bool ran = false;
  f.logic->action_runner = [&](const Value&, const ActionProgress&) {
    ran = true;
    return Diagnostics{};
  };
  const Value unknown = f.config("hi").with_attribute("message", Value::unknown(Type::string()));
  CHECK_FALSE(
      f.service->plan_action(ActionRequest{"test_notify", unknown}).diagnostics.has_errors());
  CHECK(asked == 0);
  // At the invoke the value is known ("no"): the check refuses it, and the action never runs.
  const auto refused = f.invoke(f.config("no"));
  REQUIRE(refused.size() == 1);
  CHECK(refused[0].completed);
  REQUIRE(refused[0].diagnostics.has_errors());
  CHECK(refused[0].diagnostics.items()[0].summary == "No is not a message");
  CHECK(asked == 1);
  CHECK_FALSE(ran);
  // A configuration the check accepts runs.
  CHECK(f.invoke(f.config("hi")).back().diagnostics.empty());
  CHECK(ran);
}

TEST_CASE("with the provider's configuration unknown, a plan defers where allowed, else refuses") {
  ActionFixture f;
  bool asked = false;
  f.logic->action_planner = [&](const Value&) {
    asked = true;
    return Diagnostics{};
  };
  const Type provider = f.service->get_provider_schema().schema->provider.block.implied_type();
  ConfigureRequest configure{"1.15.5", Value::unknown(provider)};
  configure.deferral_allowed = true;
  REQUIRE_FALSE(f.service->configure_provider(configure).has_errors());
  ActionRequest deferrable{"test_notify", f.config("hi")};
  deferrable.deferral_allowed = true;
  const PlanActionResponse deferred = f.service->plan_action(deferrable);
  CHECK(deferred.deferred == DeferralReason::ProviderConfigUnknown);
  CHECK(deferred.diagnostics.empty());
  const PlanActionResponse refused = f.service->plan_action({"test_notify", f.config("hi")});
  CHECK_FALSE(refused.deferred.has_value());
  REQUIRE(refused.diagnostics.has_errors());
  CHECK(refused.diagnostics.items()[0].summary == "The provider's configuration is not known yet");
  CHECK_FALSE(asked);  // never without the client
  const auto invoked = f.invoke(f.config("hi"));
  REQUIRE(invoked.size() == 1);
  CHECK(invoked[0].diagnostics.has_errors());
}

TEST_CASE("an invoke streams its progress in order and ends with one completed event") {
  ActionFixture f;
  f.logic->action_runner = [](const Value& config, const ActionProgress& progress) {
    progress("sending " + config.get_attribute("message").as_string());
    progress("sent");
    return Diagnostics{};
  };
  const auto events = f.invoke(f.config("hi"));
  REQUIRE(events.size() == 3);
  CHECK_FALSE(events[0].completed);
  CHECK(events[0].progress == "sending hi");
  CHECK(events[1].progress == "sent");
  CHECK(events[2].completed);
  CHECK(events[2].diagnostics.empty());
}

TEST_CASE("a failing invoke completes with its error, and hides the secrets it quotes") {
  ActionFixture f;
  f.logic->action_runner = [](const Value& config, const ActionProgress& progress) {
    const std::string token = config.get_attribute("token").as_string();
    progress("using " + token);
    Diagnostics diags;
    diags.error("Refused", "the server refused " + token);
    return diags;
  };
  const auto events = f.invoke(f.config("hi", Value::string("s3cret-t0ken")));
  REQUIRE(events.size() == 2);
  CHECK(events[0].progress == "using ***");
  REQUIRE(events[1].completed);
  REQUIRE(events[1].diagnostics.has_errors());
  CHECK(events[1].diagnostics.items()[0].detail == "the server refused ***");
}

TEST_CASE("an invoke that throws, or of an unknown action, still completes exactly once") {
  ActionFixture f;
  f.logic->action_runner = [](const Value&, const ActionProgress&) -> Diagnostics {
    throw std::runtime_error("lost the connection");
  };
  auto events = f.invoke(f.config("hi"));
  REQUIRE(events.size() == 1);
  CHECK(events[0].completed);
  CHECK(events[0].diagnostics.has_errors());

  std::vector<ActionEvent> other;
  f.service->invoke_action(ActionRequest{"test_other", f.config("hi")},
                           [&](const ActionEvent& e) { other.push_back(e); });
  REQUIRE(other.size() == 1);
  CHECK(other[0].completed);
  CHECK(other[0].diagnostics.has_errors());
}
