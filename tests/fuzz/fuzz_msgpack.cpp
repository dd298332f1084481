// Feeds decode_msgpack (host/engine/codec/msgpack_codec.h), the decoder of every DynamicValue the
// CLI sends: config, prior state, planned state. The bytes come from outside the provider, so any
// input must end in a value or a diagnostic, never a crash. Input: one byte picks the type
// (fuzz_support.h), the rest is the msgpack.
//
// Property: a decoded value encodes to msgpack that decodes without errors to an equal value,
// and that second encoding is byte-identical to the first (the encoder is canonical: sets
// sorted, object attributes in order), so a state survives any number of trips.
#include <cstddef>
#include <cstdint>
#include <string>

#include "host/engine/codec/msgpack_codec.h"
#include "tests/fuzz/fuzz_support.h"

using namespace luaform;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const engine::Type type = fuzz::pick_type(data[0]);
  const std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);

  engine::Diagnostics diags;
  const engine::Value value = engine::decode_msgpack(bytes, type, diags);
  if (fuzz::rejected(diags)) return 0;

  const std::string encoded = engine::encode_msgpack(value, type);
  engine::Diagnostics again_diags;
  const engine::Value again = engine::decode_msgpack(encoded, type, again_diags);
  if (again_diags.has_errors()) {
    fuzz::property_failed("re-encoded msgpack does not decode", value, again);
  }
  if (again != value) fuzz::property_failed("msgpack round trip changed the value", value, again);
  if (engine::encode_msgpack(again, type) != encoded) {
    fuzz::property_failed("msgpack encoding is not stable", value, again);
  }
  return 0;
}
