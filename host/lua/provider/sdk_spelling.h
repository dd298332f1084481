// How the SDK's authors write what the engine's messages ask of them (engine/schema/spelling.h):
// "import = tf.import_by_id", "d:set_id(...)". Installed by load_provider.
#pragma once

#include <string>
#include <string_view>

#include "host/engine/schema/spelling.h"

namespace luaform::lua {

std::string sdk_spelling(engine::Hint hint, std::string_view subject);

}  // namespace luaform::lua
