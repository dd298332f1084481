// Rules that turn the schema an author declares into the schema Terraform is shown.
#pragma once

#include "host/engine/schema/schema.h"
#include "host/engine/value/diagnostics.h"

namespace luaform::engine {

// An attribute with a default is planned with a value the configuration does not hold, which
// the CLI allows only for computed attributes; so such attributes are shown as
// optional+computed (the framework's rule). Every resource also gets its computed "id".
ProviderSchema schema_as_served(const ProviderSchema& declared);

// `object` (of the block's type) with the default of each attribute that `config` leaves null.
// Defaults follow the configuration, not the prior state: removing an argument from the
// configuration plans its default again. Applies inside nested blocks too, element by element.
Value with_defaults(const Block& block, const Value& object, const Value& config);

// The attribute path a dotted address ("disk.0.size", "tags.env") names in objects of
// `object_type`: names of object attributes, indexes of list and tuple elements, keys of map
// elements. It stops before a step the type cannot take (an unknown name, a set element, a
// bad index), so a script's mistake in an address still points at the nearest attribute.
AttributePath attribute_path(const Type& object_type, const std::string& address);

// `object` with every null list, set or map block, at any depth, made an empty collection. The
// CLI always sends blocks the configuration leaves out as empty collections, so a state that
// holds null there (a read that set nothing, an import, an upgrade) would differ from every
// plan.
Value with_empty_blocks(const Block& block, const Value& object);

// Where a block is, for the options only some places allow: write-only attributes only at the
// top of a resource's schema; requires_replace_if and plan functions anywhere in a resource's
// schema except inside set blocks (whose elements have no address).
enum class BlockPlace { Elsewhere, ResourceTop, ResourceNested, ResourceInSet };

// InternalValidate's checks on one block (reserved names, option combinations).
void validate_block(const Block& block, const std::string& where, Diagnostics& diags,
                    BlockPlace place = BlockPlace::Elsewhere);

// Every attribute address an attribute's conflicts_with, required_with, exactly_one_of and
// at_least_one_of name must lead somewhere in `block` (the schema's top): "name", "disk.0.size"
// for a list block, "boot.image" for a single block. One that leads nowhere would make its rule
// silently never apply: an error naming the attribute, the option and the address, with the
// spelling that works when there is one.
void validate_addresses(const Block& block, const std::string& where, Diagnostics& diags);

// `object` with its write-only attributes null: what is planned and saved for a value the
// configuration sends but Terraform must not keep.
Value without_write_only(const Block& block, const Value& object);

// The same for a provider-defined function: parameter names present and distinct, and the
// dynamic type only as a whole parameter or return type (a collection or object of values of
// any type would need cty's type unification, which luaform does not do).
void validate_function(const Function& function, const std::string& where, Diagnostics& diags);

}  // namespace luaform::engine
