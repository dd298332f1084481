#include "host/engine/rules/deferral.h"

#include "host/engine/schema/spelling.h"

namespace luaform::engine {

Diagnostics deferral_problem(Deferrable deferrable) {
  Diagnostics diags;
  switch (deferrable) {
    case Deferrable::Allowed:
      break;
    case Deferrable::NotByCli:
      diags.error("This run does not allow deferred changes",
                  "The script asked to wait for a later run" + written_as(Hint::Defer) +
                      ", but the CLI did not allow it: only Terraform 1.9 or later, run with "
                      "-allow-deferral (an experiment), takes such an answer. Elsewhere, fail "
                      "with an error that says what the object is waiting for.");
      break;
    case Deferrable::Never:
      diags.error("This call cannot be deferred",
                  "Only a plan (customize_diff), a read, an import, a data source's read and an "
                  "ephemeral resource's open may wait for a later run" +
                      written_as(Hint::Defer) + "; an apply or a delete is already under way.");
      break;
  }
  return diags;
}

}  // namespace luaform::engine
