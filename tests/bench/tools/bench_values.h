// The resource values the benchmark sends, already msgpack-encoded as the CLI sends them.
// They must match the schemas of the benchmark providers' bench_item and bench_bigset.
#pragma once

#include <string>

namespace luaform::bench {

// bench_item: id (computed string), s1..s4 strings, n1..n3 numbers, b1 and b2 bools.
struct ItemValues {
  std::string null_state;  // no prior object: a create
  std::string config;      // every argument set, id null
  std::string planned;     // config with id unknown, as a plan for a create leaves it
};
ItemValues item_values();

// bench_bigset: id (computed string) and `items`, a set block of {name, value}.
struct BigsetValues {
  std::string prior_state;  // id "bigset" and `elements` items
  std::string config;       // id null; the same items, or item 0 with a changed value
  std::string proposed;     // config with the prior id, as the CLI proposes it
};
BigsetValues bigset_values(int elements, bool change_one);

}  // namespace luaform::bench
