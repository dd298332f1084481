// The module `require("luaform_encoding")`, which the SDK spreads over `tf.base64`, `tf.hash`
// and `tf.uuid`: the encodings and digests APIs ask for, on OpenSSL's libcrypto.
//
//   base64_encode(s), base64_decode(s)     standard alphabet with padding; decode raises on
//                                          text that is not base64
//   sha1(s), sha256(s), sha512(s), md5(s)  lower-case hex digests of the bytes of s
//   uuid()                                 a random (version 4) UUID
#pragma once

#include <lua.hpp>

#include <cstddef>
#include <string>

namespace luaform::lua {

// Installed in package.preload as a C function, so the sandbox's no-C-loaders rule holds.
int open_encoding_module(lua_State* L);
// `require("mime")`: LuaSocket's b64(s) and unb64(s) on the same base64, for pure-Lua clients
// written for LuaSocket.
int open_mime_module(lua_State* L);

// The lower-case hex of `size` bytes (digests, as tf.hash and certificates' digest give them).
std::string lower_hex(const unsigned char* bytes, size_t size);

}  // namespace luaform::lua
