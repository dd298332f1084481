#include "host/engine/rpc/declared_schema.h"

#include <string>

#include "host/engine/rules/resource_identity.h"
#include "host/engine/schema/schema_rules.h"

namespace luaform::engine {
namespace {

// The checks of one definition's block.
Diagnostics block_problems(const Block& block, const std::string& where, BlockPlace place) {
  Diagnostics diags;
  validate_block(block, where, diags, place);
  validate_addresses(block, where, diags);
  return diags;
}

// Why a definition is left out: its errors, one per paragraph.
std::string reasons(const Diagnostics& found) {
  std::string why;
  for (const Diagnostic& d : found.items()) {
    if (d.severity != Severity::Error) continue;
    if (!why.empty()) why += "\n\n";
    why += d.summary;
    if (!d.detail.empty()) why += ": " + d.detail;
  }
  return why;
}

// Leaves `name` of `definitions` out when `found` holds errors (else passes its warnings on):
// an empty stand-in takes its place (`keep_stand_in`), or none (functions, whose signatures the
// CLI checks before anything else).
template <class Definitions>
void leave_out_if_failed(Definitions& definitions, const std::string& name, SchemaOwner owner,
                         const std::string& what, const Diagnostics& found, ProviderSchema& checked,
                         Diagnostics& diags, bool keep_stand_in = true) {
  if (!found.has_errors()) {
    diags.append(found);
    return;
  }
  const std::string why = reasons(found);
  diags.warning("Cannot use " + what + ": it is left out",
                why + "\n\nThe provider's other types work. Configurations that use " + name +
                    " fail until its declarations are fixed (`--check` lists every problem).");
  if (keep_stand_in) {
    definitions[name] = typename Definitions::mapped_type{};
    checked.left_out[left_out_key(owner, name)] = why;
  } else {
    definitions.erase(name);
  }
}

}  // namespace

ProviderSchema with_problems_left_out(const ProviderSchema& declared, Diagnostics& diags) {
  ProviderSchema checked = declared;
  diags.append(block_problems(declared.provider.block, "provider", BlockPlace::Elsewhere));
  for (const auto& [name, schema] : declared.resources) {
    Diagnostics found = block_problems(schema.block, "resource " + name, BlockPlace::ResourceTop);
    if (schema.identity) validate_identity(*schema.identity, "resource " + name, found);
    leave_out_if_failed(checked.resources, name, SchemaOwner::Resource, "resource " + name, found,
                        checked, diags);
  }
  for (const auto& [name, schema] : declared.data_sources) {
    leave_out_if_failed(checked.data_sources, name, SchemaOwner::DataSource, "data source " + name,
                        block_problems(schema.block, "data source " + name, BlockPlace::Elsewhere),
                        checked, diags);
  }
  for (const auto& [name, schema] : declared.ephemeral_resources) {
    leave_out_if_failed(
        checked.ephemeral_resources, name, SchemaOwner::EphemeralResource,
        "ephemeral resource " + name,
        block_problems(schema.block, "ephemeral resource " + name, BlockPlace::Elsewhere), checked,
        diags);
  }
  for (const auto& [name, schema] : declared.actions) {
    leave_out_if_failed(checked.actions, name, SchemaOwner::Action, "action " + name,
                        block_problems(schema.block, "action " + name, BlockPlace::Elsewhere),
                        checked, diags);
  }
  for (const auto& [name, schema] : declared.state_stores) {
    Diagnostics found = block_problems(schema.block, "state store " + name, BlockPlace::Elsewhere);
    // The state_store block holds the provider's own configuration as a `provider` block.
    if (schema.block.find_attribute("provider") || schema.block.find_block("provider")) {
      found.error("state store " + name + ": \"provider\" is reserved",
                  "The state_store block's `provider \"NAME\" { ... }` configures the provider; "
                  "Terraform refuses a store argument or block of that name. Rename it.");
    }
    leave_out_if_failed(checked.state_stores, name, SchemaOwner::StateStore, "state store " + name,
                        found, checked, diags);
  }
  for (const auto& [name, schema] : declared.list_resources) {
    Diagnostics found =
        block_problems(schema.block, "list resource " + name, BlockPlace::Elsewhere);
    // The CLI reads listed objects with the resource's identity and object types.
    const auto resource = checked.resources.find(name);
    if (resource == checked.resources.end() || !resource->second.identity) {
      found.error("List resource " + name + " lists no resource with an identity",
                  "A list resource enumerates objects of the managed resource type of the same "
                  "name, by their identities: declare resource " +
                      name + " with an identity.");
    }
    leave_out_if_failed(checked.list_resources, name, SchemaOwner::ListResource,
                        "list resource " + name, found, checked, diags);
  }
  for (const auto& [name, function] : declared.functions) {
    Diagnostics found;
    validate_function(function, "function " + name, found);
    leave_out_if_failed(checked.functions, name, SchemaOwner::Provider, "function " + name, found,
                        checked, diags, false);
  }
  return checked;
}

}  // namespace luaform::engine
