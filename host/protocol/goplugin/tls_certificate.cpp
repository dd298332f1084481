#include "host/protocol/goplugin/tls_certificate.h"

#include <memory>

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

namespace luaform::protocol {

namespace {

template <class T, void (*Free)(T*)>
struct Deleter {
  void operator()(T* p) const { Free(p); }
};
using PKey = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY, EVP_PKEY_free>>;
using X509Ptr = std::unique_ptr<X509, Deleter<X509, X509_free>>;
using Bio = std::unique_ptr<BIO, Deleter<BIO, BIO_free_all>>;
using Bignum = std::unique_ptr<BIGNUM, Deleter<BIGNUM, BN_free>>;
using Ext = std::unique_ptr<X509_EXTENSION, Deleter<X509_EXTENSION, X509_EXTENSION_free>>;

constexpr long kOneYearSeconds = 365L * 24 * 60 * 60;

std::string openssl_error(const char* what) {
  std::string msg = what;
  unsigned long code = ERR_get_error();
  if (code != 0) {
    char buf[256];
    ERR_error_string_n(code, buf, sizeof buf);
    msg += ": ";
    msg += buf;
  }
  ERR_clear_error();
  return msg;
}

std::string bio_contents(BIO* bio) {
  char* data = nullptr;
  long len = BIO_get_mem_data(bio, &data);
  return len > 0 ? std::string(data, static_cast<size_t>(len)) : std::string();
}

bool add_extension(X509* cert, int nid, const char* value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, cert, cert, nullptr, nullptr, 0);
  Ext ext(X509V3_EXT_conf_nid(nullptr, &ctx, nid, value));
  return ext && X509_add_ext(cert, ext.get(), -1) == 1;
}

// A 127-bit random serial: positive (top bit clear) and, with overwhelming odds, non-zero.
bool set_random_serial(X509* cert) {
  Bignum bn(BN_new());
  if (!bn || BN_rand(bn.get(), 127, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ODD) != 1) return false;
  return BN_to_ASN1_INTEGER(bn.get(), X509_get_serialNumber(cert)) != nullptr;
}

}  // namespace

std::string base64_raw(const std::string& bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(bytes.data()),
                          static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(n));
  while (!out.empty() && out.back() == '=') out.pop_back();
  return out;
}

std::optional<Certificate> generate_certificate(std::string& error, const char* curve) {
  PKey key(EVP_EC_gen(curve));
  if (!key) {
    error = openssl_error((std::string("generating the ") + curve + " key").c_str());
    return std::nullopt;
  }
  X509Ptr cert(X509_new());
  if (!cert || X509_set_version(cert.get(), 2) != 1 || !set_random_serial(cert.get())) {
    error = openssl_error("creating the certificate");
    return std::nullopt;
  }
  // Backdated like go-plugin's, so a client clock slightly behind ours still accepts it.
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -30);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), kOneYearSeconds);

  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("luaform"), -1, -1, 0);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("localhost"), -1, -1, 0);
  X509_set_issuer_name(cert.get(), name);
  X509_set_pubkey(cert.get(), key.get());

  // The client pins this certificate as its only root, so it is its own CA; Go's verifier
  // then wants the name "localhost" and the serverAuth usage.
  bool ok = add_extension(cert.get(), NID_basic_constraints, "critical,CA:TRUE") &&
            add_extension(cert.get(), NID_key_usage, "critical,digitalSignature,keyCertSign") &&
            add_extension(cert.get(), NID_ext_key_usage, "serverAuth,clientAuth") &&
            add_extension(cert.get(), NID_subject_alt_name, "DNS:localhost") &&
            add_extension(cert.get(), NID_subject_key_identifier, "hash");
  if (!ok || X509_sign(cert.get(), key.get(), EVP_sha256()) == 0) {
    error = openssl_error("signing the certificate");
    return std::nullopt;
  }

  Certificate out;
  Bio cert_bio(BIO_new(BIO_s_mem()));
  Bio key_bio(BIO_new(BIO_s_mem()));
  if (!cert_bio || !key_bio || PEM_write_bio_X509(cert_bio.get(), cert.get()) != 1 ||
      PEM_write_bio_PrivateKey(key_bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) !=
          1) {
    error = openssl_error("encoding the certificate");
    return std::nullopt;
  }
  out.cert_pem = bio_contents(cert_bio.get());
  out.key_pem = bio_contents(key_bio.get());

  int der_len = i2d_X509(cert.get(), nullptr);
  if (der_len <= 0) {
    error = openssl_error("encoding the certificate as DER");
    return std::nullopt;
  }
  std::string der(static_cast<size_t>(der_len), '\0');
  auto* p = reinterpret_cast<unsigned char*>(der.data());
  i2d_X509(cert.get(), &p);
  out.der_base64 = base64_raw(der);
  return out;
}

}  // namespace luaform::protocol
