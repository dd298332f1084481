// Deferred changes (Terraform 1.9 onwards, behind `-allow-deferral`): an answer of "not now"
// instead of a result, after which the CLI plans the rest and comes back to the object in a
// later run. The engine defers by itself while the provider's configuration is unknown; the
// logic may defer a plan, a read, an import, a data source's read or an ephemeral resource's
// open where the CLI allows it.
#pragma once

#include <string>

#include "host/engine/value/diagnostics.h"

namespace luaform::engine {

enum class DeferralReason {
  ResourceConfigUnknown = 1,
  ProviderConfigUnknown = 2,
  AbsentPrereq = 3
};

// Whether the call under way may answer with a deferral.
enum class Deferrable {
  Never,     // an apply, a delete, a hook that is no plan or read: the change is under way
  NotByCli,  // a plan or read, but the CLI did not allow deferrals
  Allowed,
};

// Why a deferral the logic asked for cannot be given, or empty diagnostics when it can.
Diagnostics deferral_problem(Deferrable deferrable);

}  // namespace luaform::engine
