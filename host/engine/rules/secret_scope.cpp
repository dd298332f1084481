#include "host/engine/rules/secret_scope.h"

#include <nlohmann/json.hpp>

#include "host/engine/rules/secrets.h"

namespace luaform::engine {
namespace {

thread_local SecretScope* current_scope = nullptr;

// Every string and number inside `j`.
void json_leaves(const nlohmann::json& j, std::vector<std::string>& out) {
  if (j.is_string()) {
    out.push_back(j.get<std::string>());
  } else if (j.is_number()) {
    out.push_back(j.dump());
  } else if (j.is_structured()) {
    for (const auto& element : j) json_leaves(element, out);
  }
}

void json_block(const Block& block, const nlohmann::json& object, std::vector<std::string>& out);

// The objects a nested block or nested attribute holds, whatever its nesting (one object, a
// list or set of them, a map of them).
void json_nested(const NestedBlock& nested, const nlohmann::json& j,
                 std::vector<std::string>& out) {
  if (nested.nesting == NestingMode::Single || nested.nesting == NestingMode::Group) {
    json_block(nested.block, j, out);
  } else if (j.is_structured()) {
    for (const auto& element : j) json_block(nested.block, element, out);
  }
}

void json_block(const Block& block, const nlohmann::json& object, std::vector<std::string>& out) {
  if (!object.is_object()) return;
  for (const auto& attribute : block.attributes) {
    auto found = object.find(attribute.name);
    if (found == object.end()) continue;
    if (attribute.sensitive) {
      json_leaves(*found, out);
    } else if (attribute.nested) {
      json_nested(*attribute.nested, *found, out);
    }
  }
  for (const auto& nested : block.blocks) {
    auto found = object.find(nested.type_name);
    if (found != object.end()) json_nested(nested, *found, out);
  }
}

}  // namespace

SecretScope::SecretScope(std::shared_ptr<const std::vector<std::string>> provider_secrets)
    : outer_(current_scope), provider_(std::move(provider_secrets)) {
  current_scope = this;
}

SecretScope::~SecretScope() {
  current_scope = outer_;
}

void SecretScope::add(const Block& block, const Value& object) {
  for (std::string& secret : sensitive_texts(block, object)) add(std::move(secret));
}

void SecretScope::add_json(const Block& block, const std::string& raw_json) {
  const nlohmann::json parsed = nlohmann::json::parse(raw_json, nullptr, false);
  if (parsed.is_discarded()) return;
  std::vector<std::string> found;
  json_block(block, parsed, found);
  for (std::string& secret : found) add(std::move(secret));
}

void SecretScope::add(std::string secret) {
  // Each once: every log line and diagnostic of the RPC is hidden with the whole list.
  if (secret.empty() || !known_.insert(secret).second) return;
  own_.push_back(std::move(secret));
}

std::vector<std::string> SecretScope::secrets() const {
  std::vector<std::string> all = outer_ != nullptr ? outer_->secrets() : std::vector<std::string>{};
  if (provider_) all.insert(all.end(), provider_->begin(), provider_->end());
  all.insert(all.end(), own_.begin(), own_.end());
  return all;
}

Diagnostics SecretScope::hide(const Diagnostics& diags) const {
  return redact(diags, secrets());
}

std::string SecretScope::hide_text(std::string text) const {
  return redact(std::move(text), secrets());
}

std::vector<std::string> secrets_in_scope() {
  return current_scope != nullptr ? current_scope->secrets() : std::vector<std::string>{};
}

void add_secret_in_scope(std::string secret) {
  if (current_scope != nullptr) current_scope->add(std::move(secret));
}

}  // namespace luaform::engine
