// Feeds the encodings and digests scripts call (host/lua/modules/encoding_module.h: tf.base64
// and tf.hash) with any bytes, in a sandboxed state under a small memory limit. Input: the
// first byte picks the limit (256 KiB to 4.2 MiB) and how many times the rest is repeated (1
// to 64, so that inputs meet the limit); the rest is the data.
//
// Properties: no crash, UB or leak; errors only as Lua errors; base64_decode(base64_encode(x))
// is x; text base64_decode takes encodes back to text that decodes to the same bytes; each
// digest is lower-case hex of its length and the same as OpenSSL's, computed here in pieces.
#include <openssl/evp.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include "host/lua/core/guarded.h"
#include "host/lua/core/sandbox.h"
#include "host/lua/modules/encoding_module.h"

using namespace luaform;

namespace {

[[noreturn]] void violated(const std::string& what) {
  std::fprintf(stderr, "fuzz property violated: %s\n", what.c_str());
  std::abort();
}

// The digest of `data`, fed to OpenSSL in pieces of 7 bytes, as lower-case hex.
std::string digest_in_pieces(const EVP_MD* md, const std::string& data) {
  EVP_MD_CTX* context = EVP_MD_CTX_new();
  EVP_DigestInit_ex(context, md, nullptr);
  for (size_t at = 0; at < data.size(); at += 7) {
    EVP_DigestUpdate(context, data.data() + at, std::min<size_t>(7, data.size() - at));
  }
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_DigestFinal_ex(context, out, &length);
  EVP_MD_CTX_free(context);
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) {
    hex += kDigits[out[i] >> 4];
    hex += kDigits[out[i] & 0x0f];
  }
  return hex;
}

// Calls encoding[name](argument) protected: true with the string it gave in `result`, or false
// with the error it raised in `error`.
bool call(lua_State* L, const char* name, const std::string& argument, std::string& result,
          std::string& error) {
  lua_getglobal(L, "encoding");
  lua_getfield(L, -1, name);
  lua_remove(L, -2);
  lua_pushlstring(L, argument.data(), argument.size());
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
    error = lua_tostring(L, -1) != nullptr ? lua_tostring(L, -1) : "(no message)";
    lua_pop(L, 1);
    return false;
  }
  size_t length = 0;
  const char* text = lua_tolstring(L, -1, &length);
  if (text == nullptr) violated(std::string(name) + " gave no string");
  result.assign(text, length);
  lua_pop(L, 1);
  return true;
}

bool memory_error(const std::string& error) {
  return error.find("memory") != std::string::npos;
}

void check(lua_State* L, const std::string& data) {
  std::string encoded;
  std::string decoded;
  std::string error;
  if (call(L, "base64_encode", data, encoded, error)) {
    if (!call(L, "base64_decode", encoded, decoded, error)) {
      if (!memory_error(error)) violated("base64_decode refused base64_encode's text: " + error);
    } else if (decoded != data) {
      violated("base64_decode(base64_encode(x)) is not x");
    }
  } else if (!memory_error(error)) {
    violated("base64_encode failed: " + error);
  }
  // The data read as base64 text: refused, or bytes that encode to text decoding to them.
  if (call(L, "base64_decode", data, decoded, error)) {
    std::string again;
    std::string back;
    if (call(L, "base64_encode", decoded, again, error) &&
        call(L, "base64_decode", again, back, error) && back != decoded) {
      violated("base64 text decodes to bytes whose encoding decodes differently");
    }
  } else if (!memory_error(error) && error.find("not base64") == std::string::npos) {
    violated("base64_decode failed without saying the text is not base64: " + error);
  }

  const std::pair<const char*, const EVP_MD*> digests[] = {
      {"sha1", EVP_sha1()}, {"sha256", EVP_sha256()}, {"sha512", EVP_sha512()}, {"md5", EVP_md5()}};
  for (const auto& [name, md] : digests) {
    std::string hex;
    if (!call(L, name, data, hex, error)) {
      if (!memory_error(error)) violated(std::string(name) + " failed: " + error);
      continue;
    }
    if (hex != digest_in_pieces(md, data)) violated(std::string(name) + " differs from OpenSSL's");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  if (size < 1) return 0;
  std::string data;
  const std::string piece(reinterpret_cast<const char*>(bytes) + 1, size - 1);
  for (int i = 0; i <= (bytes[0] >> 2); ++i) data += piece;

  lua::RunLimits limits;
  limits.memory_limit = (size_t{256} << 10) + (static_cast<size_t>(bytes[0] & 0x3f) << 16);
  lua::StatePtr state = lua::new_sandboxed_state(&limits);
  // Protected throughout: pushing the data may already meet the memory limit.
  auto failure = lua::protected_run(state.get(), [&](lua_State* L) {
    luaL_requiref(L, "encoding", lua::open_encoding_module, 1);
    lua_pop(L, 1);
    check(L, data);
  });
  if (failure && !memory_error(*failure)) violated("an error outside the helpers: " + *failure);
  return 0;
}
