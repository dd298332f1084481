// Protocol messages -> engine request pieces; templates shared by tfplugin5 and tfplugin6,
// whose messages agree field for field.
#pragma once

#include <string>

#include "host/engine/value/diagnostics.h"
#include "host/engine/wire/wire_service.h"

namespace luaform::protocol::fromproto {

// An unset DynamicValue message and one with both fields empty mean the same thing to the
// engine: null of the schema's type.
template <class ProtoDynamicValue>
engine::wire::DynamicValue dynamic_value(const ProtoDynamicValue& v) {
  engine::wire::DynamicValue out;
  out.msgpack = v.msgpack();
  out.json = v.json();
  return out;
}

template <class ProtoRawState>
void raw_state(const ProtoRawState& raw, engine::UpgradeRequest& req) {
  req.raw_state_json = raw.json();
  for (const auto& [k, v] : raw.flatmap()) req.raw_state_flatmap.emplace(k, v);
}

template <class ProtoPath>
engine::AttributePath attribute_path(const ProtoPath& path) {
  engine::AttributePath out;
  for (const auto& step : path.steps()) {
    if (step.has_attribute_name()) {
      out.push_back(engine::AttributeName{step.attribute_name()});
    } else if (step.has_element_key_string()) {
      out.push_back(engine::ElementKey{step.element_key_string()});
    } else if (step.has_element_key_int()) {
      out.push_back(engine::ElementIndex{step.element_key_int()});
    }
  }
  return out;
}

// One function per request message. Fields the engine has no use for (provider_meta) are
// dropped here: luaform declares no provider_meta schema.

template <class Req>
engine::wire::ValidateRequest validate_provider_request(const Req& req) {
  engine::wire::ValidateRequest out;
  out.config = dynamic_value(req.config());
  return out;
}

// ValidateResourceConfig, ValidateDataResourceConfig, ValidateEphemeralResourceConfig (and their
// protocol 5 names).
template <class Req>
engine::wire::ValidateRequest validate_request(const Req& req) {
  engine::wire::ValidateRequest out;
  out.type_name = req.type_name();
  out.config = dynamic_value(req.config());
  if constexpr (requires { req.client_capabilities().write_only_attributes_allowed(); }) {
    out.write_only_allowed = req.client_capabilities().write_only_attributes_allowed();
  }
  return out;
}

// The CLI allows deferred answers (an experimental feature of Terraform 1.9 onwards).
template <class Req>
bool deferral_allowed(const Req& req) {
  return req.has_client_capabilities() && req.client_capabilities().deferral_allowed();
}

template <class Req>
engine::wire::ConfigureRequest configure_request(const Req& req) {
  engine::wire::ConfigureRequest out;
  out.terraform_version = req.terraform_version();
  out.config = dynamic_value(req.config());
  out.deferral_allowed = deferral_allowed(req);
  return out;
}

template <class Req>
engine::wire::ConfigureStoreRequest configure_store_request(const Req& req) {
  engine::wire::ConfigureStoreRequest out;
  out.type_name = req.type_name();
  out.config = dynamic_value(req.config());
  out.chunk_size = req.capabilities().chunk_size();
  return out;
}

template <class Req>
engine::wire::PlanRequest plan_request(const Req& req) {
  engine::wire::PlanRequest out;
  out.type_name = req.type_name();
  out.prior_state = dynamic_value(req.prior_state());
  out.proposed_new_state = dynamic_value(req.proposed_new_state());
  out.config = dynamic_value(req.config());
  out.prior_private = req.prior_private();
  out.prior_identity = dynamic_value(req.prior_identity().identity_data());
  out.deferral_allowed = deferral_allowed(req);
  if constexpr (requires { req.planned_private(); }) out.planned_private = req.planned_private();
  if constexpr (requires { req.client_capabilities().computed_blocks_allowed(); }) {
    out.computed_blocks_allowed =
        req.has_client_capabilities() && req.client_capabilities().computed_blocks_allowed();
    out.store_planned_private =
        req.has_client_capabilities() && req.client_capabilities().store_planned_private();
  }
  return out;
}

template <class Req>
engine::wire::ApplyRequest apply_request(const Req& req) {
  engine::wire::ApplyRequest out;
  out.type_name = req.type_name();
  out.prior_state = dynamic_value(req.prior_state());
  out.planned_state = dynamic_value(req.planned_state());
  out.config = dynamic_value(req.config());
  out.planned_private = req.planned_private();
  out.planned_identity = dynamic_value(req.planned_identity().identity_data());
  return out;
}

template <class Req>
engine::wire::ReadRequest read_request(const Req& req) {
  engine::wire::ReadRequest out;
  out.type_name = req.type_name();
  out.current_state = dynamic_value(req.current_state());
  out.private_data = req.private_();
  out.current_identity = dynamic_value(req.current_identity().identity_data());
  out.deferral_allowed = deferral_allowed(req);
  return out;
}

template <class Req>
engine::wire::ReadDataRequest read_data_request(const Req& req) {
  engine::wire::ReadDataRequest out;
  out.type_name = req.type_name();
  out.config = dynamic_value(req.config());
  out.deferral_allowed = deferral_allowed(req);
  return out;
}

template <class Req>
engine::wire::ActionRequest action_request(const Req& req) {
  engine::wire::ActionRequest out;
  out.type_name = req.action_type();
  out.config = dynamic_value(req.config());
  if constexpr (requires { req.client_capabilities(); })
    out.deferral_allowed = deferral_allowed(req);
  return out;
}

template <class Req>
engine::wire::ListRequest list_request(const Req& req) {
  engine::wire::ListRequest out;
  out.type_name = req.type_name();
  out.config = dynamic_value(req.config());
  out.include_resource_object = req.include_resource_object();
  out.limit = req.limit();
  return out;
}

template <class Req>
engine::wire::GenerateConfigRequest generate_config_request(const Req& req) {
  engine::wire::GenerateConfigRequest out;
  out.type_name = req.type_name();
  out.state = dynamic_value(req.state());
  return out;
}

template <class Req>
engine::UpgradeRequest upgrade_request(const Req& req) {
  engine::UpgradeRequest out;
  out.type_name = req.type_name();
  out.version = req.version();
  raw_state(req.raw_state(), out);
  return out;
}

template <class Req>
engine::wire::ImportRequest import_request(const Req& req) {
  engine::wire::ImportRequest out;
  out.type_name = req.type_name();
  out.id = req.id();
  out.identity = dynamic_value(req.identity().identity_data());
  if constexpr (requires { req.client_capabilities(); })
    out.deferral_allowed = deferral_allowed(req);
  return out;
}

template <class Req>
engine::UpgradeIdentityRequest upgrade_identity_request(const Req& req) {
  engine::UpgradeIdentityRequest out;
  out.type_name = req.type_name();
  out.version = req.version();
  out.raw_identity_json = req.raw_identity().json();
  return out;
}

template <class Req>
engine::wire::CallFunctionRequest call_function_request(const Req& req) {
  engine::wire::CallFunctionRequest out;
  out.name = req.name();
  for (const auto& argument : req.arguments()) out.arguments.push_back(dynamic_value(argument));
  return out;
}

template <class Req>
engine::wire::OpenEphemeralRequest open_ephemeral_request(const Req& req) {
  engine::wire::OpenEphemeralRequest out;
  out.type_name = req.type_name();
  out.config = dynamic_value(req.config());
  out.deferral_allowed = deferral_allowed(req);
  return out;
}

// RenewEphemeralResource and CloseEphemeralResource.
template <class Req>
engine::RenewEphemeralRequest ephemeral_private_request(const Req& req) {
  engine::RenewEphemeralRequest out;
  out.type_name = req.type_name();
  out.private_data = req.private_();
  return out;
}

template <class Req>
engine::MoveRequest move_request(const Req& req) {
  engine::MoveRequest out;
  out.source.provider_address = req.source_provider_address();
  out.source.type_name = req.source_type_name();
  out.source.schema_version = req.source_schema_version();
  out.source.raw_json = req.source_state().json();
  for (const auto& [k, v] : req.source_state().flatmap()) out.source_state_flatmap.emplace(k, v);
  out.source_private = req.source_private();
  out.source.identity_json = req.source_identity().json();
  out.source.identity_version = req.source_identity_schema_version();
  out.target_type_name = req.target_type_name();
  return out;
}

}  // namespace luaform::protocol::fromproto
