// The schema model: what a provider, resource or data source declares, with the
// helper/schema options (force_new, default, ...) that the engine's plan and apply rules read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "host/engine/value/duration.h"
#include "host/engine/value/type.h"
#include "host/engine/value/value.h"

namespace luaform::engine {

struct NestedBlock;

// Where the default a function gave (default_value) comes from, so that documentation can say
// where rather than show what the function gave while the schema was read: the value of an
// environment variable in the shell that ran --docs, often a secret.
struct DefaultSource {
  // tf.env's variables, in the order read: the first that is set and not empty gives the
  // value. Empty: a function that does not say where its value comes from.
  std::vector<std::string> environment;
  std::optional<Value> fallback;  // the value when none of them is set (tf.env's fallback)
  // Declared required, and optional only when the function gives a value.
  bool declared_required = false;
};

struct Attribute {
  std::string name;
  Type type;  // for a nested attribute: nested->implied_type()
  std::string description;
  bool description_markdown = false;
  bool required = false;
  bool optional = false;
  bool computed = false;
  bool sensitive = false;
  bool force_new = false;
  // Sent by the configuration to create and update, never planned or saved: the engine nulls
  // it in every object it returns. Only top-level attributes of resources may be write-only.
  bool write_only = false;
  std::string deprecated;              // non-empty: the deprecation message
  std::string removed;                 // non-empty: setting it is an error with this message
  std::optional<Value> default_value;  // applied at plan time when config is null
  // Set when default_value, or its absence, came from a function (`default = tf.env(...)`).
  std::optional<DefaultSource> default_source;
  // A default given as text that is not a value of the type (X_INSECURE=maybe for a bool): an
  // error naming the attribute when the configuration leaves it unset, not a load failure.
  std::string default_problem;
  bool has_validate = false;  // the logic checks values (ProviderLogic::validate_value)
  // What the plan of an update does with a computed value the configuration leaves unset: it
  // keeps the stored value (helper/schema's rule, and the framework's use_state_for_unknown,
  // still accepted), unless changes_on_update says the provider gives it a new value whenever
  // the object is updated (an etag, an updated_at): then it is unknown in such a plan.
  // has_requires_replace_if: the logic decides whether a change replaces the object
  // (ProviderLogic::requires_replace).
  bool use_state_for_unknown = false;
  bool changes_on_update = false;
  bool has_requires_replace_if = false;
  // The logic plans the value itself (ProviderLogic::plan_attribute), for a computed attribute.
  bool has_plan_function = false;
  // A computed attribute's promise about the value it will have: the plan's unknown carries it,
  // so configurations can use it before apply, and apply holds the script to it.
  Refinement refine;
  // The logic says when two spellings are the same value (diff_suppress, state_func):
  // ProviderLogic::same_value, applied by keep_equivalent.
  bool has_equivalence = false;
  // A set whose elements the logic puts in a normal form (element_state_func):
  // ProviderLogic::normal_forms, by which keep_equivalent pairs the elements of two sets.
  bool has_element_normaliser = false;
  bool duration = false;  // a string that must read as a duration ("10m")
  // Dotted addresses from the top of the configuration ("name", "disk.0.size"): attributes that
  // must not be set with this one, must be set with it, or of which exactly one / at least one
  // must be set (the group usually names this attribute too).
  std::vector<std::string> conflicts_with;
  std::vector<std::string> required_with;
  std::vector<std::string> exactly_one_of;
  std::vector<std::string> at_least_one_of;
  // A protocol 6 nested attribute: its value is an object, or a list, set or map of objects,
  // whose own attributes are in nested->block (nested->type_name is this attribute's name).
  // Unlike a nested block it is written `name = { ... }`, and may be null or computed.
  std::shared_ptr<const NestedBlock> nested;
  // Where the logic declared it ("resource_pool.lua:12"), when it says: the schema's rules
  // report their problems there.
  std::string declared_at;
};

enum class NestingMode { Single, List, Set, Map, Group };

struct Block {
  std::vector<Attribute> attributes;
  std::vector<NestedBlock> blocks;
  std::string description;
  bool description_markdown = false;
  std::string deprecated;

  // The object type of a value conforming to this block: a served schema's blocks hand out the
  // one settle_types built; others build it on each call.
  Type implied_type() const;
  // Set by settle_types once the block is complete; a block changed after that must be settled
  // again.
  std::optional<Type> settled_type = std::nullopt;
  // Whatever holds objects of an inner block: the nested blocks, then the nested attributes.
  // The plan rules treat both alike, element by element.
  std::vector<const NestedBlock*> nested_objects() const;
  const Attribute* find_attribute(const std::string& name) const;
  const NestedBlock* find_block(const std::string& name) const;
};

struct NestedBlock {
  std::string type_name;
  Block block;
  NestingMode nesting = NestingMode::List;
  int64_t min_items = 0;
  int64_t max_items = 0;  // 0: unlimited
  bool force_new = false;
  // Filled in by the provider when the configuration has no such block (helper/schema's
  // Optional + Computed list of a resource), kept from the state once it was. Only Terraform
  // 1.16's protocol 6.11 can plan it: a plan from another CLI that leaves it out is an error.
  // The blocks inside one are computed too (the schema served says so).
  bool computed = false;
  std::string declared_at;  // as Attribute::declared_at
  // Settings of the operations rather than of the object (the `timeouts` block): a change to
  // them never replaces the resource and needs no update function.
  bool operational = false;
  // A set of objects whose elements the logic puts in a normal form, as
  // Attribute::has_element_normaliser.
  bool has_element_normaliser = false;

  Type implied_type() const;
  std::optional<Type> settled_type = std::nullopt;  // as Block::settled_type
};

// An attribute of a resource's identity: a value that names the remote object, which
// `import` blocks may give instead of an id. Its type is a primitive or a list of primitives.
struct IdentityAttribute {
  std::string name;
  Type type;
  std::string description;
  bool description_markdown = false;
  // Exactly one of them: an import by identity must give the attribute, or may.
  bool required_for_import = false;
  bool optional_for_import = false;
};

// A resource's identity: which object it is, stored by the CLI next to the state and kept
// unchanged for the object's life (unless `mutable`). Versioned like the schema.
struct ResourceIdentity {
  int64_t version = 0;
  std::vector<IdentityAttribute> attributes;
  // The object may come to be named differently (a rename in place) without being replaced.
  bool mutable_identity = false;

  Type implied_type() const;
  std::optional<Type> settled_type = std::nullopt;  // as Block::settled_type
  const IdentityAttribute* find(const std::string& name) const;
};

struct Schema {
  int64_t version = 0;
  Block block;
  // Only resources may have one.
  std::optional<ResourceIdentity> identity;
  // How long each operation ("create", "read", "update", "delete", or "default" for the
  // others) may take unless the configuration's `timeouts` block says otherwise. Non-empty:
  // the schema is served with that block.
  std::map<std::string, Duration> timeouts;
  // What a resource's logic can do besides create, read and delete: data of the schema, so that
  // every rule that depends on it reads it where it reads the attributes.
  // Without an update function every changed argument forces a new object.
  bool has_update = true;
  // `terraform import` (by id or identity) is supported.
  bool importable = true;
  // The logic has its own say in plans (customize_diff), after the schema's rules.
  bool customizes_diff = false;
  // The type can take over the state of another type (a `moved` block across types).
  bool moves_state = false;
  // The logic has its say when the object is to be destroyed (a warning, or an error that
  // refuses the destroy plan): the CLI then plans destroys with the provider.
  bool checks_destroy = false;
};

// A parameter of a provider-defined function.
struct FunctionParameter {
  std::string name;
  Type type;  // the dynamic pseudo-type: any value, passed with its own type
  std::string description;
  bool description_markdown = false;
  // Without allow_null a null argument is an error; without allow_unknown an unknown argument
  // makes the result unknown without calling the function.
  bool allow_null = false;
  bool allow_unknown = false;
};

// A provider-defined function, called in configurations as provider::NAME::FUNCTION(...).
struct Function {
  std::vector<FunctionParameter> parameters;
  // Takes every argument after `parameters`, each of its type (none at all is fine).
  std::optional<FunctionParameter> variadic;
  Type returns;
  std::string summary;
  std::string description;
  bool description_markdown = false;
  std::string deprecated;  // non-empty: the deprecation message

  // The parameter that receives argument `index` (0-based), or null when there is none.
  const FunctionParameter* parameter_for(size_t index) const;
};

// Everything a provider declares, as GetProviderSchema reports it.
struct ProviderSchema {
  Schema provider;
  std::map<std::string, Schema> resources;     // keyed by full type name ("local_file")
  std::map<std::string, Schema> data_sources;  // keyed by full type name
  // Values opened for the length of one CLI run and never saved (ephemeral "x" "y" { ... }).
  std::map<std::string, Schema> ephemeral_resources;  // keyed by full type name
  std::map<std::string, Function> functions;          // keyed by the name after provider::NAME::
  // The configurations of `list` blocks (Terraform 1.14's `terraform query`), keyed by the
  // managed resource type each lists; that type must have an identity.
  std::map<std::string, Schema> list_resources;
  // The configurations of `action` blocks (Terraform 1.14): operations a configuration invokes
  // (`-invoke`, or a resource's action_trigger) that change nothing in state.
  std::map<std::string, Schema> actions;
  // The configurations of `state_store` blocks (protocol 6, Terraform 1.13 onwards behind its
  // experiment): where the CLI keeps its own state, read and written through the provider.
  std::map<std::string, Schema> state_stores;
  // Types whose definitions did not load, with why. Each stands in its map above with an empty
  // schema, so that the CLI accepts the provider and reaches validation, where a configuration
  // that uses one gets an error saying why; every other type works. Keyed by left_out_key.
  std::map<std::string, std::string> left_out;
};

// Whose schema an attribute belongs to. A list resource's schema is the configuration of a
// `list` block (its filters), named after the resource type it lists; an action's is the
// configuration of an `action` block, a state store's that of a `state_store` block.
enum class SchemaOwner {
  Provider,
  Resource,
  DataSource,
  EphemeralResource,
  ListResource,
  Action,
  StateStore
};

// The key of ProviderSchema::left_out for the definition of `owner` named `type_name`.
std::string left_out_key(SchemaOwner owner, const std::string& type_name);

// Builds the implied type of every block, nested block and identity of `schema` once, so the
// RPCs that read and write its values hand the types out instead of building them per value.
void settle_types(ProviderSchema& schema);

// True when some resource, data source, ephemeral resource or the provider uses nested attributes,
// which only protocol 6 can describe.
bool uses_nested_attributes(const ProviderSchema& schema);

}  // namespace luaform::engine
