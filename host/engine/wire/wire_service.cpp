#include "host/engine/wire/wire_service.h"

#include <utility>

#include "host/engine/codec/json_codec.h"
#include "host/engine/codec/msgpack_codec.h"

namespace luaform::engine::wire {
namespace {

const ProviderSchema& served_schema(const ProviderService& service) {
  static const ProviderSchema none;
  const ProviderSchema* schema = service.get_provider_schema().schema;
  return schema ? *schema : none;
}

// The schema of `type_name` in `schemas`, or null when the provider has no such type.
const Schema* find(const std::map<std::string, Schema>& schemas, const std::string& type_name) {
  auto it = schemas.find(type_name);
  return it == schemas.end() ? nullptr : &it->second;
}

// Whichever encoding is present, as a value of `type`; no bytes are a null of it.
Value decode(const DynamicValue& dv, const Type& type, Diagnostics& diags) {
  if (!dv.msgpack.empty()) return decode_msgpack(dv.msgpack, type, diags);
  if (!dv.json.empty()) return decode_value_json(dv.json, type, diags);
  return Value::null(type);
}

// A value of the object `schema` describes; a null Value when there is no schema (the engine
// reports the unknown type).
Value decode_object(const Schema* schema, const DynamicValue& dv, Diagnostics& diags) {
  if (!schema) return {};
  return decode(dv, schema->block.implied_type(), diags);
}

// A resource's identity: null when the resource declares none or none was sent (an older CLI,
// an object stored before the identity existed).
Value decode_identity(const Schema* schema, const DynamicValue& dv, Diagnostics& diags) {
  if (!schema || !schema->identity) return {};
  return decode(dv, schema->identity->implied_type(), diags);
}

// A value of the object `schema` describes, for the CLI. A value the engine left unset (it
// answered with an error before it had one) goes out as no bytes at all.
DynamicValue encode_object(const Schema* schema, const Value& v) {
  if (!schema || (v.is_null() && v.type().is_dynamic())) return {};
  return DynamicValue{encode_msgpack(v, schema->block.implied_type()), {}};
}

// An identity for the CLI: nothing when the resource declares none or the value is null.
DynamicValue encode_identity(const Schema* schema, const Value& identity) {
  if (!schema || !schema->identity || identity.is_null()) return {};
  return DynamicValue{encode_msgpack(identity, schema->identity->implied_type()), {}};
}

// The engine's validation of one kind of configuration.
using Validation = Diagnostics (ProviderService::*)(const engine::ValidateRequest&) const;

// `validation` of the request's configuration, decoded with `schema` (null: an unknown type).
Diagnostics validate_with(const ProviderService& service, Validation validation,
                          const Schema* schema, const ValidateRequest& req) {
  Diagnostics diags;
  engine::ValidateRequest decoded{req.type_name, decode_object(schema, req.config, diags),
                                  req.write_only_allowed};
  if (diags.has_errors()) return diags;
  return (service.*validation)(decoded);
}

}  // namespace

WireService::WireService(std::shared_ptr<ProviderService> service)
    : service_(std::move(service)), schema_(served_schema(*service_)) {}

Diagnostics WireService::validate_provider_config(const ValidateRequest& req) const {
  return validate_with(*service_, &ProviderService::validate_provider_config, &schema_.provider,
                       req);
}

Diagnostics WireService::validate_resource_config(const ValidateRequest& req) const {
  return validate_with(*service_, &ProviderService::validate_resource_config,
                       find(schema_.resources, req.type_name), req);
}

Diagnostics WireService::validate_data_source_config(const ValidateRequest& req) const {
  return validate_with(*service_, &ProviderService::validate_data_source_config,
                       find(schema_.data_sources, req.type_name), req);
}

Diagnostics WireService::validate_ephemeral_resource_config(const ValidateRequest& req) const {
  return validate_with(*service_, &ProviderService::validate_ephemeral_resource_config,
                       find(schema_.ephemeral_resources, req.type_name), req);
}

Diagnostics WireService::validate_list_resource_config(const ValidateRequest& req) const {
  return validate_with(*service_, &ProviderService::validate_list_resource_config,
                       find(schema_.list_resources, req.type_name), req);
}

Diagnostics WireService::validate_action_config(const ValidateRequest& req) const {
  return validate_with(*service_, &ProviderService::validate_action_config,
                       find(schema_.actions, req.type_name), req);
}

Diagnostics WireService::configure_provider(const ConfigureRequest& req) const {
  Diagnostics diags;
  engine::ConfigureRequest decoded{req.terraform_version,
                                   decode_object(&schema_.provider, req.config, diags),
                                   req.deferral_allowed};
  if (diags.has_errors()) return diags;
  return service_->configure_provider(decoded);
}

PlanResponse WireService::plan_resource_change(const PlanRequest& req) const {
  PlanResponse resp;
  const Schema* schema = find(schema_.resources, req.type_name);
  engine::PlanRequest decoded{req.type_name,
                              decode_object(schema, req.prior_state, resp.diagnostics),
                              decode_object(schema, req.proposed_new_state, resp.diagnostics),
                              decode_object(schema, req.config, resp.diagnostics),
                              req.prior_private,
                              decode_identity(schema, req.prior_identity, resp.diagnostics),
                              req.deferral_allowed};
  if (resp.diagnostics.has_errors()) return resp;
  engine::PlanResponse planned = service_->plan_resource_change(decoded);
  resp.planned_state = encode_object(schema, planned.planned_state);
  resp.requires_replace = std::move(planned.requires_replace);
  resp.planned_private = std::move(planned.planned_private);
  resp.planned_identity = encode_identity(schema, planned.planned_identity);
  resp.diagnostics = std::move(planned.diagnostics);
  resp.deferred = planned.deferred;
  return resp;
}

ApplyResponse WireService::apply_resource_change(const ApplyRequest& req) const {
  ApplyResponse resp;
  const Schema* schema = find(schema_.resources, req.type_name);
  engine::ApplyRequest decoded{req.type_name,
                               decode_object(schema, req.prior_state, resp.diagnostics),
                               decode_object(schema, req.planned_state, resp.diagnostics),
                               decode_object(schema, req.config, resp.diagnostics),
                               req.planned_private,
                               decode_identity(schema, req.planned_identity, resp.diagnostics)};
  if (resp.diagnostics.has_errors()) {
    // Nothing was done: the stored object stays as the CLI has it.
    resp.new_state = req.prior_state;
    resp.private_data = req.planned_private;
    resp.new_identity = req.planned_identity;
    return resp;
  }
  engine::ApplyResponse applied = service_->apply_resource_change(decoded);
  resp.new_state = encode_object(schema, applied.new_state);
  resp.private_data = std::move(applied.private_data);
  resp.new_identity = encode_identity(schema, applied.new_identity);
  resp.diagnostics = std::move(applied.diagnostics);
  return resp;
}

ReadResponse WireService::read_resource(const ReadRequest& req) const {
  ReadResponse resp;
  const Schema* schema = find(schema_.resources, req.type_name);
  engine::ReadRequest decoded{
      req.type_name, decode_object(schema, req.current_state, resp.diagnostics), req.private_data,
      decode_identity(schema, req.current_identity, resp.diagnostics), req.deferral_allowed};
  if (resp.diagnostics.has_errors()) {
    // The stored state stands, as the CLI sent it.
    resp.new_state = req.current_state;
    resp.private_data = req.private_data;
    resp.new_identity = req.current_identity;
    return resp;
  }
  engine::ReadResponse read = service_->read_resource(decoded);
  resp.new_state = encode_object(schema, read.new_state);
  resp.private_data = std::move(read.private_data);
  resp.new_identity = encode_identity(schema, read.new_identity);
  resp.diagnostics = std::move(read.diagnostics);
  resp.deferred = read.deferred;
  return resp;
}

ReadDataResponse WireService::read_data_source(const ReadDataRequest& req) const {
  ReadDataResponse resp;
  const Schema* schema = find(schema_.data_sources, req.type_name);
  engine::ReadDataRequest decoded{
      req.type_name, decode_object(schema, req.config, resp.diagnostics), req.deferral_allowed};
  if (resp.diagnostics.has_errors()) return resp;
  engine::ReadDataResponse read = service_->read_data_source(decoded);
  resp.state = encode_object(schema, read.state);
  resp.diagnostics = std::move(read.diagnostics);
  resp.deferred = read.deferred;
  return resp;
}

UpgradeResponse WireService::upgrade_resource_state(const UpgradeRequest& req) const {
  engine::UpgradeResponse upgraded = service_->upgrade_resource_state(req);
  return {encode_object(find(schema_.resources, req.type_name), upgraded.upgraded_state),
          std::move(upgraded.diagnostics)};
}

ImportResponse WireService::import_resource_state(const ImportRequest& req) const {
  ImportResponse resp;
  const Schema* schema = find(schema_.resources, req.type_name);
  engine::ImportRequest decoded{req.type_name, req.id,
                                decode_identity(schema, req.identity, resp.diagnostics)};
  // An identity for a resource that declares none has no type to be read with: it goes on as
  // a value not known, and the engine refuses to import by it.
  if (schema && !schema->identity && !req.identity.empty()) {
    decoded.identity = Value::unknown(Type::dynamic());
  }
  if (resp.diagnostics.has_errors()) return resp;
  engine::ImportResponse imported = service_->import_resource_state(decoded);
  for (engine::ImportedResource& r : imported.imported) {
    const Schema* of = find(schema_.resources, r.type_name);
    resp.imported.push_back({r.type_name, encode_object(of, r.state), std::move(r.private_data),
                             encode_identity(of, r.identity)});
  }
  resp.diagnostics = std::move(imported.diagnostics);
  return resp;
}

MoveResponse WireService::move_resource_state(const MoveRequest& req) const {
  engine::MoveResponse moved = service_->move_resource_state(req);
  const Schema* schema = find(schema_.resources, req.target_type_name);
  return {encode_object(schema, moved.target_state), std::move(moved.target_private),
          encode_identity(schema, moved.target_identity), std::move(moved.diagnostics)};
}

UpgradeIdentityResponse WireService::upgrade_resource_identity(
    const UpgradeIdentityRequest& req) const {
  engine::UpgradeIdentityResponse upgraded = service_->upgrade_resource_identity(req);
  return {encode_identity(find(schema_.resources, req.type_name), upgraded.upgraded_identity),
          std::move(upgraded.diagnostics)};
}

GenerateConfigResponse WireService::generate_resource_config(
    const GenerateConfigRequest& req) const {
  GenerateConfigResponse resp;
  const Schema* schema = find(schema_.resources, req.type_name);
  engine::GenerateConfigRequest decoded{req.type_name,
                                        decode_object(schema, req.state, resp.diagnostics)};
  if (resp.diagnostics.has_errors()) return resp;
  engine::GenerateConfigResponse generated = service_->generate_resource_config(decoded);
  resp.config = encode_object(schema, generated.config);
  resp.diagnostics = std::move(generated.diagnostics);
  return resp;
}

void WireService::list_resource(const ListRequest& req, const ListSink& sink) const {
  Diagnostics diags;
  engine::ListRequest decoded{
      req.type_name, decode_object(find(schema_.list_resources, req.type_name), req.config, diags),
      req.include_resource_object, req.limit};
  if (diags.has_errors()) {
    sink(ListEvent{{}, {}, {}, std::move(diags)});
    return;
  }
  // Listed objects are of the managed resource type of the same name.
  const Schema* schema = find(schema_.resources, req.type_name);
  service_->list_resource(decoded, [&](const engine::ListEvent& e) {
    return sink(ListEvent{encode_identity(schema, e.identity), e.display_name,
                          encode_object(schema, e.resource_object), e.diagnostics});
  });
}

Diagnostics WireService::plan_action(const ActionRequest& req) const {
  Diagnostics diags;
  engine::ActionRequest decoded{
      req.type_name, decode_object(find(schema_.actions, req.type_name), req.config, diags)};
  if (diags.has_errors()) return diags;
  return service_->plan_action(decoded);
}

void WireService::invoke_action(const ActionRequest& req, const ActionSink& sink) const {
  ActionEvent completed;
  completed.completed = true;
  engine::ActionRequest decoded{req.type_name, decode_object(find(schema_.actions, req.type_name),
                                                             req.config, completed.diagnostics)};
  if (completed.diagnostics.has_errors()) {
    sink(completed);
    return;
  }
  service_->invoke_action(decoded, sink);
}

OpenEphemeralResponse WireService::open_ephemeral_resource(const OpenEphemeralRequest& req) const {
  OpenEphemeralResponse resp;
  const Schema* schema = find(schema_.ephemeral_resources, req.type_name);
  engine::OpenEphemeralRequest decoded{req.type_name,
                                       decode_object(schema, req.config, resp.diagnostics)};
  if (resp.diagnostics.has_errors()) return resp;
  engine::OpenEphemeralResponse opened = service_->open_ephemeral_resource(decoded);
  resp.result = encode_object(schema, opened.result);
  resp.private_data = std::move(opened.private_data);
  resp.renew_at = opened.renew_at;
  resp.diagnostics = std::move(opened.diagnostics);
  return resp;
}

CallFunctionResponse WireService::call_function(const CallFunctionRequest& req) const {
  CallFunctionResponse resp;
  engine::CallFunctionRequest decoded{req.name, {}};
  decoded.arguments.reserve(req.arguments.size());
  const auto it = schema_.functions.find(req.name);
  for (size_t i = 0; i < req.arguments.size(); ++i) {
    // An argument with no parameter to type it (no such function, too many arguments) stays
    // null: the engine refuses the call for what it is.
    const FunctionParameter* parameter =
        it == schema_.functions.end() ? nullptr : it->second.parameter_for(i);
    if (!parameter) {
      decoded.arguments.emplace_back();
      continue;
    }
    Diagnostics decoding;
    decoded.arguments.push_back(decode(req.arguments[i], parameter->type, decoding));
    if (decoding.has_errors()) {
      resp.error = FunctionFailure{"argument \"" + parameter->name + "\": " + decoding.first_text(),
                                   static_cast<int64_t>(i)};
      return resp;
    }
  }
  engine::CallFunctionResponse called = service_->call_function(decoded);
  if (called.error || it == schema_.functions.end()) {
    resp.error = std::move(called.error);
  } else {
    const Type& returns = it->second.returns;
    resp.result = DynamicValue{encode_msgpack(called.result, returns), {}};
  }
  return resp;
}

}  // namespace luaform::engine::wire
