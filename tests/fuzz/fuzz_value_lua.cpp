// Feeds the Value <-> Lua bridge (host/lua/core/value_conversion.h): a value decoded from the fuzz
// bytes (msgpack, as the CLI sends config and state) is pushed with push_value, the way a
// script sees it through d:get, and converted back with to_value towards its type, the way
// d:set stores what a script gives. Input: one byte picks the type (fuzz_support.h; for the
// dynamic pick the decoded value's own type is used) and with bit 0x80 pushes unknowns as
// tf.unknown (Unknowns::Marked) instead of nil; the rest is the msgpack.
//
// Property: the round trip gives exactly what the header documents, computed independently by
// expected() below: null elements of lists, sets and maps are left out; unknowns come back
// unknown when marked, else as null (left out of collections); integers fitting 64 bits stay
// exact and other numbers pass through a double; everything else is unchanged. Types the
// conversion does not take from Lua (tuples, dynamic) are skipped.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "host/engine/codec/msgpack_codec.h"
#include "host/lua/core/guarded.h"
#include "host/lua/core/sandbox.h"
#include "host/lua/core/value_conversion.h"
#include "tests/fuzz/fuzz_support.h"

using namespace luaform;
using engine::Type;
using engine::TypeKind;
using engine::Value;

namespace {

// True when to_value builds values of `t` from Lua tables (no tuples, no dynamic).
bool convertible(const Type& t) {
  switch (t.kind()) {
    case TypeKind::String:
    case TypeKind::Number:
    case TypeKind::Bool:
      return true;
    case TypeKind::List:
    case TypeKind::Set:
    case TypeKind::Map:
      return convertible(t.element());
    case TypeKind::Object:
      for (const auto& [name, attribute] : t.attributes()) {
        if (!convertible(attribute)) return false;
      }
      return true;
    default:
      return false;
  }
}

// Whether push_value shows `v` at all inside a collection.
bool shown(const Value& v, bool marked) {
  return v.is_unknown() ? marked : !v.is_null();
}

// What push_value then to_value must give for `v` of type `t`; nullopt when the documented
// conversion may legitimately fail (a number too large for a double becomes infinity).
std::optional<Value> expected(const Value& v, const Type& t, bool marked) {
  if (v.is_unknown()) return marked ? Value::unknown(t) : Value::null(t);
  if (v.is_null()) return Value::null(t);
  switch (t.kind()) {
    case TypeKind::Number: {
      const engine::Number& n = v.as_number();
      if (n.to_int64()) return v;
      const double d = n.to_double();
      if (!std::isfinite(d)) return std::nullopt;
      return Value::number(engine::Number::from_double(d));
    }
    case TypeKind::List:
    case TypeKind::Set: {
      Value::List items;
      for (const Value& e : v.elements()) {
        if (!shown(e, marked)) continue;
        auto item = expected(e, t.element(), marked);
        if (!item) return std::nullopt;
        items.push_back(std::move(*item));
      }
      if (t.kind() == TypeKind::List) return Value::list(t.element(), std::move(items));
      return Value::set(t.element(), std::move(items));
    }
    case TypeKind::Map:
    case TypeKind::Object: {
      Value::Object entries;
      for (const auto& [key, e] : v.attributes()) {
        if (!shown(e, marked)) continue;
        const Type& member = t.kind() == TypeKind::Map ? t.element() : t.attributes().at(key);
        auto item = expected(e, member, marked);
        if (!item) return std::nullopt;
        entries.emplace(key, std::move(*item));
      }
      if (t.kind() == TypeKind::Map) return Value::map(t.element(), std::move(entries));
      return Value::object(t, std::move(entries));
    }
    default:
      return v;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const bool marked = (data[0] & 0x80) != 0;
  const Type declared = fuzz::pick_type(data[0], false);
  engine::Diagnostics diags;
  const Value value = engine::decode_msgpack(
      std::string(reinterpret_cast<const char*>(data) + 1, size - 1), declared, diags);
  if (fuzz::rejected(diags)) return 0;
  const Type type = declared.is_dynamic() ? value.type() : declared;
  if (!convertible(type)) return 0;

  lua::RunLimits limits;
  lua::StatePtr state = lua::new_sandboxed_state(&limits);
  Value back;
  auto failure = lua::protected_run(state.get(), [&](lua_State* S) {
    lua::push_value(S, value, marked ? lua::Unknowns::Marked : lua::Unknowns::Nil);
    back = lua::to_value(S, -1, type, "fuzz");
  });
  const auto want = expected(value, type, marked);
  if (!want) return 0;
  if (failure) {
    std::fprintf(stderr, "to_value failed: %s\n", failure->c_str());
    fuzz::property_failed("a pushed value does not convert back", value, *want);
  }
  if (back != *want) fuzz::property_failed("Lua round trip differs from the header", *want, back);
  return 0;
}
