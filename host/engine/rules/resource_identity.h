// Resource identity (protocol 5.9 / 6.9, OpenTofu and Terraform 1.12): a small object that
// names the remote object, which the CLI stores next to the state and `import` blocks may give
// instead of an id. The rules here are Terraform's contract for it: an identity is known and
// complete after every create, read, update and import, and it never changes during the
// object's life unless the resource says its identity is mutable.
#pragma once

#include <string>

#include "host/engine/rules/resource_data.h"
#include "host/engine/schema/schema.h"
#include "host/engine/value/diagnostics.h"
#include "host/engine/value/value.h"

namespace luaform::engine {

// InternalValidate's checks on an identity declaration: at least one attribute, each of a
// primitive type or a list of one, each exactly one of required_for_import or
// optional_for_import.
void validate_identity(const ResourceIdentity& identity, const std::string& where,
                       Diagnostics& diags);

// The identity of `state` after a function ran on `d`: per attribute, what the function set
// (d.set_identity), else the state's top-level attribute of the same name and type (the id
// included), else what the CLI gave. Most resources set nothing: their identity is a copy of
// some of their attributes. Null when `state` is.
Value identity_of(const ResourceIdentity& identity, const Value& state, const ResourceData& d);

// Reports an identity that breaks the contract, naming the attribute: a required_for_import
// attribute still null, or (unless the identity is mutable) an attribute that `prior` held
// and `now` changes. `what` names the resource and operation ("example_note: read").
void check_identity(const ResourceIdentity& identity, const Value& prior, const Value& now,
                    const std::string& what, Diagnostics& diags);

// True when every required_for_import attribute of `now` is set: an identity the CLI can keep.
bool identity_complete(const ResourceIdentity& identity, const Value& now);

// Import by identity: a new object of `block`'s type holding each identity attribute in the
// top-level attribute of the same name and type; the others null.
Value object_from_identity(const Block& block, const Value& identity);

}  // namespace luaform::engine
