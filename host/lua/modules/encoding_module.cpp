#include "host/lua/modules/encoding_module.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <array>
#include <stdexcept>
#include <string>
#include <string_view>

#include "host/lua/core/guarded.h"
#include "host/lua/core/sandbox.h"

namespace luaform::lua {
namespace {

std::string_view argument(lua_State* L) {
  size_t size = 0;
  const char* text = luaL_checklstring(L, 1, &size);
  return {text, size};
}

template <const EVP_MD* (*Algorithm)()>
int digest(lua_State* L) {
  const std::string_view text = argument(L);
  std::array<unsigned char, EVP_MAX_MD_SIZE> out{};
  unsigned int size = 0;
  if (EVP_Digest(text.data(), text.size(), out.data(), &size, Algorithm(), nullptr) != 1) {
    throw std::runtime_error("the digest could not be computed");
  }
  const std::string text_out = lower_hex(out.data(), size);
  lua_pushlstring(L, text_out.data(), text_out.size());
  return 1;
}

int base64_encode(lua_State* L) {
  const std::string_view text = argument(L);
  const size_t encoded = 4 * ((text.size() + 2) / 3) + 1;
  // Held twice at the end: here, and as the Lua string made from it.
  NativeMemory(L, "base64.encode").add(2 * encoded);
  std::string out(encoded, '\0');
  const int size = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                   reinterpret_cast<const unsigned char*>(text.data()),
                                   static_cast<int>(text.size()));
  lua_pushlstring(L, out.data(), static_cast<size_t>(size));
  return 1;
}

bool base64_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
         c == '/';
}

int base64_decode(lua_State* L) {
  const std::string_view text = argument(L);
  // EVP_DecodeBlock accepts some malformed input quietly; check the form first.
  size_t padding = 0;
  bool valid = text.size() % 4 == 0;
  for (size_t i = 0; valid && i < text.size(); ++i) {
    if (text[i] == '=') {
      ++padding;
      valid = i + 2 >= text.size() && padding <= 2;
    } else {
      valid = padding == 0 && base64_char(text[i]);
    }
  }
  if (!valid) throw std::runtime_error("base64.decode: the text is not base64");
  NativeMemory(L, "base64.decode").add(2 * (text.size() / 4 * 3));
  std::string out(text.size() / 4 * 3, '\0');
  const int size = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                   reinterpret_cast<const unsigned char*>(text.data()),
                                   static_cast<int>(text.size()));
  if (size < 0) throw std::runtime_error("base64.decode: the text is not base64");
  // EVP_DecodeBlock counts the padding as zero bytes; they are not part of the data.
  lua_pushlstring(L, out.data(), static_cast<size_t>(size) - padding);
  return 1;
}

int uuid(lua_State* L) {
  std::array<unsigned char, 16> bytes{};
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
    throw std::runtime_error("uuid: no random bytes available");
  }
  bytes[6] = static_cast<unsigned char>((bytes[6] & 0x0f) | 0x40);  // version 4
  bytes[8] = static_cast<unsigned char>((bytes[8] & 0x3f) | 0x80);  // RFC 9562 variant
  const std::string h = lower_hex(bytes.data(), bytes.size());
  const std::string text = h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" +
                           h.substr(16, 4) + "-" + h.substr(20);
  lua_pushlstring(L, text.data(), text.size());
  return 1;
}

}  // namespace

std::string lower_hex(const unsigned char* bytes, size_t size) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(size * 2);
  for (size_t i = 0; i < size; ++i) {
    out += kDigits[bytes[i] >> 4];
    out += kDigits[bytes[i] & 0x0f];
  }
  return out;
}

int open_encoding_module(lua_State* L) {
  const luaL_Reg functions[] = {{"base64_encode", guarded<base64_encode>},
                                {"base64_decode", guarded<base64_decode>},
                                {"sha1", guarded<digest<EVP_sha1>>},
                                {"sha256", guarded<digest<EVP_sha256>>},
                                {"sha512", guarded<digest<EVP_sha512>>},
                                {"md5", guarded<digest<EVP_md5>>},
                                {"uuid", guarded<uuid>},
                                {nullptr, nullptr}};
  luaL_newlib(L, functions);
  return 1;
}

int open_mime_module(lua_State* L) {
  const luaL_Reg functions[] = {
      {"b64", guarded<base64_encode>}, {"unb64", guarded<base64_decode>}, {nullptr, nullptr}};
  luaL_newlib(L, functions);
  return 1;
}

}  // namespace luaform::lua
