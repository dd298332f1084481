#include "host/protocol/goplugin/tls_certificate.h"

#include <doctest/doctest.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <ctime>
#include <memory>

namespace luaform::protocol {
namespace {

struct X509Free {
  void operator()(X509* x) const { X509_free(x); }
};

std::unique_ptr<X509, X509Free> parse_pem(const std::string& pem) {
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  X509* cert = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr);
  BIO_free(bio);
  return std::unique_ptr<X509, X509Free>(cert);
}

TEST_CASE("base64_raw is standard base64 without padding, like Go's RawStdEncoding") {
  CHECK(base64_raw("") == "");
  CHECK(base64_raw("f") == "Zg");
  CHECK(base64_raw("fo") == "Zm8");
  CHECK(base64_raw("foo") == "Zm9v");
  CHECK(base64_raw("\xfb\xff") == "+/8");
}

TEST_CASE("the AutoMTLS certificate satisfies Go's verifier for localhost") {
  std::string error;
  auto cert = generate_certificate(error);
  REQUIRE_MESSAGE(cert.has_value(), error);
  auto x = parse_pem(cert->cert_pem);
  REQUIRE(x);

  // Self-signed with the P-256 key it carries.
  EVP_PKEY* pub = X509_get0_pubkey(x.get());
  REQUIRE(pub != nullptr);
  CHECK(EVP_PKEY_get_base_id(pub) == EVP_PKEY_EC);
  CHECK(EVP_PKEY_get_bits(pub) == 256);
  CHECK(X509_verify(x.get(), pub) == 1);

  CHECK(X509_check_host(x.get(), "localhost", 0, 0, nullptr) == 1);
  CHECK(X509_check_ca(x.get()) >= 1);
  CHECK((X509_get_extended_key_usage(x.get()) & XKU_SSL_SERVER) != 0);
  CHECK((X509_get_extended_key_usage(x.get()) & XKU_SSL_CLIENT) != 0);
  CHECK((X509_get_key_usage(x.get()) & KU_DIGITAL_SIGNATURE) != 0);
  CHECK((X509_get_key_usage(x.get()) & KU_KEY_CERT_SIGN) != 0);

  BIGNUM* serial = ASN1_INTEGER_to_BN(X509_get0_serialNumber(x.get()), nullptr);
  CHECK_FALSE(BN_is_negative(serial));
  CHECK_FALSE(BN_is_zero(serial));
  BN_free(serial);

  // Valid now; backdated a little; valid for at least a year.
  std::time_t now = std::time(nullptr);
  CHECK(X509_cmp_time(X509_get0_notBefore(x.get()), &now) < 0);
  std::time_t in_a_year = now + 364L * 24 * 60 * 60;
  CHECK(X509_cmp_time(X509_get0_notAfter(x.get()), &in_a_year) > 0);

  // Field 6 of the handshake is the DER form of the same certificate.
  unsigned char* der = nullptr;
  int len = i2d_X509(x.get(), &der);
  REQUIRE(len > 0);
  CHECK(cert->der_base64 == base64_raw(std::string(reinterpret_cast<char*>(der), len)));
  OPENSSL_free(der);
  CHECK(cert->key_pem.find("PRIVATE KEY") != std::string::npos);
}

TEST_CASE("each process gets a fresh key and serial") {
  std::string error;
  auto a = generate_certificate(error);
  auto b = generate_certificate(error);
  REQUIRE(a);
  REQUIRE(b);
  CHECK(a->cert_pem != b->cert_pem);
  CHECK(a->key_pem != b->key_pem);
}

}  // namespace
}  // namespace luaform::protocol
