#include "host/protocol/tfplugin/rpc_guard.h"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "host/protocol/proto/tfplugin6.pb.h"

namespace luaform::protocol {
namespace {

TEST_CASE("an exception in a handler becomes an OK status with an error diagnostic") {
  tfplugin6::PlanResourceChange::Response resp;
  auto status = guarded("PlanResourceChange", &resp, [&] {
    resp.mutable_planned_state()->set_msgpack("half-done");
    throw std::runtime_error("boom");
  });
  CHECK(status.ok());
  CHECK_FALSE(resp.has_planned_state());  // the partial answer is discarded
  REQUIRE(resp.diagnostics_size() == 1);
  CHECK(resp.diagnostics(0).severity() == tfplugin6::Diagnostic::ERROR);
  CHECK(resp.diagnostics(0).summary().find("PlanResourceChange") != std::string::npos);
  CHECK(resp.diagnostics(0).detail() == "boom");
}

TEST_CASE("the recovery hook restores a safe value after a failure") {
  tfplugin6::ApplyResourceChange::Response resp;
  guarded(
      "ApplyResourceChange", &resp, [] { throw 42; },
      [](tfplugin6::ApplyResourceChange::Response* r) {
        r->mutable_new_state()->set_msgpack("prior");
      });
  CHECK(resp.new_state().msgpack() == "prior");
  REQUIRE(resp.diagnostics_size() == 1);
  CHECK(resp.diagnostics(0).detail() == "unknown exception");
}

TEST_CASE("an exception in CallFunction becomes its function error, which has no diagnostics") {
  tfplugin6::CallFunction::Response resp;
  auto status = guarded("CallFunction", &resp, [] { throw std::runtime_error("boom"); });
  CHECK(status.ok());
  CHECK_FALSE(resp.has_result());
  CHECK(resp.error().text() == "Internal error in the provider during CallFunction: boom");
}

TEST_CASE("an exception whose text is not UTF-8 is still reported in a message the CLI reads") {
  const std::string ffd = "\xEF\xBF\xBD";
  tfplugin6::PlanResourceChange::Response plan;
  guarded("PlanResourceChange", &plan, [] { throw std::runtime_error("caf\xC3"); });
  CHECK(plan.diagnostics(0).detail() == "caf" + ffd);
  tfplugin6::PlanResourceChange::Response plan_read;
  CHECK(plan_read.ParseFromString(plan.SerializeAsString()));

  tfplugin6::CallFunction::Response call;
  guarded("CallFunction", &call, [] { throw std::runtime_error("\xE9t\xE9"); });
  CHECK(call.error().text() ==
        "Internal error in the provider during CallFunction: " + ffd + "t" + ffd);
  tfplugin6::CallFunction::Response call_read;
  CHECK(call_read.ParseFromString(call.SerializeAsString()));
}

TEST_CASE("a handler that succeeds keeps its response untouched") {
  tfplugin6::ReadResource::Response resp;
  auto status = guarded("ReadResource", &resp, [&] { resp.set_private_("p"); });
  CHECK(status.ok());
  CHECK(resp.private_() == "p");
  CHECK(resp.diagnostics_size() == 0);
}

}  // namespace
}  // namespace luaform::protocol
