// ListResource: the remote objects a `list` block selects (Terraform 1.14's `terraform query`),
// streamed to the CLI one event each as the logic finds them. Each event names its object by
// identity; when the CLI asks for whole objects, each also carries the object: the one the
// logic gave, or the one an import by that identity followed by a read gives. The CLI stops
// reading at its limit and drops every result of a list that ends in an error, so an element
// that cannot be used is a warning, not an error, and the listing goes on.

#include "host/engine/rpc/provider_service.h"
#include "host/engine/rpc/service_support.h"
#include "host/engine/rules/resource_identity.h"
#include "host/engine/schema/schema_rules.h"
#include "host/engine/value/value_walk.h"

namespace luaform::engine {
namespace {

// A listed object that cannot be sent: a warning naming it, and the listing goes on.
ListEvent left_out(const std::string& type_name, const ListedObject& listed,
                   const std::string& why) {
  ListEvent event;
  const std::string name = listed.display_name.empty() ? listed.identity.to_display_string()
                                                       : "\"" + listed.display_name + "\"";
  event.diagnostics.warning(type_name + ": a listed object is left out", name + ": " + why);
  return event;
}

// Whether a string of `value` (an identity: a few attributes) shows a secret in scope.
bool holds_secret(const Value& value, const SecretScope& secrets) {
  if (!value.is_known() || value.is_null()) return false;
  if (value.type().kind() == TypeKind::String)
    return secrets.hide_text(value.as_string()) != value.as_string();
  if (const Value::List* elements = list_data(value)) {
    for (const Value& element : *elements) {
      if (holds_secret(element, secrets)) return true;
    }
  }
  if (const Value::Object* members = object_data(value)) {
    for (const auto& [name, member] : *members) {
      if (holds_secret(member, secrets)) return true;
    }
  }
  return false;
}

// The whole object named by `identity`, as importing it by that identity and refreshing it
// give it; null when the read finds it gone. Problems go to `diags`.
Value object_by_identity(const Schema& schema, const std::string& type_name, const Value& identity,
                         const ListedCall& run, Diagnostics& diags) {
  const Type type = schema.block.implied_type();
  ResourceData imported(schema, Value::null(type), Value::null(type), Value::null(type));
  if (!detail::start_from_identity(schema, identity, type_name, imported, diags)) {
    return Value::null(type);
  }
  diags.append(run(Operation::Import, imported));
  const Value start = imported.result();
  if (diags.has_errors() || start.is_null()) return Value::null(type);
  ResourceData read(schema, with_defaults(schema.block, start, start), Value::null(type),
                    Value::null(type));
  read.set_private_data(imported.private_data());
  read.set_given_identity(identity);
  diags.append(run(Operation::Read, read));
  if (diags.has_errors()) return Value::null(type);
  return without_write_only(schema.block, read.result());
}

}  // namespace

void ProviderService::list_resource(const ListRequest& req, const ListSink& sink) const {
  ListEvent ended;
  ended.diagnostics =
      detail::in_session<Diagnostics>(*logic_, provider_secrets(), [&](Session& session) {
        SecretScope& secrets = session.secrets();
        Diagnostics diags;
        // Each event leaves with the secrets in scope hidden, as every diagnostic does.
        const auto send = [&](ListEvent event) {
          event.diagnostics = secrets.hide(event.diagnostics);
          return sink(event);
        };
        const Schema* filters =
            detail::find_schema(schema_.list_resources, "list resource", req.type_name, diags);
        const Schema* schema =
            detail::find_schema(schema_.resources, "resource", req.type_name, diags);
        if (!filters || !schema || !schema->identity || req.limit <= 0) return diags;
        const Value config = with_defaults(filters->block, req.config, req.config);
        secrets.add(filters->block, config);
        int64_t sent = 0;
        // One emitted element: its event (or a warning), true while more are wanted.
        const auto emit_one = [&](ListedObject listed, const ListedCall& run) {
          if (!listed.diagnostics.empty()) {
            ListEvent warned;
            for (const auto& d : listed.diagnostics.items()) {
              warned.diagnostics.warning(d.summary, d.detail, d.path);
            }
            return send(std::move(warned));
          }
          if (listed.identity.is_null() || !listed.identity.is_wholly_known()) {
            return send(left_out(req.type_name, listed, "it has no identity"));
          }
          // The CLI imports listed objects by their identities (-generate-config-out).
          for (const IdentityAttribute& a : schema->identity->attributes) {
            if (a.required_for_import && listed.identity.get_attribute(a.name).is_null()) {
              return send(left_out(req.type_name, listed,
                                   "its identity has no \"" + a.name + "\", which import needs"));
            }
          }
          // An identity is data the CLI prints and stores in clear: one that holds a secret is
          // not sent. A display name is for people: its secrets are hidden.
          if (holds_secret(listed.identity, secrets)) {
            return send(left_out(req.type_name, listed, "its identity holds a sensitive value"));
          }
          ListEvent event;
          event.identity = listed.identity;
          event.display_name = secrets.hide_text(listed.display_name);
          if (req.include_resource_object) {
            Diagnostics problems;
            // Write-only values are kept nowhere: the object the script gave loses them as an
            // import and read's would.
            Value object =
                listed.object
                    ? without_write_only(schema->block, unknowns_to_null(*listed.object))
                    : object_by_identity(*schema, req.type_name, listed.identity, run, problems);
            if (problems.has_errors() || object.is_null()) {
              std::string why = "reading it found nothing";
              for (const auto& d : problems.items()) {
                if (d.severity == Severity::Error) {
                  why = d.summary + ": " + d.detail;
                  break;
                }
              }
              return send(left_out(req.type_name, listed, why));
            }
            secrets.add(schema->block, object);
            event.resource_object = object;
            // What the import and read warned about goes with the object they gave.
            event.diagnostics = std::move(problems);
          }
          if (!send(std::move(event))) return false;
          return ++sent < req.limit;
        };
        // Once emit has said no more, a logic that goes on emitting is not heard: the CLI has
        // stopped reading, or counts nothing past its limit.
        bool done = false;
        const ListEmit emit = [&](ListedObject listed, const ListedCall& run) {
          if (done) return false;
          done = !emit_one(std::move(listed), run);
          return !done;
        };
        diags.append(session.list(req.type_name, *schema, config,
                                  {req.limit, req.include_resource_object}, emit));
        return diags;
      });
  if (!ended.diagnostics.empty()) sink(ended);
}

}  // namespace luaform::engine
