// What a message of the engine asks an author to write, named in the words of Terraform's
// contract. How to write it belongs to the logic's language (for Lua scripts, the SDK's:
// "import = tf.import_by_id"): the layer that runs the logic installs its spelling once, so
// that the engine's messages show the line to write without the engine knowing any SDK.
// Without a spelling installed (the engine's own tests) messages stand on the contract's words.
#pragma once

#include <string>
#include <string_view>

namespace luaform::engine {

enum class Hint {
  ImportById,       // a resource imported by its id alone
  ImportSetsId,     // an import function that sets the id from the identity
  SetId,            // setting the object's id in create or import
  SetIdentity,      // setting identity attribute `subject` directly
  SetNewComputed,   // making computed attribute `subject` unknown in customize_diff
  ForceNew,         // forcing a new object from customize_diff
  ChangesOnUpdate,  // a computed attribute that changes on every update
  DeclareIdentity,  // declaring a resource's identity
  IdentityExample,  // an identity with one attribute required for import
  MutableIdentity,  // an identity that may change
  IdentityUpgrade,  // an identity upgrade from version `subject`
  DynamicType,      // the dynamic pseudo-type of function parameters
  Defer,            // a hook's answer of "not now, in a later run"
};

// How an author of the installed language writes `hint` for `subject` (an attribute name, a
// version), or "" when none is installed. Safe to call from any thread.
using Spelling = std::string (*)(Hint hint, std::string_view subject);
void install_spelling(Spelling spelling);
std::string spelled(Hint hint, std::string_view subject = {});

// " (SPELLING)", or "" without one: for the end of a sentence that says what to do.
std::string written_as(Hint hint, std::string_view subject = {});
// " (for example SPELLING)", or "".
std::string for_example(Hint hint, std::string_view subject = {});

}  // namespace luaform::engine
