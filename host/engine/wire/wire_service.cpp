#include "host/engine/wire/wire_service.h"

#include <optional>
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
Value decode_as(const DynamicValue& dv, const Type& type, Diagnostics& diags) {
  if (!dv.msgpack.empty()) return decode_msgpack(dv.msgpack, type, diags);
  if (!dv.json.empty()) return decode_value_json(dv.json, type, diags);
  return Value::null(type);
}

// How the values of one type are read and written: its object's type and its identity's (the
// served schema's, built once when it was served). Of no schema (a type the
// provider lacks), it reads null Values, which the engine reports as the unknown type, and
// writes no bytes.
class Shape {
 public:
  explicit Shape(const Schema* schema) {
    if (schema == nullptr) return;
    object_ = schema->block.implied_type();
    if (schema->identity) identity_ = schema->identity->implied_type();
  }

  Value decode(const DynamicValue& dv, Diagnostics& diags) const {
    return object_ ? decode_as(dv, *object_, diags) : Value();
  }
  // Null when the type declares no identity or none was sent (an older CLI, an object stored
  // before the identity existed).
  Value decode_identity(const DynamicValue& dv, Diagnostics& diags) const {
    return identity_ ? decode_as(dv, *identity_, diags) : Value();
  }
  // A value the engine left unset (it answered with an error before it had one) goes out as no
  // bytes at all.
  DynamicValue encode(const Value& v) const {
    if (!object_ || (v.is_null() && v.type().is_dynamic())) return {};
    return DynamicValue{encode_msgpack(v, *object_), {}};
  }
  // Nothing when the type declares no identity or the value is null.
  DynamicValue encode_identity(const Value& identity) const {
    if (!identity_ || identity.is_null()) return {};
    return DynamicValue{encode_msgpack(identity, *identity_), {}};
  }

 private:
  std::optional<Type> object_;
  std::optional<Type> identity_;
};

// The engine's validation of one kind of configuration.
using Validation = Diagnostics (ProviderService::*)(const engine::ValidateRequest&) const;

// `validation` of the request's configuration, decoded with `schema` (null: an unknown type).
Diagnostics validate_with(const ProviderService& service, Validation validation,
                          const Schema* schema, const ValidateRequest& req) {
  Diagnostics diags;
  engine::ValidateRequest decoded{req.type_name, Shape(schema).decode(req.config, diags),
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

Diagnostics WireService::validate_state_store_config(const ValidateRequest& req) const {
  return validate_with(*service_, &ProviderService::validate_state_store_config,
                       find(schema_.state_stores, req.type_name), req);
}

ConfigureStoreResponse WireService::configure_state_store(const ConfigureStoreRequest& req) const {
  ConfigureStoreResponse resp;
  engine::ConfigureStoreRequest decoded{
      req.type_name,
      Shape(find(schema_.state_stores, req.type_name)).decode(req.config, resp.diagnostics),
      req.chunk_size};
  if (resp.diagnostics.has_errors()) return resp;
  return service_->configure_state_store(decoded);
}

Diagnostics WireService::configure_provider(const ConfigureRequest& req) const {
  Diagnostics diags;
  engine::ConfigureRequest decoded{req.terraform_version,
                                   Shape(&schema_.provider).decode(req.config, diags),
                                   req.deferral_allowed};
  if (diags.has_errors()) return diags;
  return service_->configure_provider(decoded);
}

PlanResponse WireService::plan_resource_change(const PlanRequest& req) const {
  PlanResponse resp;
  const Shape shape(find(schema_.resources, req.type_name));
  engine::PlanRequest decoded{req.type_name,
                              shape.decode(req.prior_state, resp.diagnostics),
                              shape.decode(req.proposed_new_state, resp.diagnostics),
                              shape.decode(req.config, resp.diagnostics),
                              req.prior_private,
                              shape.decode_identity(req.prior_identity, resp.diagnostics),
                              req.deferral_allowed,
                              req.planned_private,
                              req.computed_blocks_allowed,
                              req.store_planned_private};
  if (resp.diagnostics.has_errors()) return resp;
  engine::PlanResponse planned = service_->plan_resource_change(decoded);
  resp.planned_state = shape.encode(planned.planned_state);
  resp.requires_replace = std::move(planned.requires_replace);
  resp.planned_private = std::move(planned.planned_private);
  resp.planned_identity = shape.encode_identity(planned.planned_identity);
  resp.diagnostics = std::move(planned.diagnostics);
  resp.deferred = planned.deferred;
  return resp;
}

ApplyResponse WireService::apply_resource_change(const ApplyRequest& req) const {
  ApplyResponse resp;
  const Shape shape(find(schema_.resources, req.type_name));
  engine::ApplyRequest decoded{req.type_name,
                               shape.decode(req.prior_state, resp.diagnostics),
                               shape.decode(req.planned_state, resp.diagnostics),
                               shape.decode(req.config, resp.diagnostics),
                               req.planned_private,
                               shape.decode_identity(req.planned_identity, resp.diagnostics)};
  if (resp.diagnostics.has_errors()) {
    // Nothing was done: the stored object stays as the CLI has it.
    resp.new_state = req.prior_state;
    resp.private_data = req.planned_private;
    resp.new_identity = req.planned_identity;
    return resp;
  }
  engine::ApplyResponse applied = service_->apply_resource_change(decoded);
  resp.new_state = shape.encode(applied.new_state);
  resp.private_data = std::move(applied.private_data);
  resp.new_identity = shape.encode_identity(applied.new_identity);
  resp.diagnostics = std::move(applied.diagnostics);
  return resp;
}

ReadResponse WireService::read_resource(const ReadRequest& req) const {
  ReadResponse resp;
  const Shape shape(find(schema_.resources, req.type_name));
  engine::ReadRequest decoded{
      req.type_name, shape.decode(req.current_state, resp.diagnostics), req.private_data,
      shape.decode_identity(req.current_identity, resp.diagnostics), req.deferral_allowed};
  if (resp.diagnostics.has_errors()) {
    // The stored state stands, as the CLI sent it.
    resp.new_state = req.current_state;
    resp.private_data = req.private_data;
    resp.new_identity = req.current_identity;
    return resp;
  }
  engine::ReadResponse read = service_->read_resource(decoded);
  resp.new_state = shape.encode(read.new_state);
  resp.private_data = std::move(read.private_data);
  resp.new_identity = shape.encode_identity(read.new_identity);
  resp.diagnostics = std::move(read.diagnostics);
  resp.deferred = read.deferred;
  return resp;
}

ReadDataResponse WireService::read_data_source(const ReadDataRequest& req) const {
  ReadDataResponse resp;
  const Shape shape(find(schema_.data_sources, req.type_name));
  engine::ReadDataRequest decoded{req.type_name, shape.decode(req.config, resp.diagnostics),
                                  req.deferral_allowed};
  if (resp.diagnostics.has_errors()) return resp;
  engine::ReadDataResponse read = service_->read_data_source(decoded);
  resp.state = shape.encode(read.state);
  resp.diagnostics = std::move(read.diagnostics);
  resp.deferred = read.deferred;
  return resp;
}

UpgradeResponse WireService::upgrade_resource_state(const UpgradeRequest& req) const {
  engine::UpgradeResponse upgraded = service_->upgrade_resource_state(req);
  return {Shape(find(schema_.resources, req.type_name)).encode(upgraded.upgraded_state),
          std::move(upgraded.diagnostics)};
}

ImportResponse WireService::import_resource_state(const ImportRequest& req) const {
  ImportResponse resp;
  const Schema* schema = find(schema_.resources, req.type_name);
  const Shape shape(schema);
  engine::ImportRequest decoded{req.type_name, req.id,
                                shape.decode_identity(req.identity, resp.diagnostics),
                                req.deferral_allowed};
  // An identity for a resource that declares none has no type to be read with: it goes on as
  // a value not known, and the engine refuses to import by it.
  if (schema && !schema->identity && !req.identity.empty()) {
    decoded.identity = Value::unknown(Type::dynamic());
  }
  if (resp.diagnostics.has_errors()) return resp;
  engine::ImportResponse imported = service_->import_resource_state(decoded);
  for (engine::ImportedResource& r : imported.imported) {
    const Shape of(find(schema_.resources, r.type_name));
    resp.imported.push_back({r.type_name, of.encode(r.state), std::move(r.private_data),
                             of.encode_identity(r.identity)});
  }
  resp.diagnostics = std::move(imported.diagnostics);
  resp.deferred = imported.deferred;
  return resp;
}

MoveResponse WireService::move_resource_state(const MoveRequest& req) const {
  engine::MoveResponse moved = service_->move_resource_state(req);
  const Shape shape(find(schema_.resources, req.target_type_name));
  return {shape.encode(moved.target_state), std::move(moved.target_private),
          shape.encode_identity(moved.target_identity), std::move(moved.diagnostics)};
}

UpgradeIdentityResponse WireService::upgrade_resource_identity(
    const UpgradeIdentityRequest& req) const {
  engine::UpgradeIdentityResponse upgraded = service_->upgrade_resource_identity(req);
  return {Shape(find(schema_.resources, req.type_name)).encode_identity(upgraded.upgraded_identity),
          std::move(upgraded.diagnostics)};
}

GenerateConfigResponse WireService::generate_resource_config(
    const GenerateConfigRequest& req) const {
  GenerateConfigResponse resp;
  const Shape shape(find(schema_.resources, req.type_name));
  engine::GenerateConfigRequest decoded{req.type_name, shape.decode(req.state, resp.diagnostics)};
  if (resp.diagnostics.has_errors()) return resp;
  engine::GenerateConfigResponse generated = service_->generate_resource_config(decoded);
  resp.config = shape.encode(generated.config);
  resp.diagnostics = std::move(generated.diagnostics);
  return resp;
}

void WireService::list_resource(const ListRequest& req, const ListSink& sink) const {
  Diagnostics diags;
  engine::ListRequest decoded{
      req.type_name, Shape(find(schema_.list_resources, req.type_name)).decode(req.config, diags),
      req.include_resource_object, req.limit};
  if (diags.has_errors()) {
    sink(ListEvent{{}, {}, {}, std::move(diags)});
    return;
  }
  // Listed objects are of the managed resource type of the same name.
  const Shape shape(find(schema_.resources, req.type_name));
  service_->list_resource(decoded, [&](const engine::ListEvent& e) {
    return sink(ListEvent{shape.encode_identity(e.identity), e.display_name,
                          shape.encode(e.resource_object), e.diagnostics});
  });
}

PlanActionResponse WireService::plan_action(const ActionRequest& req) const {
  PlanActionResponse resp;
  engine::ActionRequest decoded{
      req.type_name,
      Shape(find(schema_.actions, req.type_name)).decode(req.config, resp.diagnostics),
      req.deferral_allowed};
  if (resp.diagnostics.has_errors()) return resp;
  return service_->plan_action(decoded);
}

void WireService::invoke_action(const ActionRequest& req, const ActionSink& sink) const {
  ActionEvent completed;
  completed.completed = true;
  engine::ActionRequest decoded{
      req.type_name,
      Shape(find(schema_.actions, req.type_name)).decode(req.config, completed.diagnostics)};
  if (completed.diagnostics.has_errors()) {
    sink(completed);
    return;
  }
  service_->invoke_action(decoded, sink);
}

OpenEphemeralResponse WireService::open_ephemeral_resource(const OpenEphemeralRequest& req) const {
  OpenEphemeralResponse resp;
  const Shape shape(find(schema_.ephemeral_resources, req.type_name));
  engine::OpenEphemeralRequest decoded{req.type_name, shape.decode(req.config, resp.diagnostics),
                                       req.deferral_allowed};
  if (resp.diagnostics.has_errors()) return resp;
  engine::OpenEphemeralResponse opened = service_->open_ephemeral_resource(decoded);
  resp.result = shape.encode(opened.result);
  resp.private_data = std::move(opened.private_data);
  resp.renew_at = opened.renew_at;
  resp.deferred = opened.deferred;
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
    decoded.arguments.push_back(decode_as(req.arguments[i], parameter->type, decoding));
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
