// luaossl's digest, hmac, kdf and rand, and LuaSocket's mime: what pure-Lua clients need for
// authentication, checked against published test vectors.
#include "host/lua/modules/openssl_modules.h"

#include <doctest/doctest.h>

#include "provider_dir.h"

using namespace luaform::lua::testing;

namespace {

// The hex of what `expression` (raw bytes) evaluates to.
std::string hex_of(const std::string& expression) {
  return evaluate("((" + expression +
                  "):gsub('.', function(c) return ('%02x'):format(c:byte()) end))");
}

}  // namespace

TEST_CASE("openssl.digest: one-shot and in pieces, raw bytes") {
  CHECK(hex_of("require('openssl.digest').new('sha256'):final('abc')") ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(hex_of("require('openssl.digest').new('sha256'):update('a'):update('b', 'c'):final()") ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(hex_of("require('openssl.digest').new('md5'):final('')") ==
        "d41d8cd98f00b204e9800998ecf8427e");
  CHECK(evaluate("require('openssl.digest').new('nonsense')")
            .find("openssl: unknown digest \"nonsense\"") != std::string::npos);
  CHECK(evaluate("(function() local d = require('openssl.digest').new('sha1') d:final('x')"
                 " return d:final('y') end)()")
            .find("already final") != std::string::npos);
}

TEST_CASE("openssl.hmac: RFC 4231's first vector") {
  CHECK(hex_of("require('openssl.hmac').new(('\\x0b'):rep(20), 'sha256'):final('Hi There')") ==
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
}

TEST_CASE("openssl.kdf: PBKDF2-HMAC-SHA256 as RFC 7914 gives it") {
  CHECK(hex_of("require('openssl.kdf').derive { type = 'PBKDF2', md = 'sha256', pass = 'passwd',"
               " salt = 'salt', iter = 1, outlen = 16 }") == "55ac046e56e3089fec1691c22544b605");
  CHECK(evaluate("require('openssl.kdf').derive { type = 'scrypt', pass = 'p', salt = 's' }")
            .find("only PBKDF2") != std::string::npos);
  CHECK(evaluate("require('openssl.kdf').derive { type = 'PBKDF2', pass = 'p', salt = 's',"
                 " iter = 0, outlen = 16 }")
            .find("iter must be a whole number from 1 to 10000000") != std::string::npos);
}

TEST_CASE("openssl.rand and mime") {
  CHECK(evaluate("#require('openssl.rand').bytes(24)") == "24");
  CHECK(evaluate("require('openssl.rand').bytes(24) ~= require('openssl.rand').bytes(24)") ==
        "true");
  CHECK(evaluate("require('mime').b64('n,,n,r=abc')") == "biwsbixyPWFiYw==");
  CHECK(evaluate("require('mime').unb64('biwsbixyPWFiYw==')") == "n,,n,r=abc");
}
