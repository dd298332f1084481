// Defaults given as text, as an environment variable gives them (tf.env): read the way
// helper/schema reads a DefaultFunc's string for the attribute's type.
#pragma once

#include <optional>
#include <string>

#include "host/engine/value/type.h"
#include "host/engine/value/value.h"

namespace luaform::engine {

// `text` as a value of `type`: Go's strconv.ParseBool for a bool ("1", "t", "T", "TRUE",
// "true", "True" and their false counterparts "0", "f", ...), a decimal number for a number, the
// text itself for a string. nullopt, with `problem` saying why, for text that is none of these
// or a type text cannot give.
std::optional<Value> value_from_default_text(const Type& type, const std::string& text,
                                             std::string& problem);

}  // namespace luaform::engine
