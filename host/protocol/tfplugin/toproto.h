// Engine values -> protocol messages. tfplugin5 and tfplugin6 declare the shared messages
// (Diagnostic, AttributePath, Schema, ...) with identical names and fields, so each conversion
// is written once as a template and instantiated for both generated namespaces.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

#include "host/engine/codec/json_codec.h"
#include "host/engine/schema/schema.h"
#include "host/engine/value/diagnostics.h"
#include "host/engine/value/utf8.h"
#include "host/engine/wire/wire_service.h"

namespace luaform::protocol::toproto {

// Every string field this layer fills takes its text through here (bytes fields, the values and
// private data, do not). Proto3 strings must be UTF-8: the CLI refuses the whole message over
// one bad byte, and with an apply's answer the new state it carried. Scripts and servers may
// give any bytes (a Latin-1 message, a body cut inside a character); those become U+FFFD.
inline std::string text(std::string_view s) {
  return engine::valid_utf8(s);
}

template <class ProtoPath>
void attribute_path(const engine::AttributePath& path, ProtoPath* out) {
  out->Clear();
  for (const auto& step : path) {
    auto* s = out->add_steps();
    if (const auto* a = std::get_if<engine::AttributeName>(&step)) {
      s->set_attribute_name(text(a->name));
    } else if (const auto* k = std::get_if<engine::ElementKey>(&step)) {
      s->set_element_key_string(text(k->key));
    } else {
      s->set_element_key_int(std::get<engine::ElementIndex>(step).index);
    }
  }
}

template <class ProtoDiag>
void diagnostic(const engine::Diagnostic& d, ProtoDiag* out) {
  out->set_severity(d.severity == engine::Severity::Error ? ProtoDiag::ERROR : ProtoDiag::WARNING);
  out->set_summary(text(d.summary));
  out->set_detail(text(d.detail));
  // An empty path means "the whole object": leave the field unset rather than send no steps.
  if (!d.path.empty()) attribute_path(d.path, out->mutable_attribute());
}

// Appends to any response's `repeated Diagnostic diagnostics`.
template <class ProtoResponse>
void diagnostics(const engine::Diagnostics& diags, ProtoResponse* resp) {
  for (const auto& d : diags.items()) diagnostic(d, resp->add_diagnostics());
}

template <class ProtoDynamicValue>
void dynamic_value(const engine::wire::DynamicValue& v, ProtoDynamicValue* out) {
  // msgpack is the preferred encoding; JSON only when the engine produced nothing else.
  if (!v.msgpack.empty()) {
    out->set_msgpack(v.msgpack);
  } else if (!v.json.empty()) {
    out->set_json(v.json);
  }
}

template <class ProtoCaps>
void server_capabilities(const engine::ServerCapabilities& caps, ProtoCaps* out) {
  out->set_plan_destroy(caps.plan_destroy);
  out->set_get_provider_schema_optional(caps.get_provider_schema_optional);
  out->set_move_resource_state(caps.move_resource_state);
  out->set_generate_resource_config(caps.generate_resource_config);
}

template <class ProtoNesting>
auto nesting_mode(engine::NestingMode mode) {
  switch (mode) {
    case engine::NestingMode::Single:
      return ProtoNesting::SINGLE;
    case engine::NestingMode::List:
      return ProtoNesting::LIST;
    case engine::NestingMode::Set:
      return ProtoNesting::SET;
    case engine::NestingMode::Map:
      return ProtoNesting::MAP;
    case engine::NestingMode::Group:
      // Schema.Object (nested attributes) has no GROUP; the schema reader never makes one.
      if constexpr (requires { ProtoNesting::GROUP; }) return ProtoNesting::GROUP;
      break;
  }
  return ProtoNesting::INVALID;
}

// StringKind is a file-level enum in each package; PLAIN = 0 and MARKDOWN = 1 on the wire.
template <class ProtoMessage>
void description_kind(bool markdown, ProtoMessage* out) {
  using Kind = decltype(out->description_kind());
  out->set_description_kind(markdown ? Kind(1) : Kind(0));
}

template <class ProtoAttribute>
void schema_attribute(const engine::Attribute& a, ProtoAttribute* out) {
  out->set_name(text(a.name));
  // A nested attribute is described by nested_type instead of a type (protocol 6 only; the
  // protocol 5 server refuses such schemas, see provider_schema).
  if constexpr (requires { out->mutable_nested_type(); }) {
    if (a.nested) {
      auto* object = out->mutable_nested_type();
      for (const auto& inner : a.nested->block.attributes) {
        schema_attribute(inner, object->add_attributes());
      }
      using ProtoObject = std::remove_pointer_t<decltype(object)>;
      object->set_nesting(nesting_mode<ProtoObject>(a.nested->nesting));
    } else {
      out->set_type(engine::encode_type_json(a.type));
    }
  } else {
    out->set_type(engine::encode_type_json(a.type));
  }
  out->set_description(text(a.description));
  description_kind(a.description_markdown, out);
  out->set_required(a.required);
  out->set_optional(a.optional);
  out->set_computed(a.computed);
  out->set_sensitive(a.sensitive);
  out->set_write_only(a.write_only);
  out->set_deprecated(!a.deprecated.empty());
  out->set_deprecation_message(text(a.deprecated));
}

template <class ProtoBlock>
void schema_block(const engine::Block& b, ProtoBlock* out) {
  out->Clear();
  for (const auto& a : b.attributes) schema_attribute(a, out->add_attributes());
  for (const auto& nb : b.blocks) {
    auto* p = out->add_block_types();
    p->set_type_name(text(nb.type_name));
    using ProtoNesting = std::remove_pointer_t<decltype(p)>;
    p->set_nesting(nesting_mode<ProtoNesting>(nb.nesting));
    p->set_min_items(nb.min_items);
    p->set_max_items(nb.max_items);
    schema_block(nb.block, p->mutable_block());
    // Protocol 6.11; protocol 5 has no such field (a plan refuses the block there).
    if constexpr (requires { p->mutable_block()->set_computed(true); }) {
      p->mutable_block()->set_computed(nb.computed);
    }
  }
  out->set_description(text(b.description));
  description_kind(b.description_markdown, out);
  out->set_deprecated(!b.deprecated.empty());
  out->set_deprecation_message(text(b.deprecated));
}

template <class ProtoSchema>
void schema(const engine::Schema& s, ProtoSchema* out) {
  out->set_version(s.version);
  // The CLI rejects a Schema without a block, so one is always sent, even when empty.
  schema_block(s.block, out->mutable_block());
}

template <class ProtoParameter>
void function_parameter(const engine::FunctionParameter& p, ProtoParameter* out) {
  out->set_name(text(p.name));
  out->set_type(engine::encode_type_json(p.type));
  out->set_allow_null_value(p.allow_null);
  out->set_allow_unknown_values(p.allow_unknown);
  out->set_description(text(p.description));
  description_kind(p.description_markdown, out);
}

template <class ProtoFunction>
void function(const engine::Function& f, ProtoFunction* out) {
  for (const auto& p : f.parameters) function_parameter(p, out->add_parameters());
  if (f.variadic) function_parameter(*f.variadic, out->mutable_variadic_parameter());
  out->mutable_return_()->set_type(engine::encode_type_json(f.returns));
  out->set_summary(text(f.summary));
  out->set_description(text(f.description));
  description_kind(f.description_markdown, out);
  out->set_deprecation_message(text(f.deprecated));
}

template <class ProtoFunctionMap>
void functions(const std::map<std::string, engine::Function>& fs, ProtoFunctionMap* out) {
  for (const auto& [name, f] : fs) function(f, &(*out)[text(name)]);
}

// Fills a GetProviderSchema response (tfplugin5 GetSchema has the same shape).
template <class ProtoResponse>
void provider_schema(const engine::GetProviderSchemaResponse& r, ProtoResponse* out) {
  server_capabilities(r.capabilities, out->mutable_server_capabilities());
  using ProtoAttribute =
      std::remove_pointer_t<decltype(out->mutable_provider()->mutable_block()->add_attributes())>;
  if constexpr (!requires(ProtoAttribute a) { a.mutable_nested_type(); }) {
    if (r.schema != nullptr && engine::uses_nested_attributes(*r.schema)) {
      engine::Diagnostics refused = r.diagnostics;
      refused.error("This provider needs protocol 6",
                    "Some of its schemas use nested attributes (tf.list_nested and the like), "
                    "which protocol 5 cannot describe. Use a CLI that speaks protocol 6 "
                    "(OpenTofu, or Terraform 1.0 and later).");
      schema(engine::Schema{}, out->mutable_provider());
      diagnostics(refused, out);
      return;
    }
  }
  if (r.schema != nullptr) {
    schema(r.schema->provider, out->mutable_provider());
    auto& resources = *out->mutable_resource_schemas();
    for (const auto& [name, s] : r.schema->resources) schema(s, &resources[text(name)]);
    auto& data_sources = *out->mutable_data_source_schemas();
    for (const auto& [name, s] : r.schema->data_sources) schema(s, &data_sources[text(name)]);
    auto& ephemeral = *out->mutable_ephemeral_resource_schemas();
    for (const auto& [name, s] : r.schema->ephemeral_resources) schema(s, &ephemeral[text(name)]);
    auto& lists = *out->mutable_list_resource_schemas();
    for (const auto& [name, s] : r.schema->list_resources) schema(s, &lists[text(name)]);
    // An ActionSchema wraps the schema; the CLI reads its block, so it is always set.
    auto& actions = *out->mutable_action_schemas();
    for (const auto& [name, s] : r.schema->actions) schema(s, actions[text(name)].mutable_schema());
    if constexpr (requires { out->mutable_state_store_schemas(); }) {
      auto& stores = *out->mutable_state_store_schemas();
      for (const auto& [name, s] : r.schema->state_stores) schema(s, &stores[text(name)]);
    }
    functions(r.schema->functions, out->mutable_functions());
  } else {
    // Without this the CLI reports "missing provider schema" instead of our diagnostics.
    schema(engine::Schema{}, out->mutable_provider());
  }
  diagnostics(r.diagnostics, out);
}

// A ResourceIdentityData field, filled only when there is an identity: the CLI reads an unset
// one as "no identity". `field` is the response's mutable_..._identity().
template <class Field>
void identity(const engine::wire::DynamicValue& v, Field field) {
  if (!v.empty()) dynamic_value(v, field()->mutable_identity_data());
}

template <class ProtoIdentitySchema>
void identity_schema(const engine::ResourceIdentity& identity, ProtoIdentitySchema* out) {
  out->set_version(identity.version);
  for (const auto& a : identity.attributes) {
    auto* attr = out->add_identity_attributes();
    attr->set_name(text(a.name));
    attr->set_type(engine::encode_type_json(a.type));
    attr->set_required_for_import(a.required_for_import);
    attr->set_optional_for_import(a.optional_for_import);
    attr->set_description(text(a.description));
  }
}

// A response's `deferred`, set only when the engine deferred the call.
template <class Resp>
void deferred(const std::optional<engine::DeferralReason>& reason, Resp* out) {
  if (!reason) return;
  using Reason = std::remove_pointer_t<decltype(out->mutable_deferred())>;
  out->mutable_deferred()->set_reason(static_cast<typename Reason::Reason>(*reason));
}

// One function per response message.

template <class Resp>
void metadata_response(const engine::GetMetadataResponse& r, Resp* out) {
  server_capabilities(r.capabilities, out->mutable_server_capabilities());
  for (const auto& name : r.resources) out->add_resources()->set_type_name(text(name));
  for (const auto& name : r.data_sources) out->add_data_sources()->set_type_name(text(name));
  for (const auto& name : r.ephemeral_resources) {
    out->add_ephemeral_resources()->set_type_name(text(name));
  }
  for (const auto& name : r.functions) out->add_functions()->set_name(text(name));
  for (const auto& name : r.list_resources) out->add_list_resources()->set_type_name(text(name));
  for (const auto& name : r.actions) out->add_actions()->set_type_name(text(name));
  if constexpr (requires { out->add_state_stores(); }) {
    for (const auto& name : r.state_stores) out->add_state_stores()->set_type_name(text(name));
  }
  diagnostics(r.diagnostics, out);
}

template <class Resp>
void configure_store_response(const engine::ConfigureStoreResponse& r, Resp* out) {
  // Terraform 1.16 reads the capabilities even from a response that reports an error.
  out->mutable_capabilities()->set_chunk_size(r.chunk_size);
  diagnostics(r.diagnostics, out);
}

// An InvokeAction event: a progress message, or the completion with its diagnostics.
template <class Event>
void action_event(const engine::ActionEvent& e, Event* out) {
  if (e.completed) {
    diagnostics(e.diagnostics, out->mutable_completed());
  } else {
    out->mutable_progress()->set_message(text(e.progress));
  }
}

// A ListResource event: its diagnostics field is singular in name.
template <class Event>
void list_event(const engine::wire::ListEvent& e, Event* out) {
  identity(e.identity, [out] { return out->mutable_identity(); });
  // The CLI prints the name on the object's result line: a newline or an ANSI escape in it
  // would forge another line or recolour the terminal, so control characters are escaped
  // (\n, \x1b; see one_line_text), which also makes it valid UTF-8.
  out->set_display_name(engine::one_line_text(e.display_name));
  if (!e.resource_object.empty()) dynamic_value(e.resource_object, out->mutable_resource_object());
  for (const auto& d : e.diagnostics.items()) diagnostic(d, out->add_diagnostic());
}

template <class Resp>
void functions_response(const engine::GetFunctionsResponse& r, Resp* out) {
  if (r.functions != nullptr) functions(*r.functions, out->mutable_functions());
  diagnostics(r.diagnostics, out);
}

template <class Resp>
void call_function_response(const engine::wire::CallFunctionResponse& r, Resp* out) {
  if (r.error) {
    out->mutable_error()->set_text(text(r.error->text));
    if (r.error->argument) out->mutable_error()->set_function_argument(*r.error->argument);
    return;
  }
  dynamic_value(r.result, out->mutable_result());
}

template <class Resp>
void plan_response(const engine::wire::PlanResponse& r, Resp* out) {
  dynamic_value(r.planned_state, out->mutable_planned_state());
  for (const auto& path : r.requires_replace) attribute_path(path, out->add_requires_replace());
  out->set_planned_private(r.planned_private);
  identity(r.planned_identity, [out] { return out->mutable_planned_identity(); });
  // legacy_type_system stays false: the CLI must hold our plans to its full consistency rules.
  diagnostics(r.diagnostics, out);
  deferred(r.deferred, out);
}

template <class Resp>
void apply_response(const engine::wire::ApplyResponse& r, Resp* out) {
  dynamic_value(r.new_state, out->mutable_new_state());
  out->set_private_(r.private_data);
  identity(r.new_identity, [out] { return out->mutable_new_identity(); });
  diagnostics(r.diagnostics, out);
}

template <class Resp>
void read_response(const engine::wire::ReadResponse& r, Resp* out) {
  dynamic_value(r.new_state, out->mutable_new_state());
  out->set_private_(r.private_data);
  identity(r.new_identity, [out] { return out->mutable_new_identity(); });
  diagnostics(r.diagnostics, out);
  deferred(r.deferred, out);
}

template <class Resp>
void read_data_response(const engine::wire::ReadDataResponse& r, Resp* out) {
  dynamic_value(r.state, out->mutable_state());
  diagnostics(r.diagnostics, out);
  deferred(r.deferred, out);
}

template <class Resp>
void generate_config_response(const engine::wire::GenerateConfigResponse& r, Resp* out) {
  dynamic_value(r.config, out->mutable_config());
  diagnostics(r.diagnostics, out);
}

template <class Resp>
void upgrade_response(const engine::wire::UpgradeResponse& r, Resp* out) {
  dynamic_value(r.upgraded_state, out->mutable_upgraded_state());
  diagnostics(r.diagnostics, out);
}

template <class Resp>
void import_response(const engine::wire::ImportResponse& r, Resp* out) {
  for (const auto& imported : r.imported) {
    auto* p = out->add_imported_resources();
    p->set_type_name(text(imported.type_name));
    dynamic_value(imported.state, p->mutable_state());
    p->set_private_(imported.private_data);
    identity(imported.identity, [p] { return p->mutable_identity(); });
  }
  diagnostics(r.diagnostics, out);
  deferred(r.deferred, out);
}

template <class Resp>
void plan_action_response(const engine::PlanActionResponse& r, Resp* out) {
  diagnostics(r.diagnostics, out);
  deferred(r.deferred, out);
}

template <class Resp>
void move_response(const engine::wire::MoveResponse& r, Resp* out) {
  if (!r.target_state.empty()) dynamic_value(r.target_state, out->mutable_target_state());
  out->set_target_private(r.target_private);
  identity(r.target_identity, [out] { return out->mutable_target_identity(); });
  diagnostics(r.diagnostics, out);
}

template <class Resp>
void identity_schemas_response(const engine::GetIdentitySchemasResponse& r, Resp* out) {
  auto& schemas = *out->mutable_identity_schemas();
  for (const auto& [name, identity] : r.identities) {
    identity_schema(*identity, &schemas[text(name)]);
  }
  diagnostics(r.diagnostics, out);
}

template <class Resp>
void upgrade_identity_response(const engine::wire::UpgradeIdentityResponse& r, Resp* out) {
  identity(r.upgraded_identity, [out] { return out->mutable_upgraded_identity(); });
  diagnostics(r.diagnostics, out);
}

// google.protobuf.Timestamp, set only when there is a time: unset means "never renew".
template <class Resp>
void renew_at(const engine::RenewTime& at, Resp* out) {
  if (!at) return;
  const auto since_epoch = at->time_since_epoch();
  const auto seconds = std::chrono::floor<std::chrono::seconds>(since_epoch);
  out->mutable_renew_at()->set_seconds(seconds.count());
  out->mutable_renew_at()->set_nanos(static_cast<int32_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(since_epoch - seconds).count()));
}

template <class Resp>
void open_ephemeral_response(const engine::wire::OpenEphemeralResponse& r, Resp* out) {
  if (!r.result.empty()) dynamic_value(r.result, out->mutable_result());
  if (!r.private_data.empty()) out->set_private_(r.private_data);
  renew_at(r.renew_at, out);
  deferred(r.deferred, out);
  diagnostics(r.diagnostics, out);
}

template <class Resp>
void renew_ephemeral_response(const engine::RenewEphemeralResponse& r, Resp* out) {
  if (!r.private_data.empty()) out->set_private_(r.private_data);
  renew_at(r.renew_at, out);
  diagnostics(r.diagnostics, out);
}

}  // namespace luaform::protocol::toproto
