// Client-side helpers for tests that talk to a real server over its unix socket.
#pragma once

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <memory>
#include <string>

namespace luaform::protocol::testing {

struct ClientTls {
  std::string server_cert_pem;  // the only root the client trusts
  std::string cert_pem;         // empty: present no client certificate
  std::string key_pem;
};

// `where`: a unix socket path, or "HOST:PORT" (what a server listening on TCP reports).
inline std::string target(const std::string& where) {
  return where.starts_with("/") ? "unix:" + where : where;
}

inline std::shared_ptr<grpc::Channel> plaintext_channel(const std::string& where) {
  return grpc::CreateChannel(target(where), grpc::InsecureChannelCredentials());
}

// As go-plugin's client does: trust exactly the server's certificate, expect "localhost".
inline std::shared_ptr<grpc::Channel> tls_channel(const std::string& where, const ClientTls& tls) {
  grpc::SslCredentialsOptions options;
  options.pem_root_certs = tls.server_cert_pem;
  options.pem_cert_chain = tls.cert_pem;
  options.pem_private_key = tls.key_pem;
  grpc::ChannelArguments args;
  args.SetSslTargetNameOverride("localhost");
  return grpc::CreateCustomChannel(target(where), grpc::SslCredentials(options), args);
}

// A context that gives up after a few seconds, so a broken server fails the test, not hangs it.
inline std::unique_ptr<grpc::ClientContext> context(int seconds = 5) {
  auto ctx = std::make_unique<grpc::ClientContext>();
  ctx->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(seconds));
  return ctx;
}

}  // namespace luaform::protocol::testing
