#include "host/lua/modules/openssl_modules.h"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>

#include <array>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>

#include "host/lua/core/frozen_tables.h"
#include "host/lua/core/guarded.h"
#include "host/lua/core/option_fields.h"
#include "host/lua/core/sandbox.h"
#include "host/lua/modules/encoding_module.h"

namespace luaform::lua {
namespace {

constexpr const char* kDigestMetatable = "luaform.openssl.digest";
constexpr const char* kHmacMetatable = "luaform.openssl.hmac";
constexpr const char* kCertificateMetatable = "luaform.openssl.x509";
// Random bytes one call gives at most: more is a mistake, not a key.
constexpr lua_Integer kMostRandomBytes = 1 << 20;

const EVP_MD* digest_named(const std::string& name) {
  const EVP_MD* md = EVP_get_digestbyname(name.c_str());
  if (md == nullptr) throw std::runtime_error("openssl: unknown digest \"" + name + "\"");
  return md;
}

std::string_view bytes_at(lua_State* L, int index) {
  size_t size = 0;
  const char* data = luaL_checklstring(L, index, &size);
  return {data, size};
}

// A userdata holding one OpenSSL context, freed when collected.
struct DigestObject {
  EVP_MD_CTX* context = nullptr;
};
struct HmacObject {
  EVP_MAC_CTX* context = nullptr;
};

void push_result(lua_State* L, const unsigned char* data, size_t size) {
  lua_pushlstring(L, reinterpret_cast<const char*>(data), size);
}

// ---- digest ----

DigestObject& check_digest(lua_State* L) {
  auto& object = *static_cast<DigestObject*>(luaL_checkudata(L, 1, kDigestMetatable));
  if (object.context == nullptr) throw std::runtime_error("openssl.digest: already final");
  return object;
}

int digest_update(lua_State* L) {
  DigestObject& object = check_digest(L);
  for (int i = 2; i <= lua_gettop(L); ++i) {
    const std::string_view data = bytes_at(L, i);
    EVP_DigestUpdate(object.context, data.data(), data.size());
  }
  lua_settop(L, 1);
  return 1;
}

int digest_final(lua_State* L) {
  DigestObject& object = check_digest(L);
  if (!lua_isnoneornil(L, 2)) {
    const std::string_view data = bytes_at(L, 2);
    EVP_DigestUpdate(object.context, data.data(), data.size());
  }
  std::array<unsigned char, EVP_MAX_MD_SIZE> out{};
  unsigned int size = 0;
  EVP_DigestFinal_ex(object.context, out.data(), &size);
  EVP_MD_CTX_free(object.context);
  object.context = nullptr;
  push_result(L, out.data(), size);
  return 1;
}

int digest_collect(lua_State* L) {
  auto& object = *static_cast<DigestObject*>(luaL_checkudata(L, 1, kDigestMetatable));
  EVP_MD_CTX_free(object.context);
  object.context = nullptr;
  return 0;
}

int digest_new(lua_State* L) {
  const EVP_MD* md = digest_named(luaL_optstring(L, 1, "sha1"));
  auto* object = new (lua_newuserdatauv(L, sizeof(DigestObject), 0)) DigestObject();
  luaL_setmetatable(L, kDigestMetatable);
  object->context = EVP_MD_CTX_new();
  if (object->context == nullptr || EVP_DigestInit_ex(object->context, md, nullptr) != 1) {
    throw std::runtime_error("openssl.digest: cannot start a digest");
  }
  return 1;
}

// ---- hmac ----

HmacObject& check_hmac(lua_State* L) {
  auto& object = *static_cast<HmacObject*>(luaL_checkudata(L, 1, kHmacMetatable));
  if (object.context == nullptr) throw std::runtime_error("openssl.hmac: already final");
  return object;
}

int hmac_update(lua_State* L) {
  HmacObject& object = check_hmac(L);
  for (int i = 2; i <= lua_gettop(L); ++i) {
    const std::string_view data = bytes_at(L, i);
    EVP_MAC_update(object.context, reinterpret_cast<const unsigned char*>(data.data()),
                   data.size());
  }
  lua_settop(L, 1);
  return 1;
}

int hmac_final(lua_State* L) {
  HmacObject& object = check_hmac(L);
  if (!lua_isnoneornil(L, 2)) {
    const std::string_view data = bytes_at(L, 2);
    EVP_MAC_update(object.context, reinterpret_cast<const unsigned char*>(data.data()),
                   data.size());
  }
  std::array<unsigned char, EVP_MAX_MD_SIZE> out{};
  size_t size = 0;
  EVP_MAC_final(object.context, out.data(), &size, out.size());
  EVP_MAC_CTX_free(object.context);
  object.context = nullptr;
  push_result(L, out.data(), size);
  return 1;
}

int hmac_collect(lua_State* L) {
  auto& object = *static_cast<HmacObject*>(luaL_checkudata(L, 1, kHmacMetatable));
  EVP_MAC_CTX_free(object.context);
  object.context = nullptr;
  return 0;
}

int hmac_new(lua_State* L) {
  const std::string_view key = bytes_at(L, 1);
  std::string name = luaL_optstring(L, 2, "sha1");
  digest_named(name);  // a clear error for a name OpenSSL does not know
  auto* object = new (lua_newuserdatauv(L, sizeof(HmacObject), 0)) HmacObject();
  luaL_setmetatable(L, kHmacMetatable);
  EVP_MAC* mac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
  object->context = mac != nullptr ? EVP_MAC_CTX_new(mac) : nullptr;
  EVP_MAC_free(mac);
  const OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, name.data(), 0),
      OSSL_PARAM_construct_end()};
  if (object->context == nullptr ||
      EVP_MAC_init(object->context, reinterpret_cast<const unsigned char*>(key.data()), key.size(),
                   params) != 1) {
    throw std::runtime_error("openssl.hmac: cannot start an HMAC with " + name);
  }
  return 1;
}

// ---- kdf, rand ----

// A string option of derive's table; a required one must be there.
std::string kdf_text(lua_State* L, const char* name, bool required) {
  std::optional<std::string> text = string_field(L, 1, name, "openssl.kdf.derive");
  if (!text && required) {
    throw std::runtime_error(std::string("openssl.kdf.derive: ") + name +
                             " must be a string, not nil");
  }
  return text.value_or("");
}

lua_Integer count_option(lua_State* L, const char* name, lua_Integer low, lua_Integer high) {
  lua_getfield(L, 1, name);
  if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < low || lua_tointeger(L, -1) > high) {
    throw std::runtime_error(std::string("openssl.kdf.derive: ") + name +
                             " must be a whole number from " + std::to_string(low) + " to " +
                             std::to_string(high));
  }
  const lua_Integer value = lua_tointeger(L, -1);
  lua_pop(L, 1);
  return value;
}

int kdf_derive(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  const std::string type = kdf_text(L, "type", true);
  if (type != "PBKDF2") {
    throw std::runtime_error("openssl.kdf.derive: type \"" + type + "\" (only PBKDF2 is here)");
  }
  std::string md_name = kdf_text(L, "md", false);
  const EVP_MD* md = digest_named(md_name.empty() ? "sha1" : md_name);
  const std::string pass = kdf_text(L, "pass", true);
  const std::string salt = kdf_text(L, "salt", true);
  // Iterations past ten million would hold the thread for minutes whatever the deadline says.
  const lua_Integer iterations = count_option(L, "iter", 1, 10'000'000);
  const lua_Integer length = count_option(L, "outlen", 1, 1024);
  std::string out(static_cast<size_t>(length), '\0');
  if (PKCS5_PBKDF2_HMAC(pass.data(), static_cast<int>(pass.size()),
                        reinterpret_cast<const unsigned char*>(salt.data()),
                        static_cast<int>(salt.size()), static_cast<int>(iterations), md,
                        static_cast<int>(length),
                        reinterpret_cast<unsigned char*>(out.data())) != 1) {
    throw std::runtime_error("openssl.kdf.derive: PBKDF2 failed");
  }
  lua_pushlstring(L, out.data(), out.size());
  return 1;
}

int rand_bytes(lua_State* L) {
  const lua_Integer count = luaL_checkinteger(L, 1);
  if (count < 0 || count > kMostRandomBytes) {
    throw std::runtime_error("openssl.rand.bytes: a count from 0 to " +
                             std::to_string(kMostRandomBytes));
  }
  std::string out(static_cast<size_t>(count), '\0');
  if (count > 0 &&
      RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(count)) != 1) {
    throw std::runtime_error("openssl.rand.bytes: no random bytes available");
  }
  lua_pushlstring(L, out.data(), out.size());
  return 1;
}

// ---- x509 ----

struct CertificateObject {
  X509* certificate = nullptr;
  std::string pem;
};

X509* read_pem(const std::string& pem) {
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  X509* certificate = bio != nullptr ? PEM_read_bio_X509(bio, nullptr, nullptr, nullptr) : nullptr;
  BIO_free(bio);
  return certificate;
}

CertificateObject& check_certificate(lua_State* L) {
  return *static_cast<CertificateObject*>(luaL_checkudata(L, 1, kCertificateMetatable));
}

int certificate_pem(lua_State* L) {
  const CertificateObject& object = check_certificate(L);
  lua_pushlstring(L, object.pem.data(), object.pem.size());
  return 1;
}

int certificate_signature_name(lua_State* L) {
  const CertificateObject& object = check_certificate(L);
  lua_pushstring(L, OBJ_nid2ln(X509_get_signature_nid(object.certificate)));
  return 1;
}

// A digest's name, or a signature algorithm's ("sha256WithRSAEncryption"): the digest it uses.
const EVP_MD* digest_or_signature(const std::string& name) {
  if (const EVP_MD* md = EVP_get_digestbyname(name.c_str())) return md;
  int md_nid = NID_undef;
  int key_nid = NID_undef;
  const int nid = OBJ_txt2nid(name.c_str());
  if (nid != NID_undef && OBJ_find_sigid_algs(nid, &md_nid, &key_nid) == 1) {
    if (const EVP_MD* md = EVP_get_digestbynid(md_nid)) return md;
  }
  return digest_named(name);
}

int certificate_digest(lua_State* L) {
  const CertificateObject& object = check_certificate(L);
  const EVP_MD* md = digest_or_signature(luaL_optstring(L, 2, "sha1"));
  std::array<unsigned char, EVP_MAX_MD_SIZE> out{};
  unsigned int size = 0;
  if (X509_digest(object.certificate, md, out.data(), &size) != 1) {
    throw std::runtime_error("x509: the digest could not be computed");
  }
  if (std::string(luaL_optstring(L, 3, "x")) == "s") {
    push_result(L, out.data(), size);
    return 1;
  }
  const std::string hex = lower_hex(out.data(), size);
  lua_pushlstring(L, hex.data(), hex.size());
  return 1;
}

int certificate_collect(lua_State* L) {
  CertificateObject& object = check_certificate(L);
  X509_free(object.certificate);
  object.certificate = nullptr;
  object.~CertificateObject();
  return 0;
}

int x509_new(lua_State* L) {
  size_t size = 0;
  const char* text = luaL_checklstring(L, 1, &size);
  const std::string format = luaL_optstring(L, 2, "PEM");
  if (format != "PEM") throw std::runtime_error("openssl.x509.new: only PEM is read here");
  push_certificate(L, std::string(text, size));
  return 1;
}

void make_metatable(lua_State* L, const char* name, const luaL_Reg* methods,
                    lua_CFunction collect) {
  if (luaL_newmetatable(L, name) != 0) {
    lua_newtable(L);
    luaL_setfuncs(L, methods, 0);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, collect);
    lua_setfield(L, -2, "__gc");
    seal_metatable(L, -1, name);
  }
  lua_pop(L, 1);
}

}  // namespace

int open_openssl_digest_module(lua_State* L) {
  const luaL_Reg methods[] = {
      {"update", guarded<digest_update>}, {"final", guarded<digest_final>}, {nullptr, nullptr}};
  make_metatable(L, kDigestMetatable, methods, guarded<digest_collect>);
  const luaL_Reg functions[] = {{"new", guarded<digest_new>}, {nullptr, nullptr}};
  luaL_newlib(L, functions);
  return 1;
}

int open_openssl_hmac_module(lua_State* L) {
  const luaL_Reg methods[] = {
      {"update", guarded<hmac_update>}, {"final", guarded<hmac_final>}, {nullptr, nullptr}};
  make_metatable(L, kHmacMetatable, methods, guarded<hmac_collect>);
  const luaL_Reg functions[] = {{"new", guarded<hmac_new>}, {nullptr, nullptr}};
  luaL_newlib(L, functions);
  return 1;
}

int open_openssl_kdf_module(lua_State* L) {
  const luaL_Reg functions[] = {{"derive", guarded<kdf_derive>}, {nullptr, nullptr}};
  luaL_newlib(L, functions);
  return 1;
}

void push_certificate(lua_State* L, const std::string& pem) {
  const luaL_Reg methods[] = {{"pem", guarded<certificate_pem>},
                              {"getsignaturename", guarded<certificate_signature_name>},
                              {"digest", guarded<certificate_digest>},
                              {nullptr, nullptr}};
  make_metatable(L, kCertificateMetatable, methods, guarded<certificate_collect>);
  auto* object = new (lua_newuserdatauv(L, sizeof(CertificateObject), 0)) CertificateObject();
  luaL_setmetatable(L, kCertificateMetatable);
  object->pem = pem;
  object->certificate = read_pem(pem);
  if (object->certificate == nullptr) throw std::runtime_error("x509: not a PEM certificate");
}

int open_openssl_x509_module(lua_State* L) {
  const luaL_Reg functions[] = {{"new", guarded<x509_new>}, {nullptr, nullptr}};
  luaL_newlib(L, functions);
  return 1;
}

int open_openssl_rand_module(lua_State* L) {
  const luaL_Reg functions[] = {{"bytes", guarded<rand_bytes>}, {nullptr, nullptr}};
  luaL_newlib(L, functions);
  return 1;
}

}  // namespace luaform::lua
