#include "host/lua/provider/sdk_spelling.h"

namespace luaform::lua {

std::string sdk_spelling(engine::Hint hint, std::string_view subject) {
  using engine::Hint;
  const std::string name(subject);
  switch (hint) {
    case Hint::ImportById:
      return "import = tf.import_by_id";
    case Hint::ImportSetsId:
      return "import = function(d, client) d:set_id(...) end, from d:identity()";
    case Hint::SetId:
      return "d:set_id(...)";
    case Hint::SetIdentity:
      return "d:set_identity { " + name + " = ... }";
    case Hint::SetNewComputed:
      return "d:set_new_computed(\"" + name + "\")";
    case Hint::ForceNew:
      return "d:force_new";
    case Hint::ChangesOnUpdate:
      return "changes_on_update = true";
    case Hint::DeclareIdentity:
      return "identity = { schema = { ... } }";
    case Hint::IdentityExample:
      return "identity = { schema = { name = tf.string { required_for_import = true } } }";
    case Hint::MutableIdentity:
      return "identity = { mutable = true, ... }";
    case Hint::IdentityUpgrade:
      return "identity = { upgrade = { [" + name + "] = function(raw) ... end } }";
    case Hint::DynamicType:
      return "tf.dynamic";
    case Hint::Defer:
      return "d:defer()";
  }
  return {};
}

}  // namespace luaform::lua
