#include "host/engine/schema/schema_json.h"

#include <nlohmann/json.hpp>

#include "host/engine/codec/json_codec.h"

namespace luaform::engine {
namespace {

using nlohmann::json;

// OpenTofu's jsonprovider package omits every false, zero and empty field (Go's omitempty), so
// each optional member below is only written when it carries something.

const char* description_kind(bool markdown) {
  return markdown ? "markdown" : "plain";
}

const char* nesting_name(NestingMode mode) {
  switch (mode) {
    case NestingMode::Single:
      return "single";
    case NestingMode::List:
      return "list";
    case NestingMode::Set:
      return "set";
    case NestingMode::Map:
      return "map";
    case NestingMode::Group:
      return "group";
  }
  return "invalid";
}

void put_description(json& out, const std::string& description, bool markdown) {
  if (!description.empty()) out["description"] = description;
  out["description_kind"] = description_kind(markdown);
}

void put_deprecation(json& out, const std::string& message) {
  // The schema model marks deprecation by a message; the protocol sends it as a flag plus
  // that message, and the CLI shows both.
  if (message.empty()) return;
  out["deprecated"] = true;
  out["deprecation_message"] = message;
}

void put_flag(json& out, const char* name, bool value) {
  if (value) out[name] = true;
}

json type_json(const Type& t) {
  // Through the cty type codec the protocol uses, so both agree by construction.
  return json::parse(encode_type_json(t));
}

json attribute_json(const Attribute& a) {
  json out = json::object();
  if (a.nested) {
    json& nested = out["nested_type"];
    for (const auto& inner : a.nested->block.attributes) {
      nested["attributes"][inner.name] = attribute_json(inner);
    }
    nested["nesting_mode"] = nesting_name(a.nested->nesting);
  } else {
    out["type"] = type_json(a.type);
  }
  put_description(out, a.description, a.description_markdown);
  put_deprecation(out, a.deprecated);
  put_flag(out, "required", a.required);
  put_flag(out, "optional", a.optional);
  put_flag(out, "computed", a.computed);
  put_flag(out, "sensitive", a.sensitive);
  put_flag(out, "write_only", a.write_only);
  return out;
}

json block_json(const Block& b);

json nested_block_json(const NestedBlock& nb) {
  json out = {{"nesting_mode", nesting_name(nb.nesting)}, {"block", block_json(nb.block)}};
  if (nb.min_items > 0) out["min_items"] = nb.min_items;
  if (nb.max_items > 0) out["max_items"] = nb.max_items;
  return out;
}

json block_json(const Block& b) {
  json out = json::object();
  if (!b.attributes.empty()) {
    json& attributes = out["attributes"];
    for (const auto& a : b.attributes) attributes[a.name] = attribute_json(a);
  }
  if (!b.blocks.empty()) {
    json& block_types = out["block_types"];
    for (const auto& nb : b.blocks) block_types[nb.type_name] = nested_block_json(nb);
  }
  put_description(out, b.description, b.description_markdown);
  put_deprecation(out, b.deprecated);
  return out;
}

json schema_json(const Schema& s) {
  return {{"version", s.version}, {"block", block_json(s.block)}};
}

json schemas_json(const std::map<std::string, Schema>& schemas) {
  json out = json::object();
  for (const auto& [name, schema] : schemas) out[name] = schema_json(schema);
  return out;
}

// Identities as jsonprovider writes them: attributes keyed by name, texts and flags only when set.
json identity_json(const ResourceIdentity& identity) {
  json attributes = json::object();
  for (const auto& a : identity.attributes) {
    json attr = {{"type", type_json(a.type)}};
    if (!a.description.empty()) attr["description"] = a.description;
    put_flag(attr, "required_for_import", a.required_for_import);
    put_flag(attr, "optional_for_import", a.optional_for_import);
    attributes[a.name] = attr;
  }
  json out = {{"version", identity.version}};
  if (!attributes.empty()) out["attributes"] = attributes;
  return out;
}

// Functions follow the CLI's jsonfunction package, which, unlike jsonprovider, writes
// descriptions and summaries even when empty.
json parameter_json(const FunctionParameter& p) {
  json out = {{"name", p.name}, {"type", type_json(p.type)}, {"description", p.description}};
  put_flag(out, "is_nullable", p.allow_null);
  return out;
}

json function_json(const Function& f) {
  json out = {{"description", f.description}, {"summary", f.summary}};
  out["return_type"] = type_json(f.returns);
  if (!f.parameters.empty()) {
    json& parameters = out["parameters"];
    for (const auto& p : f.parameters) parameters.push_back(parameter_json(p));
  }
  if (f.variadic) out["variadic_parameter"] = parameter_json(*f.variadic);
  return out;
}

}  // namespace

std::string provider_schema_json(const std::string& address, const ProviderSchema& schema) {
  json provider = {{"provider", schema_json(schema.provider)}};
  if (!schema.resources.empty()) provider["resource_schemas"] = schemas_json(schema.resources);
  if (!schema.data_sources.empty()) {
    provider["data_source_schemas"] = schemas_json(schema.data_sources);
  }
  for (const auto& [name, resource] : schema.resources) {
    if (resource.identity) {
      provider["resource_identity_schemas"][name] = identity_json(*resource.identity);
    }
  }
  if (!schema.ephemeral_resources.empty()) {
    provider["ephemeral_resource_schemas"] = schemas_json(schema.ephemeral_resources);
  }
  // The list block's configuration alone, as jsonprovider writes it (the CLI's own wrapping of
  // it in a `config` block is taken off again there).
  if (!schema.list_resources.empty()) {
    provider["list_resource_schemas"] = schemas_json(schema.list_resources);
  }
  // An action's schema has no version: jsonprovider writes its block alone.
  for (const auto& [name, action] : schema.actions) {
    provider["action_schemas"][name] = {{"block", block_json(action.block)}};
  }
  if (!schema.state_stores.empty()) {
    provider["state_store_schemas"] = schemas_json(schema.state_stores);
  }
  if (!schema.functions.empty()) {
    json& functions = provider["functions"];
    for (const auto& [name, f] : schema.functions) functions[name] = function_json(f);
  }
  json document = {{"format_version", "1.0"}, {"provider_schemas", {{address, provider}}}};
  // Descriptions and names come from scripts and may hold bytes that are not UTF-8; they become
  // U+FFFD, as in the value codec, instead of an exception that would end `luaform --schema`.
  return document.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace luaform::engine
