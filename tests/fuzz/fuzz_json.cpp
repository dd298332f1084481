// Feeds the JSON decoders of host/engine/codec/json_codec.h: decode_type_json (types inside schemas
// and inside dynamic values) and decode_value_json (DynamicValue.json and the raw state an
// upgrade receives, which may come from any older provider version). Input: one byte picks the
// mode, the rest is JSON text. With bit 0x40 set the text is a type; otherwise it is a value of
// the type fuzz::pick_type chooses, read with drop_unknown_attributes when bit 0x80 is set.
//
// Properties: what decodes encodes to JSON that decodes without errors to an equal type or
// value, and encoding that again gives the same text.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "host/engine/codec/json_codec.h"
#include "tests/fuzz/fuzz_support.h"

using namespace luaform;

namespace {

[[noreturn]] void type_property_failed(const char* what, const std::string& first,
                                       const std::string& second) {
  std::fprintf(stderr, "fuzz property violated: %s\n  first:  %s\n  second: %s\n", what,
               first.c_str(), second.c_str());
  std::abort();
}

void check_type(const std::string& text) {
  engine::Diagnostics diags;
  const auto type = engine::decode_type_json(text, diags);
  if (fuzz::rejected(diags) || !type) return;
  const std::string encoded = engine::encode_type_json(*type);
  engine::Diagnostics again_diags;
  const auto again = engine::decode_type_json(encoded, again_diags);
  if (!again) type_property_failed("encoded type JSON does not decode", text, encoded);
  if (*again != *type) type_property_failed("type JSON round trip changed the type", text, encoded);
  if (engine::encode_type_json(*again) != encoded) {
    type_property_failed("type JSON encoding is not stable", encoded,
                         engine::encode_type_json(*again));
  }
}

void check_value(const std::string& text, const engine::Type& type, bool drop_unknown) {
  engine::Diagnostics diags;
  const engine::Value value = engine::decode_value_json(text, type, diags, drop_unknown);
  if (fuzz::rejected(diags)) return;
  const std::string encoded = engine::encode_value_json(value, type);
  engine::Diagnostics again_diags;
  const engine::Value again = engine::decode_value_json(encoded, type, again_diags, drop_unknown);
  if (again_diags.has_errors()) {
    fuzz::property_failed("encoded value JSON does not decode", value, again);
  }
  if (again != value)
    fuzz::property_failed("value JSON round trip changed the value", value, again);
  if (engine::encode_value_json(again, type) != encoded) {
    fuzz::property_failed("value JSON encoding is not stable", value, again);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const unsigned char mode = data[0];
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (mode & 0x40) {
    check_type(text);
  } else {
    check_value(text, fuzz::pick_type(mode), (mode & 0x80) != 0);
  }
  return 0;
}
