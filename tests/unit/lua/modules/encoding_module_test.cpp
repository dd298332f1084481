// tf.base64, tf.hash and tf.uuid, checked against known answers.
#include "host/lua/modules/encoding_module.h"

#include <doctest/doctest.h>

#include "provider_dir.h"

using namespace luaform::lua::testing;

TEST_CASE("base64 round-trips any bytes and refuses text that is not base64") {
  CHECK(evaluate("tf.base64.encode('')") == "");
  CHECK(evaluate("tf.base64.encode('f')") == "Zg==");
  CHECK(evaluate("tf.base64.encode('fo')") == "Zm8=");
  CHECK(evaluate("tf.base64.encode('foobar')") == "Zm9vYmFy");
  CHECK(evaluate("tf.base64.decode('Zg==')") == "f");
  CHECK(evaluate("tf.base64.decode('Zm8=')") == "fo");
  CHECK(evaluate("tf.base64.decode(tf.base64.encode('\\0\\255\\1')) == '\\0\\255\\1'") == "true");
  for (const char* bad : {"Zg=", "Z===", "Zm9v!mFy", "Zg==Zg==", "=Zg="}) {
    CHECK_MESSAGE(evaluate(std::string("tf.base64.decode('") + bad + "')")
                          .find("resource_probe.lua:6: base64.decode: the text is not base64") !=
                      std::string::npos,
                  bad);
  }
}

TEST_CASE("digests are lower-case hex of the standard algorithms") {
  CHECK(evaluate("tf.hash.sha256('abc')") ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(evaluate("tf.hash.sha1('abc')") == "a9993e364706816aba3e25717850c26c9cd0d89d");
  CHECK(evaluate("tf.hash.md5('')") == "d41d8cd98f00b204e9800998ecf8427e");
  CHECK(evaluate("#tf.hash.sha512('abc')") == "128");
}

TEST_CASE("uuid gives distinct version 4 UUIDs") {
  CHECK(evaluate("tf.uuid():match('^%x%x%x%x%x%x%x%x%-%x%x%x%x%-4%x%x%x%-[89ab]%x%x%x%-"
                 "%x%x%x%x%x%x%x%x%x%x%x%x$') ~= nil") == "true");
  CHECK(evaluate("tf.uuid() ~= tf.uuid()") == "true");
}
