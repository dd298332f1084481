// ResourceData: the desired state of one resource instance as a CRUD function sees it.
// Reads follow helper/schema's priority: state < config < plan < values set by the function.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "host/engine/rules/deferral.h"
#include "host/engine/schema/schema.h"
#include "host/engine/value/diagnostics.h"
#include "host/engine/value/value.h"

namespace luaform::engine {

class ResourceData {
 public:
  // `state`, `config` and `planned` are objects of the block's implied type, or null.
  ResourceData(const Schema& schema, Value state, Value config, Value planned);

  const Schema& schema() const { return *schema_; }
  std::string id() const;
  void set_id(std::string id);
  bool is_new_resource() const { return state_.is_null(); }

  // Top-level attribute or a dotted address into nested values ("disk.0.size", "tags.env").
  // Unset values come back as null of their type; callers map null to the zero value.
  Value get(const std::string& address) const;
  // Type of the attribute at `address`, or nullopt when the schema has no such attribute.
  std::optional<Type> type_of(const std::string& address) const;
  // Sets a top-level attribute or block. Diagnostics name the attribute on a type mismatch.
  Diagnostics set(const std::string& key, Value v);
  bool has_change(const std::string& address) const;
  // How long `operation` may take: the configuration's `timeouts` block, else the schema's
  // timeout for it, else its "default", else 20 minutes (helper/schema's default).
  Duration timeout(const std::string& operation) const;
  // Old value (prior state) and new value (plan, or what the function set).
  std::pair<Value, Value> get_change(const std::string& address) const;

  // For customize_diff only (allow_plan_changes): make a computed attribute unknown in the
  // plan, or replace the resource when `key` changes. What `set` recorded is read back with
  // set_values().
  void allow_plan_changes() { plan_changes_allowed_ = true; }
  bool plan_changes_allowed() const { return plan_changes_allowed_; }
  void set_new_computed(const std::string& key) { new_computed_.insert(key); }
  void force_new(const std::string& key) { forced_new_.insert(key); }
  const std::map<std::string, Value>& set_values() const { return set_; }
  const std::set<std::string>& new_computed() const { return new_computed_; }
  const std::set<std::string>& forced_new() const { return forced_new_; }
  // True when the value at `address` is not known yet (during a plan: it depends on something
  // that is not created yet).
  bool is_unknown(const std::string& address) const;

  // Partial state mode (helper/schema's Partial and SetPartial), for functions that make
  // several API calls: while it is on, a function that fails saves only the top-level
  // attributes and blocks marked with mark_partial; the others keep their prior state. A
  // function that succeeds saves everything, whatever the mode (the plan's promise).
  void set_partial(bool on) { partial_ = on; }
  void mark_partial(const std::string& name) { partial_keys_.insert(name); }

  // Bytes the logic keeps with the object for itself (the protocol's private data): Terraform
  // stores them with the state or plan and hands them back, but never shows them. For an
  // ephemeral resource they are all that Renew and Close get.
  const std::string& private_data() const { return private_; }
  // In a plan: the CLI hands the private data this plan keeps back to the plan it makes again
  // at apply (protocol 6.11), so a value chosen here at random is chosen again there.
  void set_planned_private_kept() { planned_private_kept_ = true; }
  bool planned_private_kept() const { return planned_private_kept_; }
  void set_private_data(std::string bytes) { private_ = std::move(bytes); }

  // Deferral: whether this call may answer "not now" (set by the RPC), and the logic's asking
  // for it, which is an error where it may not.
  void set_deferrable(Deferrable deferrable) { deferrable_ = deferrable; }
  Diagnostics defer(DeferralReason reason);
  const std::optional<DeferralReason>& deferred() const { return deferred_; }

  // The object's identity, for resources whose schema declares one. The given identity is what
  // the CLI sent: the stored one for read, update and delete, the import block's for an import
  // by identity, null otherwise. identity() is what the function sees: the given identity with
  // what the function set on top (null when there is neither). The engine fills in the
  // attributes the function leaves unset (see resource_identity.h).
  void set_given_identity(Value identity) { given_identity_ = std::move(identity); }
  Value identity() const;
  // Sets one attribute of the identity. Diagnostics name it when the schema has no such
  // identity attribute or the type is wrong.
  Diagnostics set_identity(const std::string& name, Value v);
  const std::map<std::string, Value>& identity_set() const { return identity_set_; }

  // An ephemeral resource's next renewal, which only Open and Renew may ask for
  // (allow_renewal): the CLI calls Renew at that time if the resource is still open then.
  void allow_renewal() { renewal_allowed_ = true; }
  bool renewal_allowed() const { return renewal_allowed_; }
  void set_renew_at(std::chrono::system_clock::time_point at) { renew_at_ = at; }
  std::optional<std::chrono::system_clock::time_point> renew_at() const { return renew_at_; }

  // Planned/state values overlaid with what was set, remaining unknowns made null.
  Value values() const;
  // The object to save: values(), or a null object when the id is empty (the resource is
  // gone).
  Value result() const;
  // The object to save after the function failed: result(), with partial mode applied.
  Value result_after_failure() const;
  // The texts of every sensitive value the operation can see (prior state, configuration, plan
  // and what the function set), for keeping them out of logs (see secrets.h).
  std::vector<std::string> sensitive_texts() const;
  // Marks the instance as gone (read found it deleted, delete succeeded).
  void clear() {
    id_.reset();
    cleared_ = true;
  }

 private:
  Value base() const;  // planned if known, else config/state merged
  const Schema* schema_;
  Value state_, config_, planned_;
  std::map<std::string, Value> set_;
  std::optional<std::string> id_;
  bool cleared_ = false;
  bool plan_changes_allowed_ = false;
  bool planned_private_kept_ = false;
  Deferrable deferrable_ = Deferrable::Never;
  std::optional<DeferralReason> deferred_;
  bool renewal_allowed_ = false;
  std::string private_;
  Value given_identity_;
  std::map<std::string, Value> identity_set_;
  std::optional<std::chrono::system_clock::time_point> renew_at_;
  bool partial_ = false;
  std::set<std::string> partial_keys_;
  std::set<std::string> new_computed_;
  std::set<std::string> forced_new_;
};

}  // namespace luaform::engine
