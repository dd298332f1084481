#include "host/engine/schema/schema.h"

#include <algorithm>

namespace luaform::engine {
namespace {

bool block_uses_nested_attributes(const Block& block) {
  return std::any_of(block.attributes.begin(), block.attributes.end(),
                     [](const Attribute& a) { return a.nested != nullptr; }) ||
         std::any_of(block.blocks.begin(), block.blocks.end(),
                     [](const NestedBlock& b) { return block_uses_nested_attributes(b.block); });
}

}  // namespace

std::string left_out_key(SchemaOwner owner, const std::string& type_name) {
  // A list resource shares its name with the resource it lists, and an action may share one
  // with a resource; each may load alone.
  switch (owner) {
    case SchemaOwner::ListResource:
      return "list " + type_name;
    case SchemaOwner::Action:
      return "action " + type_name;
    case SchemaOwner::StateStore:
      return "state store " + type_name;
    default:
      return type_name;
  }
}

bool uses_nested_attributes(const ProviderSchema& schema) {
  if (block_uses_nested_attributes(schema.provider.block)) return true;
  for (const auto* schemas :
       {&schema.resources, &schema.data_sources, &schema.ephemeral_resources}) {
    for (const auto& [name, s] : *schemas) {
      if (block_uses_nested_attributes(s.block)) return true;
    }
  }
  return false;
}

const FunctionParameter* Function::parameter_for(size_t index) const {
  if (index < parameters.size()) return &parameters[index];
  return variadic ? &*variadic : nullptr;
}

Type Block::implied_type() const {
  if (settled_type) return *settled_type;
  std::map<std::string, Type> attrs;
  for (const Attribute& a : attributes) attrs.emplace(a.name, a.type);
  for (const NestedBlock& b : blocks) attrs.emplace(b.type_name, b.implied_type());
  return Type::object(std::move(attrs));
}

std::vector<const NestedBlock*> Block::nested_objects() const {
  std::vector<const NestedBlock*> out;
  for (const NestedBlock& b : blocks) out.push_back(&b);
  for (const Attribute& a : attributes) {
    if (a.nested) out.push_back(a.nested.get());
  }
  return out;
}

const Attribute* Block::find_attribute(const std::string& name) const {
  for (const Attribute& a : attributes) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

Type ResourceIdentity::implied_type() const {
  if (settled_type) return *settled_type;
  std::map<std::string, Type> attrs;
  for (const IdentityAttribute& a : attributes) attrs.emplace(a.name, a.type);
  return Type::object(std::move(attrs));
}

const IdentityAttribute* ResourceIdentity::find(const std::string& name) const {
  for (const IdentityAttribute& a : attributes) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

const NestedBlock* Block::find_block(const std::string& name) const {
  for (const NestedBlock& b : blocks) {
    if (b.type_name == name) return &b;
  }
  return nullptr;
}

Type NestedBlock::implied_type() const {
  if (settled_type) return *settled_type;
  Type object = block.implied_type();
  switch (nesting) {
    case NestingMode::Single:
    case NestingMode::Group:
      return object;
    case NestingMode::List:
      // As Terraform's configschema does: list elements must share one type, which blocks
      // with dynamic attributes cannot promise, so such a block is dynamically typed.
      return object.has_dynamic_types() ? Type::dynamic() : Type::list(object);
    case NestingMode::Set:
      return Type::set(object);
    case NestingMode::Map:
      return object.has_dynamic_types() ? Type::dynamic() : Type::map(object);
  }
  return object;
}

namespace {

void settle_block(Block& block);

// Builds `part`'s type afresh (not from what an earlier settling left) and keeps it.
template <class Part>
void settle(Part& part) {
  part.settled_type.reset();
  part.settled_type = part.implied_type();
}

void settle_nested(NestedBlock& nested) {
  settle_block(nested.block);
  settle(nested);
}

void settle_block(Block& block) {
  for (NestedBlock& b : block.blocks) settle_nested(b);
  for (Attribute& a : block.attributes) {
    if (!a.nested) continue;
    auto settled = std::make_shared<NestedBlock>(*a.nested);
    settle_nested(*settled);
    a.nested = std::move(settled);
  }
  settle(block);
}

void settle_schema(Schema& schema) {
  settle_block(schema.block);
  if (schema.identity) settle(*schema.identity);
}

}  // namespace

void settle_types(ProviderSchema& schema) {
  settle_schema(schema.provider);
  for (auto* kind : {&schema.resources, &schema.data_sources, &schema.ephemeral_resources,
                     &schema.list_resources, &schema.actions, &schema.state_stores}) {
    for (auto& [name, one] : *kind) settle_schema(one);
  }
}

}  // namespace luaform::engine
