// serve() end to end, in-process: stdout is captured to read the handshake line the way the
// CLI does, then a client connects, and Shutdown or SIGTERM ends serve().
#include "host/protocol/goplugin/serve.h"

#include <doctest/doctest.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <sys/stat.h>

#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <future>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>
#include <streambuf>
#include <vector>

#include "host/protocol/goplugin/tls_certificate.h"
#include "host/protocol/proto/go_plugin.grpc.pb.h"
#include "host/protocol/proto/tfplugin5.grpc.pb.h"
#include "host/protocol/proto/tfplugin6.grpc.pb.h"
#include "tests/unit/protocol/grpc_client.h"
#include "tests/unit/protocol/scoped_env.h"
#include "tests/unit/protocol/test_provider.h"

namespace luaform::protocol {
namespace {

using testing::ScopedEnv;

// Everything written to std::cout while installed, readable from another thread.
class CapturedStdout : public std::streambuf {
 public:
  CapturedStdout() : previous_(std::cout.rdbuf(this)) {}
  ~CapturedStdout() override { std::cout.rdbuf(previous_); }

  // The first complete line, or nullopt after `timeout`.
  std::optional<std::string> first_line(std::chrono::seconds timeout) {
    std::unique_lock lock(mutex_);
    if (!cv_.wait_for(lock, timeout, [&] { return text_.find('\n') != std::string::npos; })) {
      return std::nullopt;
    }
    return text_.substr(0, text_.find('\n'));
  }
  std::string text() {
    std::lock_guard lock(mutex_);
    return text_;
  }

 protected:
  int overflow(int c) override {
    if (c != traits_type::eof()) {
      char ch = static_cast<char>(c);
      xsputn(&ch, 1);
    }
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    {
      std::lock_guard lock(mutex_);
      text_.append(s, static_cast<size_t>(n));
    }
    cv_.notify_all();
    return n;
  }

 private:
  std::streambuf* previous_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::string text_;
};

constexpr const char* kCookie = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string field;
  while (std::getline(ss, field, sep)) out.push_back(field);
  if (!line.empty() && line.back() == sep) out.emplace_back();
  return out;
}

// The inverse of handshake field 6: unpadded base64 DER -> PEM, as the CLI's RootCAs.
std::string der_base64_to_pem(std::string b64) {
  while (b64.size() % 4 != 0) b64 += '=';
  std::string der(b64.size(), '\0');
  int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(der.data()),
                          reinterpret_cast<const unsigned char*>(b64.data()),
                          static_cast<int>(b64.size()));
  if (n < 0) return {};
  const auto* p = reinterpret_cast<const unsigned char*>(der.data());
  X509* cert = d2i_X509(nullptr, &p, n);  // trailing padding zeros are ignored
  if (cert == nullptr) return {};
  BIO* bio = BIO_new(BIO_s_mem());
  PEM_write_bio_X509(bio, cert);
  char* data = nullptr;
  long len = BIO_get_mem_data(bio, &data);
  std::string pem(data, static_cast<size_t>(len));
  BIO_free(bio);
  X509_free(cert);
  return pem;
}

// A signal sent after serve() returned would hit the default action and end the test binary.
bool still_running(const std::future<int>& running) {
  return running.wait_for(std::chrono::seconds(0)) != std::future_status::ready;
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

TEST_CASE(
    "serve negotiates 6, announces an AutoMTLS socket that refuses any other client, and exits "
    "0 on Shutdown") {
  std::string error;
  auto client = generate_certificate(error);
  REQUIRE(client);
  ScopedEnv cookie("TF_PLUGIN_MAGIC_COOKIE", kCookie);
  ScopedEnv versions("PLUGIN_PROTOCOL_VERSIONS", "5,6");
  ScopedEnv cert("PLUGIN_CLIENT_CERT", client->cert_pem.c_str());
  ScopedEnv only("LUAFORM_PROTOCOL", nullptr);
  ScopedEnv dir("PLUGIN_UNIX_SOCKET_DIR", nullptr);

  // A process of the same user that is not the CLI: it can reach the socket, but has another
  // certificate, none, or no TLS at all.
  auto intruder = generate_certificate(error);
  REQUIRE(intruder);

  std::optional<std::string> line;
  std::string all_stdout;
  int exit_code = -1;
  grpc::Status schema_status, shutdown_status;
  std::vector<grpc::Status> refused;
  tfplugin6::GetProviderSchema::Response schema;
  {
    CapturedStdout out;
    auto running = std::async(std::launch::async, [] {
      return serve(PendingService::ready(testing::file_provider()), ServeOptions{});
    });
    line = out.first_line(std::chrono::seconds(10));
    if (line) {
      auto fields = split(*line, '|');
      if (fields.size() == 6) {
        const std::string server_pem = der_base64_to_pem(fields[5]);
        for (const auto& channel :
             {testing::tls_channel(fields[3], {server_pem, intruder->cert_pem, intruder->key_pem}),
              testing::tls_channel(fields[3], {server_pem, "", ""}),
              testing::plaintext_channel(fields[3])}) {
          tfplugin6::GetProviderSchema::Response ignored;
          refused.push_back(tfplugin6::Provider::NewStub(channel)->GetProviderSchema(
              testing::context(2).get(), {}, &ignored));
        }
        auto channel =
            testing::tls_channel(fields[3], {server_pem, client->cert_pem, client->key_pem});
        schema_status = tfplugin6::Provider::NewStub(channel)->GetProviderSchema(
            testing::context().get(), {}, &schema);
        plugin::Empty empty;
        shutdown_status = plugin::GRPCController::NewStub(channel)->Shutdown(
            testing::context().get(), {}, &empty);
      }
    }
    // Don't hang the suite when Shutdown failed; never signal when serve is not listening.
    if ((!line || !shutdown_status.ok()) && still_running(running)) ::kill(::getpid(), SIGTERM);
    if (running.wait_for(std::chrono::seconds(5)) == std::future_status::ready) {
      exit_code = running.get();
    }
    all_stdout = out.text();
  }

  REQUIRE(line);
  auto fields = split(*line, '|');
  REQUIRE(fields.size() == 6);
  CHECK(fields[0] == "1");
  CHECK(fields[1] == "6");
  CHECK(fields[2] == "unix");
  CHECK(fields[4] == "grpc");
  CHECK(fields[5].size() > 50);
  CHECK(fields[5].find('=') == std::string::npos);
  // AutoMTLS: only the holder of the certificate the CLI passed in PLUGIN_CLIENT_CERT gets in.
  REQUIRE(refused.size() == 3);
  for (const auto& status : refused) {
    CHECK_MESSAGE(status.error_code() == grpc::StatusCode::UNAVAILABLE, status.error_message());
  }
  CHECK_MESSAGE(schema_status.ok(), schema_status.error_message());
  CHECK(schema.resource_schemas().count("test_file") == 1);
  CHECK_MESSAGE(shutdown_status.ok(), shutdown_status.error_message());
  CHECK(exit_code == 0);
  // Nothing but the handshake line on stdout, and the socket directory is gone.
  CHECK(all_stdout == *line + "\n");
  CHECK_FALSE(exists(fields[3]));
}

TEST_CASE(
    "LUAFORM_PROTOCOL=5 serves protocol 5 in plaintext without a client certificate, "
    "and SIGTERM ends it") {
  ScopedEnv cookie("TF_PLUGIN_MAGIC_COOKIE", kCookie);
  ScopedEnv versions("PLUGIN_PROTOCOL_VERSIONS", "6,5");
  ScopedEnv cert("PLUGIN_CLIENT_CERT", nullptr);
  ScopedEnv only("LUAFORM_PROTOCOL", "5");
  std::string base = "/tmp";
  ScopedEnv dir("PLUGIN_UNIX_SOCKET_DIR", base.c_str());

  std::optional<std::string> line;
  int exit_code = -1;
  grpc::Status status;
  tfplugin5::GetProviderSchema::Response schema;
  {
    CapturedStdout out;
    auto running = std::async(std::launch::async, [] {
      return serve(PendingService::ready(testing::file_provider()), ServeOptions{});
    });
    line = out.first_line(std::chrono::seconds(10));
    if (line) {
      auto fields = split(*line, '|');
      if (fields.size() == 6) {
        status = tfplugin5::Provider::NewStub(testing::plaintext_channel(fields[3]))
                     ->GetSchema(testing::context().get(), {}, &schema);
      }
    }
    if (still_running(running)) ::kill(::getpid(), SIGTERM);
    if (running.wait_for(std::chrono::seconds(5)) == std::future_status::ready) {
      exit_code = running.get();
    }
  }
  REQUIRE(line);
  auto fields = split(*line, '|');
  REQUIRE(fields.size() == 6);
  CHECK(fields[1] == "5");
  CHECK(fields[3].rfind(base + "/", 0) == 0);
  CHECK(fields[5].empty());
  CHECK_MESSAGE(status.ok(), status.error_message());
  CHECK(schema.resource_schemas().count("test_file") == 1);
  CHECK(exit_code == 0);
}

TEST_CASE("serve exits 1 without printing when no protocol version is shared") {
  ScopedEnv cookie("TF_PLUGIN_MAGIC_COOKIE", kCookie);
  ScopedEnv versions("PLUGIN_PROTOCOL_VERSIONS", "6");
  ScopedEnv only("LUAFORM_PROTOCOL", "5");
  CapturedStdout out;
  CHECK(serve(PendingService::ready(testing::file_provider()), ServeOptions{}) == 1);
  CHECK(out.text().empty());
}

TEST_CASE("started_by_cli requires the exact magic cookie, and serve refuses without it") {
  {
    ScopedEnv cookie("TF_PLUGIN_MAGIC_COOKIE", kCookie);
    CHECK(started_by_cli());
  }
  ScopedEnv wrong("TF_PLUGIN_MAGIC_COOKIE", "nope");
  CHECK_FALSE(started_by_cli());
  CapturedStdout out;
  CHECK(serve(PendingService::ready(testing::file_provider()), ServeOptions{}) == 1);
  CHECK(out.text().empty());
}

TEST_CASE("debug mode needs no cookie, prints TF_REATTACH_PROVIDERS and stops on SIGINT") {
  ScopedEnv cookie("TF_PLUGIN_MAGIC_COOKIE", nullptr);
  ScopedEnv only("LUAFORM_PROTOCOL", nullptr);
  ServeOptions options;
  options.debug = true;
  options.provider_address = "registry.opentofu.org/luaform/example";
  std::string text;
  int exit_code = -1;
  grpc::Status status;
  {
    CapturedStdout out;
    auto running = std::async(std::launch::async, [&] {
      return serve(PendingService::ready(testing::file_provider()), options);
    });
    // The reattach line is the second one.
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline &&
           out.text().find("TF_REATTACH_PROVIDERS=") == std::string::npos) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    text = out.text();
    auto at = text.find("\"String\":\"");
    if (at != std::string::npos) {
      auto start = at + 10;
      auto path = text.substr(start, text.find('"', start) - start);
      tfplugin6::GetProviderSchema::Response schema;
      status = tfplugin6::Provider::NewStub(testing::plaintext_channel(path))
                   ->GetProviderSchema(testing::context().get(), {}, &schema);
    }
    if (still_running(running)) ::kill(::getpid(), SIGINT);
    if (running.wait_for(std::chrono::seconds(5)) == std::future_status::ready) {
      exit_code = running.get();
    }
  }
  CHECK(text.find("TF_REATTACH_PROVIDERS='{\"registry.opentofu.org/luaform/example\":") !=
        std::string::npos);
  CHECK(text.find("\"ProtocolVersion\":6") != std::string::npos);
  CHECK(text.find("\"Test\":true") != std::string::npos);
  CHECK_MESSAGE(status.ok(), status.error_message());
  CHECK(exit_code == 0);
}

}  // namespace
}  // namespace luaform::protocol
