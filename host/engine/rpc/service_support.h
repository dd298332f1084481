// Helpers shared by the RPC implementations of ProviderService (not part of its interface).
#pragma once

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "host/engine/rpc/provider_service.h"
#include "host/engine/rpc/session.h"
#include "host/engine/rules/equivalence.h"
#include "host/engine/rules/secret_scope.h"
#include "host/engine/schema/schema.h"
#include "host/engine/value/diagnostics.h"
#include "host/engine/value/value.h"

namespace luaform::engine::detail {

// The schema of a resource or data source, or null with an error naming the type.
const Schema* find_schema(const std::map<std::string, Schema>& schemas, const std::string& kind,
                          const std::string& type_name, Diagnostics& diags);

// Runs one RPC: `body(session)` in the RPC's one session, which holds the provider
// configuration's secrets and those the body adds as it reads its request; every secret the
// session holds is hidden in the diagnostics of the response the body returns.
template <class Response, class Body>
Response in_session(ProviderLogic& logic,
                    std::shared_ptr<const std::vector<std::string>> provider_secrets, Body&& body) {
  Session session(logic, std::move(provider_secrets));
  Response resp = body(session);
  if constexpr (std::is_same_v<Response, Diagnostics>) {
    return session.secrets().hide(resp);
  } else {
    resp.diagnostics = session.secrets().hide(resp.diagnostics);
    return resp;
  }
}

// Fills `d` from an import block's identity: every attribute of the same name and type, the id
// included. False, with the reason in `diags`, when the identity lacks a required attribute.
bool start_from_identity(const Schema& schema, const Value& given, const std::string& type_name,
                         ResourceData& d, Diagnostics& diags);

// keep_equivalent with the resource's own diff_suppress / state_func deciding what is the same,
// and its element normalisers pairing the elements of sets.
Value keep_same_values(Session& session, const std::string& type_name, const Schema& schema,
                       const Value& earlier, const Value& later, Diagnostics& diags,
                       Keeping keeping = Keeping::ByElement);

}  // namespace luaform::engine::detail
