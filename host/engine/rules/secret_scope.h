// The secrets of the RPC a thread is serving. Each RPC's session (host/engine/rpc/session.h)
// holds one SecretScope, so every call into the provider's logic that the RPC makes (plan
// functions, validators, upgrades, CRUD, ...) runs inside it: the diagnostics the RPC returns
// are hidden with it, and so are the log lines the logic writes meanwhile (secrets_in_scope,
// which the logic's log and HTTP modules reach without being handed the session), whatever
// kind of call wrote them.
#pragma once

#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "host/engine/schema/schema.h"
#include "host/engine/value/diagnostics.h"
#include "host/engine/value/value.h"

namespace luaform::engine {

class SecretScope {
 public:
  // Opens the scope on this thread with the provider configuration's secrets. Scopes nest: an
  // inner one holds the outer one's secrets too.
  explicit SecretScope(std::shared_ptr<const std::vector<std::string>> provider_secrets);
  ~SecretScope();
  SecretScope(const SecretScope&) = delete;
  SecretScope& operator=(const SecretScope&) = delete;

  // Adds the sensitive texts of `object`, a value of `block`'s implied type.
  void add(const Block& block, const Value& object);
  // The same for a stored state in JSON whose schema may be older than `block`: any value at
  // an attribute `block` declares sensitive (by name, at any depth) counts.
  void add_json(const Block& block, const std::string& raw_json);
  void add(std::string secret);

  std::vector<std::string> secrets() const;
  // `diags` with every secret in scope hidden.
  Diagnostics hide(const Diagnostics& diags) const;
  // The same for a text the CLI shows (an action's progress message).
  std::string hide_text(std::string text) const;

 private:
  SecretScope* outer_;
  std::shared_ptr<const std::vector<std::string>> provider_;
  std::vector<std::string> own_;           // in the order added, each once
  std::unordered_set<std::string> known_;  // own_ again, to tell a secret it holds at once
};

// The secrets of the scope open on this thread (none outside an RPC).
std::vector<std::string> secrets_in_scope();
// Adds a secret to the scope open on this thread, if any: what the host derives from a
// secret (an Authorization header it builds) is one too.
void add_secret_in_scope(std::string secret);

}  // namespace luaform::engine
