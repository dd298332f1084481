// The part of luaossl's API that pure-Lua clients use for authentication (pgmoon's SCRAM-SHA-256
// among them), on the host's OpenSSL, so that such clients load unmodified:
//
//   require("openssl.digest").new(name)        :update(data) -> self, :final([data]) -> bytes
//   require("openssl.hmac").new(key, name)     :update(data) -> self, :final([data]) -> bytes
//   require("openssl.kdf").derive { type = "PBKDF2", md = name, pass, salt, iter, outlen }
//   require("openssl.rand").bytes(n)
//
// `name` is a digest OpenSSL knows ("sha256", "sha1", "md5", "sha512"); results are raw bytes,
// as luaossl gives them.
#pragma once

#include <lua.hpp>

namespace luaform::lua {

// Installed in package.preload as C functions, so the sandbox's no-C-loaders rule holds.
int open_openssl_digest_module(lua_State* L);
int open_openssl_hmac_module(lua_State* L);
int open_openssl_kdf_module(lua_State* L);
int open_openssl_rand_module(lua_State* L);

}  // namespace luaform::lua
