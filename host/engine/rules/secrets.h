// What must never be written to a log: the texts of a resource's or provider's sensitive
// values, found through the schema (attributes declared sensitive, at any depth) and through
// the values' own sensitive marks.
#pragma once

#include <string>
#include <vector>

#include "host/engine/schema/schema.h"
#include "host/engine/value/diagnostics.h"
#include "host/engine/value/value.h"

namespace luaform::engine {

// The strings and numbers (as text) inside the sensitive parts of `object`, a value of
// `block`'s implied type: attributes declared sensitive or write-only, and values marked
// sensitive. Nulls, unknowns and booleans hold nothing to hide.
std::vector<std::string> sensitive_texts(const Block& block, const Value& object);
// The same for one top-level attribute or nested block `name` of `block` holding `value`,
// added to `out`; nothing for a name `block` does not have.
void add_sensitive_texts(const Block& block, const std::string& name, const Value& value,
                         std::vector<std::string>& out);

// `text` with every occurrence of each secret replaced by "***", longest secrets first (so a
// longer secret is not left half-shown by a shorter one it starts with). A secret shorter than
// four characters is replaced only where it stands alone, not inside a longer word. Each
// secret is hidden in every spelling a script or the host may give it without meaning to: as
// it is, without a trailing newline, JSON-escaped, %q-quoted, URL-encoded, and in base64
// (alone or inside a longer encoded text, when it has six bytes or more).
std::string redact(std::string text, const std::vector<std::string>& secrets);

// `diags` with every secret hidden in their summaries and details: a script's error message
// may quote the values it was given, and the CLI prints diagnostics as they are.
Diagnostics redact(const Diagnostics& diags, const std::vector<std::string>& secrets);

}  // namespace luaform::engine
