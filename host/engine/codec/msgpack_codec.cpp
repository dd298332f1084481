#include "host/engine/codec/msgpack_codec.h"

#include <msgpack.hpp>

#include <cmath>
#include <optional>

#include "host/engine/codec/json_codec.h"
#include "host/engine/value/value_walk.h"

namespace luaform::engine {
namespace {

using Packer = msgpack::packer<msgpack::sbuffer>;

// cty writes an unknown as fixext1 of type 0 with a zero byte. Newer CLIs send extension
// type 12 for unknowns carrying refinements (bounds, prefixes), which a provider may ignore.
constexpr int8_t kUnknownExtension = 0;
constexpr int8_t kRefinedUnknownExtension = 12;
// Far deeper than any schema; bounds recursion on hostile input.
constexpr size_t kMaxDepth = 256;

void pack_number(Packer& pk, const Number& n) {
  // cty's choice, so that a number survives the trip in both directions: an int when it
  // fits int64, float64 for a fraction that a double holds exactly, otherwise the decimal
  // text (big integers included: cty never writes an integer as a float).
  if (auto i = n.to_int64()) {
    pk.pack_int64(*i);
  } else if (!n.is_integer() && n.exact_in_double()) {
    pk.pack_double(n.to_double());
  } else {
    pk.pack_str(static_cast<uint32_t>(n.text().size()));
    pk.pack_str_body(n.text().data(), static_cast<uint32_t>(n.text().size()));
  }
}

void pack_string(Packer& pk, const std::string& s) {
  pk.pack_str(static_cast<uint32_t>(s.size()));
  pk.pack_str_body(s.data(), static_cast<uint32_t>(s.size()));
}

// An unknown with refinements, as cty writes it: extension type 12 holding a map from
// refinement keys to what is known. Only refinements that fit the type are written; false when
// none does (the caller then writes a plain unknown).
bool pack_refined_unknown(Packer& pk, const Refinement& r, const Type& t) {
  enum Key : uint8_t { NotNull = 1, Prefix = 2, Min = 3, Max = 4, MinLength = 5, MaxLength = 6 };
  msgpack::sbuffer body;
  Packer inner(body);
  uint32_t entries = 0;
  msgpack::sbuffer items;
  Packer item(items);
  if (r.not_null) {
    ++entries;
    item.pack_uint8(NotNull);
    item.pack_false();  // "is null" is false
  }
  const TypeKind kind = t.kind();
  if (kind == TypeKind::String && !r.prefix.empty()) {
    ++entries;
    item.pack_uint8(Prefix);
    pack_string(item, r.prefix);
  }
  if (kind == TypeKind::Number) {
    for (const auto& [key, bound] : {std::pair{Min, &r.min}, std::pair{Max, &r.max}}) {
      if (!*bound) continue;
      ++entries;
      item.pack_uint8(key);
      item.pack_array(2);  // [bound, inclusive]
      pack_number(item, **bound);
      item.pack_true();
    }
  }
  if (kind == TypeKind::List || kind == TypeKind::Set || kind == TypeKind::Map) {
    for (const auto& [key, bound] :
         {std::pair{MinLength, &r.min_length}, std::pair{MaxLength, &r.max_length}}) {
      if (!*bound) continue;
      ++entries;
      item.pack_uint8(key);
      item.pack_int64(**bound);
    }
  }
  if (entries == 0) return false;
  inner.pack_map(entries);
  body.write(items.data(), items.size());
  pk.pack_ext(body.size(), kRefinedUnknownExtension);
  pk.pack_ext_body(body.data(), static_cast<uint32_t>(body.size()));
  return true;
}

// Encodes `v` as `t` says. A primitive of another kind is converted the way cty's Marshal
// converts before encoding; anything else that does not fit is written as null.
void pack_value(Packer& pk, const Value& v, const Type& t) {
  if (t.is_dynamic() && !v.type().is_dynamic()) {
    // A dynamic slot carries the concrete type along: [type JSON, value].
    std::string type_json = encode_type_json(v.type());
    pk.pack_array(2);
    pk.pack_bin(static_cast<uint32_t>(type_json.size()));
    pk.pack_bin_body(type_json.data(), static_cast<uint32_t>(type_json.size()));
    pack_value(pk, v, v.type());
    return;
  }
  if (v.is_unknown()) {
    if (v.refinement() != nullptr && !t.is_dynamic() &&
        pack_refined_unknown(pk, *v.refinement(), t)) {
      return;
    }
    const char zero = 0;
    pk.pack_ext(1, kUnknownExtension);
    pk.pack_ext_body(&zero, 1);
    return;
  }
  if (v.is_null()) {
    pk.pack_nil();
    return;
  }
  const TypeKind have = v.type().kind();
  switch (t.kind()) {
    case TypeKind::String:
      if (have == TypeKind::String) return pack_string(pk, v.as_string());
      if (have == TypeKind::Number) return pack_string(pk, v.as_number().text());
      if (have == TypeKind::Bool) return pack_string(pk, v.as_bool() ? "true" : "false");
      break;
    case TypeKind::Number:
      if (have == TypeKind::Number) return pack_number(pk, v.as_number());
      if (have == TypeKind::String) {
        if (auto n = Number::parse(v.as_string())) return pack_number(pk, *n);
      }
      break;
    case TypeKind::Bool:
      if (have == TypeKind::Bool) {
        pk.pack(v.as_bool());
        return;
      }
      if (have == TypeKind::String && (v.as_string() == "true" || v.as_string() == "false")) {
        pk.pack(v.as_string() == "true");
        return;
      }
      break;
    case TypeKind::List:
    case TypeKind::Set:
      if (const auto* items = list_data(v)) {
        pk.pack_array(static_cast<uint32_t>(items->size()));
        for (const Value& item : *items) pack_value(pk, item, t.element());
        return;
      }
      break;
    case TypeKind::Tuple:
      if (const auto* items = list_data(v)) {
        const auto& types = t.tuple_elements();
        pk.pack_array(static_cast<uint32_t>(types.size()));
        for (size_t i = 0; i < types.size(); ++i) {
          pack_value(pk, i < items->size() ? (*items)[i] : Value::null(types[i]), types[i]);
        }
        return;
      }
      break;
    case TypeKind::Map:
      if (const auto* entries = object_data(v)) {
        pk.pack_map(static_cast<uint32_t>(entries->size()));
        for (const auto& [key, item] : *entries) {
          pack_string(pk, key);
          pack_value(pk, item, t.element());
        }
        return;
      }
      break;
    case TypeKind::Object:
      if (const auto* attrs = object_data(v)) {
        // Every attribute of the type, in sorted order, as Terraform writes and expects.
        pk.pack_map(static_cast<uint32_t>(t.attributes().size()));
        for (const auto& [name, attribute_type] : t.attributes()) {
          pack_string(pk, name);
          auto it = attrs->find(name);
          pack_value(pk, it == attrs->end() ? Value::null(attribute_type) : it->second,
                     attribute_type);
        }
        return;
      }
      break;
    case TypeKind::Dynamic:
      break;
  }
  pk.pack_nil();
}

// The number cty sees in a float64. cty keeps the double at 53 bits and compares
// non-integers by their shortest decimal text, so the shortest text is the same number to
// it (and is what a user wrote); an integral double is compared as an exact integer.
Number number_from_float(double v) {
  return std::trunc(v) == v ? Number::from_double_exact(v) : Number::from_double(v);
}

class Decoder {
 public:
  explicit Decoder(Diagnostics& diags) : diags_(diags) {}

  std::optional<Value> decode(const msgpack::object& o, const Type& t) {
    if (o.type == msgpack::type::EXT) return decode_extension(o, t);
    if (t.is_dynamic()) return decode_dynamic(o);
    if (o.type == msgpack::type::NIL) return Value::null(t);
    switch (t.kind()) {
      case TypeKind::String:
        if (auto s = string_of(o)) return Value::string(std::move(*s));
        return fail("a string is required", o);
      case TypeKind::Number:
        return decode_number(o);
      case TypeKind::Bool:
        if (o.type == msgpack::type::BOOLEAN) return Value::boolean(o.via.boolean);
        return fail("a bool is required", o);
      case TypeKind::List:
      case TypeKind::Set: {
        if (o.type != msgpack::type::ARRAY) return fail("an array is required", o);
        auto items = decode_elements(o, [&](size_t) { return t.element(); });
        if (!items) return std::nullopt;
        if (t.kind() == TypeKind::List) return Value::list(t.element(), std::move(*items));
        return Value::set(t.element(), std::move(*items));
      }
      case TypeKind::Tuple: {
        const auto& types = t.tuple_elements();
        if (o.type != msgpack::type::ARRAY) return fail("an array is required", o);
        if (o.via.array.size != types.size()) {
          return fail("a tuple of " + std::to_string(types.size()) + " elements is required", o);
        }
        auto items = decode_elements(o, [&](size_t i) { return types[i]; });
        if (!items) return std::nullopt;
        return Value::tuple(t, std::move(*items));
      }
      case TypeKind::Map:
      case TypeKind::Object:
        return decode_map(o, t);
      case TypeKind::Dynamic:
        break;
    }
    return fail("a value of " + t.friendly_name() + " is required", o);
  }

  AttributePath path;

 private:
  static const char* kind_name(const msgpack::object& o) {
    switch (o.type) {
      case msgpack::type::NIL:
        return "null";
      case msgpack::type::BOOLEAN:
        return "a bool";
      case msgpack::type::POSITIVE_INTEGER:
      case msgpack::type::NEGATIVE_INTEGER:
      case msgpack::type::FLOAT32:
      case msgpack::type::FLOAT64:
        return "a number";
      case msgpack::type::STR:
        return "a string";
      case msgpack::type::BIN:
        return "binary data";
      case msgpack::type::ARRAY:
        return "an array";
      case msgpack::type::MAP:
        return "a map";
      case msgpack::type::EXT:
        return "an extension";
    }
    return "something else";
  }

  std::optional<Value> fail(const std::string& what, const msgpack::object& o) {
    return fail(what + ", got " + kind_name(o) + ".");
  }

  std::optional<Value> fail(const std::string& detail) {
    std::string where = path.empty() ? "" : " at " + path_to_string(path);
    diags_.error("Invalid msgpack value" + where, detail, path);
    return std::nullopt;
  }

  static std::optional<std::string> string_of(const msgpack::object& o) {
    if (o.type == msgpack::type::STR) return std::string(o.via.str.ptr, o.via.str.size);
    if (o.type == msgpack::type::BIN) return std::string(o.via.bin.ptr, o.via.bin.size);
    return std::nullopt;
  }

  std::optional<Value> decode_extension(const msgpack::object& o, const Type& t) {
    // Any zero- or one-byte extension means unknown (cty's rule); type 12 carries
    // refinements, which are only promises about the final value, so dropping them is safe.
    const auto& ext = o.via.ext;
    if (ext.type() == kUnknownExtension || ext.type() == kRefinedUnknownExtension ||
        ext.size <= 1) {
      return Value::unknown(t);
    }
    return fail("unsupported msgpack extension type " + std::to_string(ext.type()) + ".");
  }

  std::optional<Value> decode_dynamic(const msgpack::object& o) {
    if (o.type == msgpack::type::NIL) return Value();
    if (o.type != msgpack::type::ARRAY || o.via.array.size != 2) {
      return fail("a dynamically-typed value must be a [type, value] array", o);
    }
    auto type_json = string_of(o.via.array.ptr[0]);
    if (!type_json)
      return fail("the type of a dynamic value must be JSON text", o.via.array.ptr[0]);
    Diagnostics type_diags;
    auto type = decode_type_json(*type_json, type_diags);
    if (!type) {
      std::string reason = type_diags.empty() ? "" : ": " + type_diags.items().front().detail;
      return fail("the type of a dynamic value is not valid type JSON" + reason);
    }
    if (type->is_dynamic()) return fail("a dynamic value cannot have the type \"dynamic\".");
    return decode(o.via.array.ptr[1], *type);
  }

  std::optional<Value> decode_number(const msgpack::object& o) {
    switch (o.type) {
      case msgpack::type::POSITIVE_INTEGER:
        return Value::number(*Number::parse(std::to_string(o.via.u64)));
      case msgpack::type::NEGATIVE_INTEGER:
        return Value::number(o.via.i64);
      case msgpack::type::FLOAT32:
      case msgpack::type::FLOAT64:
        if (!std::isfinite(o.via.f64)) return fail("infinite and NaN numbers are not supported.");
        return Value::number(number_from_float(o.via.f64));
      case msgpack::type::STR: {
        auto n = Number::parse(std::string(o.via.str.ptr, o.via.str.size));
        if (n) return Value::number(std::move(*n));
        return fail("a number is required, got a string that is not a number.");
      }
      default:
        return fail("a number is required", o);
    }
  }

  template <typename TypeOf>
  std::optional<Value::List> decode_elements(const msgpack::object& o, TypeOf type_of) {
    Value::List items;
    items.reserve(o.via.array.size);
    for (uint32_t i = 0; i < o.via.array.size; ++i) {
      path.push_back(ElementIndex{static_cast<int64_t>(i)});
      auto item = decode(o.via.array.ptr[i], type_of(i));
      path.pop_back();
      if (!item) return std::nullopt;
      items.push_back(std::move(*item));
    }
    return items;
  }

  std::optional<Value> decode_map(const msgpack::object& o, const Type& t) {
    const bool is_object = t.kind() == TypeKind::Object;
    if (o.type != msgpack::type::MAP) {
      return fail(is_object ? "an object is required" : "a map is required", o);
    }
    Value::Object entries;
    for (uint32_t i = 0; i < o.via.map.size; ++i) {
      const msgpack::object_kv& kv = o.via.map.ptr[i];
      auto key = string_of(kv.key);
      if (!key) return fail("keys must be strings", kv.key);
      Type member;
      if (is_object) {
        auto it = t.attributes().find(*key);
        if (it == t.attributes().end()) {
          return fail("unsupported attribute \"" + *key +
                      "\"; the object type has no such "
                      "attribute.");
        }
        member = it->second;
        path.push_back(AttributeName{*key});
      } else {
        member = t.element();
        path.push_back(ElementKey{*key});
      }
      auto item = decode(kv.val, member);
      path.pop_back();
      if (!item) return std::nullopt;
      entries[*key] = std::move(*item);
    }
    // Attributes absent from the input are null, as Value::object fills them.
    if (is_object) return Value::object(t, std::move(entries));
    return Value::map(t.element(), std::move(entries));
  }

  Diagnostics& diags_;
};

}  // namespace

std::string encode_msgpack(const Value& value, const Type& type) {
  msgpack::sbuffer buffer;
  Packer pk(buffer);
  pack_value(pk, value, type);
  return std::string(buffer.data(), buffer.size());
}

Value decode_msgpack(const std::string& bytes, const Type& type, Diagnostics& diags) {
  if (bytes.empty()) {
    diags.error("Invalid msgpack value", "The encoded value is empty.");
    return Value::null(type);
  }
  // Every element takes at least one byte, so the input size bounds every count; this
  // stops a five-byte header from asking for a four-billion-element array.
  const size_t n = bytes.size();
  msgpack::unpack_limit limits(n, n, n, n, n, kMaxDepth);
  msgpack::object_handle handle;
  size_t offset = 0;
  try {
    handle = msgpack::unpack(bytes.data(), n, offset, nullptr, nullptr, limits);
  } catch (const msgpack::insufficient_bytes&) {
    diags.error("Invalid msgpack value", "The encoded value is truncated.");
    return Value::null(type);
  } catch (const std::exception& e) {
    diags.error("Invalid msgpack value", std::string("The bytes are not msgpack: ") + e.what());
    return Value::null(type);
  }
  if (offset != n) {
    diags.error("Invalid msgpack value",
                std::to_string(n - offset) + " unexpected bytes follow the encoded value.");
    return Value::null(type);
  }
  Decoder decoder(diags);
  auto value = decoder.decode(handle.get(), type);
  return value ? std::move(*value) : Value::null(type);
}

}  // namespace luaform::engine
