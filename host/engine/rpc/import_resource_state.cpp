// ImportResourceState: the imported object holds the id the user gave, and whatever the
// resource's own import function set (it may read a composite id such as "region/name" into
// attributes, and set the real id); the CLI then calls ReadResource, which fills in the rest
// (or reports that the object does not exist). An imported object starts with the schema's
// defaults, as a created one does, so that a configuration leaving them out plans no change
// after the import (helper/schema left them null, and the next plan "added" them). Both CLIs
// refuse more than one imported object ("Multiple import states not supported"), so exactly one
// is returned.
// An import by identity (an import block's `identity = { ... }`) starts instead from an object
// holding each identity attribute in the resource attribute of the same name (the id too); the
// import function sees the identity with d:identity() and must set the id when the identity
// does not hold it. The imported object keeps the identity it was imported by. An import by id
// returns no identity: the read that follows gives it one.
#include "host/engine/rpc/provider_service.h"
#include "host/engine/rpc/service_support.h"
#include "host/engine/rules/resource_identity.h"
#include "host/engine/schema/schema_rules.h"
#include "host/engine/schema/spelling.h"

namespace luaform::engine {
ImportResponse ProviderService::import_resource_state(const ImportRequest& req) const {
  return detail::in_session<ImportResponse>(*logic_, provider_secrets(), [&](Session& session) {
    ImportResponse resp;
    Diagnostics& diags = resp.diagnostics;
    const Schema* schema = detail::find_schema(schema_.resources, "resource", req.type_name, diags);
    if (!schema) return resp;
    // The provider's configuration is not known yet: the import waits for a later run, where
    // the CLI allows it; it never runs without the client.
    if (defers(req.deferral_allowed)) {
      resp.deferred = DeferralReason::ProviderConfigUnknown;
      return resp;
    }
    if (refuses_unconfigured("import " + req.type_name, diags)) return resp;
    if (!schema->importable) {
      diags.error("Resource " + req.type_name + " does not support import",
                  "Its script declares no import function" + for_example(Hint::ImportById) + ".");
      return resp;
    }
    const Value& given = req.identity;
    if (!given.is_null() && !schema->identity) {
      diags.error("Resource " + req.type_name + " has no identity",
                  "Its script declares no identity, so it cannot be imported by one. Import it "
                  "by id instead.");
      return resp;
    }
    const bool by_identity = !given.is_null();
    if (!by_identity && req.id.empty()) {
      diags.error("Import needs an id", "The import id for " + req.type_name + " is empty.");
      return resp;
    }
    const Type type = schema->block.implied_type();
    ResourceData d(*schema, Value::null(type), Value::null(type), Value::null(type));
    if (by_identity) {
      if (!detail::start_from_identity(*schema, given, req.type_name, d, diags)) return resp;
    } else {
      d.set_id(req.id);
    }
    d.set_deferrable(req.deferral_allowed ? Deferrable::Allowed : Deferrable::NotByCli);
    diags.append(session.call(Operation::Import, req.type_name, d));
    if (diags.has_errors()) return resp;
    // The script deferred: nothing is imported in this run (the CLI makes up a null object).
    if (d.deferred()) {
      resp.deferred = d.deferred();
      return resp;
    }
    const Value result = d.result();
    const Value state =
        without_write_only(schema->block, with_defaults(schema->block, result, result));
    if (state.is_null()) {
      if (by_identity && !schema->identity->find("id")) {
        diags.error("Cannot import " + req.type_name + " by identity",
                    "Its identity " + given.to_display_string() +
                        " holds no id, so the import function must set one from it" +
                        written_as(Hint::ImportSetsId) + ".");
      } else {
        diags.error("Cannot import " + req.type_name + " " +
                        (by_identity ? given.to_display_string() : "\"" + req.id + "\""),
                    "The import function cleared the id: there is no such object to import.");
      }
      return resp;
    }
    Value identity;
    if (by_identity) {
      identity = identity_of(*schema->identity, state, d);
      check_identity(*schema->identity, given, identity, req.type_name + ": import", diags);
    }
    resp.imported.push_back({req.type_name, state, d.private_data(), identity});
    return resp;
  });
}

}  // namespace luaform::engine
