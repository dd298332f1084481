// A client stream socket (TCP, or a Unix domain socket where the platform has them) for the
// `socket` module scripts require, with LuaSocket's semantics: a read buffer, lines ended by
// LF (a CR before it dropped), byte counts, or everything until the peer closes; results that
// say "timeout" or "closed" rather than throwing. No Lua here: socket_module.cpp is the module.
//
// Every wait is cut into short slices that ask the watch whether the script must end now
// (StopProvider, the operation's deadline): then the call throws WaitEnded with the watch's
// message, which no script can catch as a socket error.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

struct ssl_st;
struct ssl_ctx_st;

namespace luaform::lua::net {

using Clock = std::chrono::steady_clock;

// What ends a wait early: `reason` says why the script must end now (nullopt: it may go on);
// `limit` is the wait's own timeout (LuaSocket's settimeout), after which the call returns
// "timeout".
struct Wait {
  std::function<std::optional<std::string>()> reason;
  std::optional<Clock::time_point> limit;
};

class WaitEnded : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An outcome as LuaSocket reports it: `error` empty on success, else "timeout", "closed" or
// the system's message; `data` what was read (the partial result on an error).
struct Received {
  std::string data;
  std::string error;
};

struct Sent {
  size_t count = 0;  // bytes sent, also when an error stopped it
  std::string error;
};

// TLS on a connected socket (LuaSec's ssl.wrap parameters, in the host's words).
struct TlsOptions {
  // Check the peer's certificate against the trusted authorities and the server name.
  bool verify = true;
  // Sent as SNI and required in the certificate; the host connected to when empty.
  std::string server_name;
  // Trusted authorities: these when given, else the system's (system_certificates.h).
  std::string ca_file;
  std::string ca_directory;
  // A client certificate (PEM, its chain after it) and its key.
  std::string certificate;
  std::string key;
  // "any" (TLS 1.2 or later), "tlsv1_2" or "tlsv1_3": the lowest version accepted.
  std::string protocol = "any";
};

class StreamSocket {
 public:
  StreamSocket() = default;
  ~StreamSocket();
  StreamSocket(const StreamSocket&) = delete;
  StreamSocket& operator=(const StreamSocket&) = delete;
  // Takes over `other`'s connection (ssl.wrap: the TCP object is spent), leaving it closed.
  void take(StreamSocket& other);

  // Connects to `host`:`port` (each address the name resolves to in turn); "" on success, else
  // the error ("connection refused", "timeout", "host not found: ...").
  std::string connect_tcp(const std::string& host, const std::string& port, const Wait& wait);
  // Connects to the Unix domain socket at `path`.
  std::string connect_unix(const std::string& path, const Wait& wait);

  // Starts TLS on the connected socket: "" once the handshake is done, else why it failed
  // (the certificate's fault named, "certificate verify failed: unable to get local issuer
  // certificate"). Later sends and receives go through TLS.
  std::string start_tls(const TlsOptions& options, const Wait& wait);
  bool is_tls() const { return ssl_ != nullptr; }
  // The peer's certificate in PEM, or "" before a handshake.
  std::string peer_certificate_pem() const;

  Sent send(const char* data, size_t size, const Wait& wait);
  // A line without its LF (and a CR before it).
  Received receive_line(const Wait& wait, size_t max_bytes);
  Received receive_bytes(size_t count, const Wait& wait);
  // Everything until the peer closes; "closed" is success here, as in LuaSocket.
  Received receive_all(const Wait& wait, size_t max_bytes);

  // shutdown(2) of "send", "receive" or "both"; "" or the error.
  std::string shutdown(const std::string& how);
  std::string set_option(const std::string& name, bool value);
  // The address, port and family ("inet", "inet6", "unix") of the peer, or nullopt when not
  // connected.
  struct Endpoint {
    std::string address;
    int port = 0;
    std::string family;
  };
  std::optional<Endpoint> peer_name() const;
  void close();
  bool is_open() const;
  bool is_connected() const { return connected_; }

 private:
  std::string finish_connect(const Wait& wait);
  // Waits until the socket can be read (or written); "" when it can, else "timeout".
  std::string wait_for(bool write, const Wait& wait);
  // Reads what is there into buffer_; "" when something came, else "closed", "timeout" or the
  // system's error.
  std::string fill(const Wait& wait);

  // The handshake's and TLS reads' and writes' wait for what OpenSSL asks for; "" to retry.
  std::string wait_for_tls(int result, const Wait& wait);

  long long fd_ = -1;  // a SOCKET on Windows, an int elsewhere
  bool connected_ = false;
  std::string host_;  // the name connect_tcp was given
  std::string buffer_;
  ssl_ctx_st* ssl_context_ = nullptr;
  ssl_st* ssl_ = nullptr;
};

}  // namespace luaform::lua::net
