#include "host/lua/modules/yaml_nodes.h"

#include <algorithm>
#include <utility>

namespace luaform::lua::yaml {
namespace {

// Up to this many keys, comparing them all is cheaper than hashing.
constexpr size_t kLinearKeys = 16;

// A shared collection this shallow is made into JSON once, then copied whole: copying a JSON
// value recurses, so only to a small depth, but compares no keys.
constexpr int kCopiedHeight = 16;

void measure(Node& node, const Node& child) {
  node.size += child.size;
  node.height = std::max(node.height, child.height);
}

}  // namespace

const Entry* MappingEntries::find(const std::string& key) const {
  if (entries_.size() <= kLinearKeys) {
    for (const Entry& entry : entries_) {
      if (entry.key == key) return &entry;
    }
    return nullptr;
  }
  const auto found = index_.find(key);
  return found == index_.end() ? nullptr : &entries_[found->second];
}

void MappingEntries::add(Entry entry) {
  if (entries_.empty()) entries_.reserve(8);  // one allocation for most mappings
  entries_.push_back(std::move(entry));
  const size_t count = entries_.size();
  if (count <= kLinearKeys) return;
  if (index_.empty()) {
    for (size_t i = 0; i < count; ++i) index_.emplace(entries_[i].key, i);
  } else {
    index_.emplace(entries_.back().key, count - 1);
  }
}

std::vector<Entry> MappingEntries::take() {
  for (Node* source : merges_) {
    source->shared = true;
    for (const Entry& entry : source->entries) {
      if (find(entry.key) != nullptr) continue;
      entry.value->shared = true;
      add(entry);
    }
  }
  merges_.clear();
  index_.clear();
  return std::move(entries_);
}

Node* Nodes::add(Kind kind) {
  Node& node = nodes_.emplace_back();
  node.kind = kind;
  return &node;
}

Node* Nodes::scalar(nlohmann::json value) {
  Node* node = add(Kind::scalar);
  node->value = std::move(value);
  return node;
}

Node* Nodes::sequence(std::vector<Node*> items) {
  Node* node = add(Kind::sequence);
  for (const Node* item : items) measure(*node, *item);
  ++node->height;
  node->items = std::move(items);
  return node;
}

Node* Nodes::mapping(std::vector<Entry> entries) {
  Node* node = add(Kind::mapping);
  for (const Entry& entry : entries) measure(*node, *entry.value);
  ++node->height;
  node->entries = std::move(entries);
  return node;
}

nlohmann::json to_json(Node* root) {
  struct Work {
    Node* node;
    nlohmann::json* out;
    size_t next;
    bool may_move;
  };
  std::vector<Work> stack;
  // Where each shallow shared collection was made: values in a JSON tree stay where they are.
  std::unordered_map<const Node*, const nlohmann::json*> made;
  const auto begin = [&stack, &made](Node* node, nlohmann::json* out, bool may_move) {
    may_move = may_move && !node->shared;
    if (node->kind == Kind::scalar) {
      *out = may_move ? std::move(node->value) : node->value;
      return;
    }
    if (node->shared && node->height <= kCopiedHeight) {
      const auto [found, first] = made.emplace(node, out);
      if (!first) {
        *out = *found->second;
        return;
      }
    }
    if (node->kind == Kind::sequence) {
      // Sized at once, so that the addresses of the elements hold while they are filled.
      *out = nlohmann::json::array();
      out->get_ref<nlohmann::json::array_t&>().resize(node->items.size());
    } else {
      *out = nlohmann::json::object();
    }
    stack.push_back({node, out, 0, may_move});
  };
  nlohmann::json result;
  begin(root, &result, true);
  while (!stack.empty()) {
    Work& work = stack.back();
    Node* node = work.node;
    if (node->kind == Kind::sequence) {
      if (work.next == node->items.size()) {
        stack.pop_back();
        continue;
      }
      const size_t i = work.next++;
      begin(node->items[i], &work.out->get_ref<nlohmann::json::array_t&>()[i], work.may_move);
    } else {
      if (work.next == node->entries.size()) {
        stack.pop_back();
        continue;
      }
      Entry& entry = node->entries[work.next++];
      auto& object = work.out->get_ref<nlohmann::json::object_t&>();
      const auto slot =
          object.emplace(work.may_move ? std::move(entry.key) : entry.key, nullptr).first;
      begin(entry.value, &slot->second, work.may_move);
    }
  }
  return result;
}

}  // namespace luaform::lua::yaml
