// AutoMTLS material: an ephemeral key and self-signed certificate for "localhost", made fresh
// for every process the way go-plugin makes its own, so the CLI can pin it from the handshake.
#pragma once

#include <optional>
#include <string>

namespace luaform::protocol {

struct Certificate {
  std::string cert_pem;
  std::string key_pem;
  // The DER certificate in standard base64 without '=' padding: handshake field 6.
  std::string der_base64;
};

// ECDSA key on `curve` (P-256 by default; tests use P-521 to mimic go-plugin's client);
// SAN DNS:localhost; EKU serverAuth+clientAuth (the same certificate shape serves as a client
// certificate in tests); a positive random serial; valid from 30 seconds ago for a year.
// Returns nullopt and sets `error` when OpenSSL fails.
std::optional<Certificate> generate_certificate(std::string& error, const char* curve = "P-256");

// Standard base64 alphabet, no padding (Go's base64.RawStdEncoding).
std::string base64_raw(const std::string& bytes);

}  // namespace luaform::protocol
