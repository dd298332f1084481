// The part of luaossl's API that pure-Lua clients use for authentication (pgmoon's SCRAM-SHA-256
// among them), on the host's OpenSSL, so that such clients load unmodified:
//
//   require("openssl.digest").new(name)        :update(data) -> self, :final([data]) -> bytes
//   require("openssl.hmac").new(key, name)     :update(data) -> self, :final([data]) -> bytes
//   require("openssl.kdf").derive { type = "PBKDF2", md = name, pass, salt, iter, outlen }
//   require("openssl.rand").bytes(n)
//   require("openssl.x509").new(pem, "PEM")   :pem(), :getsignaturename(), :digest(name [, "s"])
//
// A certificate is the same object as a TLS socket's getpeercertificate() gives (LuaSec's): its
// digest is hex, or raw bytes with "s" (luaossl's form); a signature algorithm's name
// ("sha256WithRSAEncryption") names its digest.
// `name` is a digest OpenSSL knows ("sha256", "sha1", "md5", "sha512"); results are raw bytes,
// as luaossl gives them.
#pragma once

#include <lua.hpp>

#include <string>

namespace luaform::lua {

// Installed in package.preload as C functions, so the sandbox's no-C-loaders rule holds.
int open_openssl_digest_module(lua_State* L);
int open_openssl_hmac_module(lua_State* L);
int open_openssl_kdf_module(lua_State* L);
int open_openssl_rand_module(lua_State* L);
int open_openssl_x509_module(lua_State* L);

// Pushes a certificate object for the PEM text `pem` (one certificate).
void push_certificate(lua_State* L, const std::string& pem);

}  // namespace luaform::lua
