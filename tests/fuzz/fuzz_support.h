// What the fuzz targets share: a check that aborts (so libFuzzer records the input as a crash
// even in builds with NDEBUG) and a few fixed types to decode fuzz bytes against.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>

#include "host/engine/value/diagnostics.h"
#include "host/engine/value/type.h"
#include "host/engine/value/value.h"

namespace luaform::fuzz {

// A broken property: print both sides so the crash report says what differed.
[[noreturn]] inline void property_failed(const char* what, const engine::Value& a,
                                         const engine::Value& b) {
  std::fprintf(stderr, "fuzz property violated: %s\n  first:  %s\n  second: %s\n", what,
               a.to_display_string().c_str(), b.to_display_string().c_str());
  std::abort();
}

// True when `diags` rejected the input. For writing seeds, LUAFORM_FUZZ_VERBOSE=1 says why.
inline bool rejected(const engine::Diagnostics& diags) {
  if (!diags.has_errors()) return false;
  if (std::getenv("LUAFORM_FUZZ_VERBOSE")) {
    const auto& first = diags.items().front();
    std::fprintf(stderr, "rejected: %s: %s\n", first.summary.c_str(), first.detail.c_str());
  }
  return true;
}

// The types a target picks from with the first input byte. They cover what resource schemas
// produce: nested collections of every kind, numbers, and the dynamic pseudo-type (whose
// values carry their own type, so the fuzzer explores types as well). Without
// `dynamic_attribute` the object type leaves out its one dynamic attribute.
inline engine::Type pick_type(unsigned char selector, bool dynamic_attribute = true) {
  using engine::Type;
  const Type leaf = Type::object({{"s", Type::string()}, {"n", Type::number()}});
  switch (selector % 4) {
    case 0:
      return Type::dynamic();
    case 1: {
      std::map<std::string, Type> attributes{
          {"name", Type::string()},
          {"size", Type::number()},
          {"on", Type::boolean()},
          {"tags", Type::map(Type::string())},
          {"ports", Type::list(Type::number())},
          {"groups", Type::set(Type::string())},
          {"disks", Type::list(leaf)},
          {"rules", Type::set(leaf)},
          {"meta", Type::map(Type::list(Type::number()))},
      };
      if (dynamic_attribute) attributes.emplace("any", Type::dynamic());
      return Type::object(std::move(attributes));
    }
    case 2:
      return Type::list(Type::object({{"id", Type::string()},
                                      {"weights", Type::map(Type::number())},
                                      {"children", Type::set(Type::list(Type::string()))}}));
    default:
      return Type::map(Type::set(Type::number()));
  }
}

}  // namespace luaform::fuzz
