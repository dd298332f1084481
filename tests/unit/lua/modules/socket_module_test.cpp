// require("socket"): LuaSocket's client API over the host's sockets, against a peer on loopback
// that this test runs (a thread that accepts one connection and plays a script of its own).
#include "host/lua/modules/socket_module.h"

#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>

#include "loopback_peer.h"
#include "provider_dir.h"

using namespace luaform::lua::testing;
using luaform::engine::Operation;

namespace {

// The Lua text `socket.connect("127.0.0.1", PORT)`.
std::string connect_to(const Peer& peer) {
  return "require('socket').connect('127.0.0.1', " + std::to_string(peer.port()) + ")";
}

}  // namespace

TEST_CASE("lines, byte counts and everything until close, as LuaSocket reads them") {
  Peer peer([](int fd) {
    const std::string asked = read_line(fd);
    write_all(fd, "+" + asked + "\r\nbytes:12345" + "tail\nrest of it");
  });
  CHECK(
      evaluate("(function() local s = " + connect_to(peer) +
               " assert(s:send('PING\\n') == 5)"
               " local line = s:receive('*l')"
               " local count = s:receive(11)"
               " local five = s:receive(5)"
               " local all = s:receive('*a')"
               " local a, b, c = s:receive('*l')"
               " s:close()"
               " return table.concat({ line, count, five, all, tostring(a), b, c }, '|') end)()") ==
      "+PING|bytes:12345|tail\n|rest of it|nil|closed|");
}

TEST_CASE("a peer that says nothing: settimeout gives 'timeout' with what came before") {
  Peer peer([](int fd) {
    write_all(fd, "partial");
    std::this_thread::sleep_for(std::chrono::milliseconds(800));
  });
  const auto started = std::chrono::steady_clock::now();
  CHECK(evaluate("(function() local s = " + connect_to(peer) +
                 " s:settimeout(0.2)"
                 " local data, err, partial = s:receive('*l')"
                 " s:close()"
                 " return tostring(data) .. '|' .. err .. '|' .. partial end)()") ==
        "nil|timeout|partial");
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::milliseconds(700));
}

TEST_CASE("a refused connection, a send to a closed peer and a name that does not resolve") {
  int port = 0;
  {
    Peer gone([](int) {});
    port = gone.port();
    // connect once so that the peer's thread ends
    CHECK(evaluate("(function() local s = require('socket').connect('127.0.0.1', " +
                   std::to_string(port) + ") s:close() return 'ok' end)()") == "ok");
  }
  CHECK(evaluate("(function() local s, err = require('socket').connect('127.0.0.1', " +
                 std::to_string(port) + ") return tostring(s) .. '|' .. err end)()") ==
        "nil|connection refused");
  CHECK(evaluate("(function() local s, err = require('socket').connect('no-such-host.invalid', 1)"
                 " return tostring(s) .. '|' .. err end)()") ==
        "nil|host not found: no-such-host.invalid");
  Peer closer([](int) {});
  CHECK(evaluate("(function() local s = " + connect_to(closer) +
                 " require('socket').sleep(0.1)"
                 " local got, err = s:receive(1)"
                 " return tostring(got) .. '|' .. err end)()") == "nil|closed");
}

TEST_CASE("a Unix domain socket through socket.unix, called as LuaSocket's is") {
  const std::string path = "/tmp/luaform-socket-test-" + std::to_string(::getpid());
  Peer peer([](int fd) { write_all(fd, "over unix\n"); }, path);
  CHECK(evaluate("(function() local s = require('socket.unix')()"
                 " assert(s:connect('" +
                 path +
                 "'))"
                 " local line = s:receive()"
                 " s:close() return line end)()") == "over unix");
  ::unlink(path.c_str());
}

TEST_CASE("a receive larger than the memory left is refused before anything is read") {
  Peer peer([](int) { std::this_thread::sleep_for(std::chrono::milliseconds(100)); });
  CHECK(evaluate(connect_to(peer) + ":receive(1 << 40)")
            .find("socket: receive would hold more than the") != std::string::npos);
}

TEST_CASE("a state holds at most 64 open sockets; closing one makes room") {
  std::vector<std::unique_ptr<Peer>> peers;
  std::string ports = "{";
  for (int i = 0; i < 66; ++i) {
    peers.push_back(std::make_unique<Peer>(
        [](int) { std::this_thread::sleep_for(std::chrono::milliseconds(300)); }));
    ports += std::to_string(peers.back()->port()) + ",";
  }
  ports += "}";
  CHECK(evaluate("(function() local socket = require('socket') local open = {}"
                 " for i, port in ipairs(" +
                 ports +
                 ") do"
                 "   local s, err = socket.connect('127.0.0.1', port)"
                 "   if not s then"
                 "     open[1]:close()"
                 "     local again = socket.connect('127.0.0.1', port)"
                 "     return i .. ': ' .. err .. ' / then ' .. tostring(again ~= nil)"
                 "   end"
                 "   open[#open + 1] = s"
                 " end end)()") ==
        "65: too many open sockets: this script holds 64 (close those it no longer uses) / then "
        "true");
}

namespace {

constexpr const char* kWaiter = R"(local tf = require("luaform")
local socket = require("socket")
return tf.resource {
  schema = { port = tf.number { required = true } },
  timeouts = { create = "400ms" },
  create = function(d)
    d:set_id("waited")
    local s = socket.connect("127.0.0.1", d:get("port"))
    s:receive("*l")
  end,
  read = function() end, delete = function() end,
}
)";

}  // namespace

TEST_CASE("the operation's deadline and StopProvider end a receive that waits without a timeout") {
  ProviderDir dir;
  dir.write("resource_waiter.lua", kWaiter);
  auto logic = dir.load();
  Instance i(*logic, "test_waiter");
  for (const bool stop : {false, true}) {
    Peer peer([](int) { std::this_thread::sleep_for(std::chrono::milliseconds(700)); });
    luaform::engine::ResourceData d(
        i.schema, i.null(), i.object({{"port", luaform::engine::Value::number(peer.port())}}),
        i.null());
    std::thread stopper([&] {
      if (!stop) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      logic->stop();
    });
    const auto started = std::chrono::steady_clock::now();
    auto diags = logic->open_session()->call(Operation::Create, "test_waiter", d);
    stopper.join();
    REQUIRE(diags.has_errors());
    CHECK(as_raised(diags.items()[0]) ==
          (stop ? "resource_waiter.lua:9: stopped by StopProvider"
                : "resource_waiter.lua:9: create did not finish within its timeout of 0.4s"));
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::milliseconds(900));
  }
}

namespace {

// A self-signed certificate for "localhost" (its own CA), made once with the openssl program.
struct TestCertificate {
  std::string key = "/tmp/luaform-tls-test-key-" + std::to_string(::getpid()) + ".pem";
  std::string cert = "/tmp/luaform-tls-test-cert-" + std::to_string(::getpid()) + ".pem";
  TestCertificate() {
    const std::string command =
        "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost "
        "-addext subjectAltName=DNS:localhost -keyout " +
        key + " -out " + cert + " 2>/dev/null";
    REQUIRE(std::system(command.c_str()) == 0);
  }
  ~TestCertificate() {
    std::remove(key.c_str());
    std::remove(cert.c_str());
  }
};

// A TLS server for one connection: answers the first line with "tls:" and that line.
std::function<void(int)> tls_echo(const TestCertificate& certificate) {
  return [&certificate](int fd) {
    SSL_CTX* context = SSL_CTX_new(TLS_server_method());
    SSL_CTX_use_certificate_chain_file(context, certificate.cert.c_str());
    SSL_CTX_use_PrivateKey_file(context, certificate.key.c_str(), SSL_FILETYPE_PEM);
    SSL* ssl = SSL_new(context);
    SSL_set_fd(ssl, fd);
    if (SSL_accept(ssl) == 1) {
      std::string line;
      char c = 0;
      while (SSL_read(ssl, &c, 1) == 1 && c != '\n') line += c;
      const std::string answer = "tls:" + line + "\n";
      SSL_write(ssl, answer.data(), static_cast<int>(answer.size()));
      SSL_shutdown(ssl);
    }
    SSL_free(ssl);
    SSL_CTX_free(context);
  };
}

// Lua that wraps a connection to `peer` with `params`, shakes hands and echoes a line; gives
// the answer or "nil|error".
std::string handshake(const Peer& peer, const std::string& params, const std::string& name = "") {
  return evaluate("(function() local ssl = require('ssl') local s = " + connect_to(peer) +
                  " local t = assert(ssl.wrap(s, " + params + "))" +
                  (name.empty() ? "" : " t:sni('" + name + "')") +
                  " local ok, err = t:dohandshake()"
                  " if not ok then t:close() return tostring(ok) .. '|' .. err end"
                  " t:send('hello\\n') local line = t:receive() t:close() return line end)()");
}

}  // namespace

TEST_CASE("TLS through ssl.wrap: verified against the given CA and the server's name") {
  TestCertificate certificate;
  {
    Peer peer(tls_echo(certificate));
    CHECK(handshake(peer, "{ mode = 'client', cafile = '" + certificate.cert + "' }",
                    "localhost") == "tls:hello");
  }
  {
    // LuaSec would not check at all by default; here the system's CAs do not know this one.
    Peer peer(tls_echo(certificate));
    CHECK(handshake(peer, "{ mode = 'client' }", "localhost")
              .starts_with("nil|certificate verify failed: "));
  }
  {
    Peer peer(tls_echo(certificate));
    CHECK(handshake(peer, "{ cafile = '" + certificate.cert + "' }", "elsewhere.example") ==
          "nil|certificate verify failed: hostname mismatch");
  }
  {
    // Connected to 127.0.0.1 without a name: the certificate does not carry that address.
    Peer peer(tls_echo(certificate));
    CHECK(handshake(peer, "{ cafile = '" + certificate.cert + "' }") ==
          "nil|certificate verify failed: IP address mismatch");
  }
  {
    Peer peer(tls_echo(certificate));
    CHECK(handshake(peer, "{ verify = 'none' }") == "tls:hello");
  }
  {
    // The server's certificate, as pgmoon's channel binding reads it: LuaSec's object, and
    // luaossl's x509 over its PEM, the digest named by the signature algorithm.
    Peer peer(tls_echo(certificate));
    CHECK(evaluate(
              "(function() local s = " + connect_to(peer) +
              " local t = require('ssl').wrap(s, { cafile = '" + certificate.cert +
              "' })"
              " t:sni('localhost') assert(t:dohandshake())"
              " local c = t:getpeercertificate()"
              " local x = require('openssl.x509').new(c:pem(), 'PEM')"
              " local same = x:digest(c:getsignaturename(), 's') =="
              "   require('openssl.digest').new('sha256'):final("
              "     require('mime').unb64(c:pem():gsub('%-%-%-%-%-[^-]+%-%-%-%-%-', ''):gsub('%s', "
              "'')))"
              " t:send('x\\n') t:receive() t:close()"
              " return c:getsignaturename() .. '|' .. #c:digest('sha256') .. '|' .. tostring(same)"
              " end)()") == "sha256WithRSAEncryption|64|true");
  }
  CHECK(evaluate("require('ssl').wrap(require('socket').tcp(), { mode = 'server' })")
            .find("only clients are served here") != std::string::npos);
}
