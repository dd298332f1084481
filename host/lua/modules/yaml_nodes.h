// The document as the YAML reader (yaml_reader.cpp) builds it before it becomes JSON: nodes
// that aliases share instead of copying, each knowing how many JSON values and how many levels
// it expands to, so that the reader bounds what aliases add before anything is copied; the
// entries of a mapping with its `<<` merges; and the JSON made of the nodes at the end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>
#include <vector>

namespace luaform::lua::yaml {

struct Node;

struct Entry {
  std::string key;
  Node* value = nullptr;
  size_t pos = 0;  // where the key is in the text, for the message about a duplicate
};

enum class Kind : std::uint8_t { scalar, sequence, mapping };

struct Node {
  Kind kind = Kind::scalar;
  bool shared = false;     // reached more than once (aliased, merged): copied, never moved
  int height = 0;          // collections nested in it, itself included, aliases expanded
  std::uint64_t size = 1;  // the JSON values it becomes, aliases expanded
  nlohmann::json value;    // a scalar's
  std::vector<Node*> items;
  std::vector<Entry> entries;
};

// The entries of a mapping being read. Small mappings, most of them, find a key among their
// few; larger ones keep an index.
class MappingEntries {
 public:
  // The entry of this key, or null.
  const Entry* find(const std::string& key) const;
  // An entry whose key is not there yet.
  void add(Entry entry);
  // A mapping that `<<` names; earlier ones win over later ones, and the own keys over all.
  void merge(Node* source) { merges_.push_back(source); }
  // The entries, the merged ones after the own ones.
  std::vector<Entry> take();

 private:
  std::vector<Entry> entries_;
  std::vector<Node*> merges_;
  std::unordered_map<std::string, size_t> index_;  // past kLinearKeys: key -> entry
};

// The nodes of one document, which live as long as it.
class Nodes {
 public:
  Node* scalar(nlohmann::json value);
  Node* sequence(std::vector<Node*> items);
  Node* mapping(std::vector<Entry> entries);

 private:
  Node* add(Kind kind);

  std::deque<Node> nodes_;
};

// The JSON value of `root`, made without recursion (the depth is bounded, and the thread's
// stack is the caller's). Nodes reached once give their strings up to it.
nlohmann::json to_json(Node* root);

}  // namespace luaform::lua::yaml
