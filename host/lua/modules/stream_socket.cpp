#include "host/lua/modules/stream_socket.h"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <string>

#if defined(_WIN32)
#include <winsock2.h>
#include <ws2tcpip.h>

#include "host/platform/windows_error.h"
#else
#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#endif

#include "host/lua/modules/system_certificates.h"
#if defined(_WIN32)
#include "host/lua/modules/windows_root_store.h"
#endif

namespace luaform::lua::net {
namespace {

using std::chrono::milliseconds;

// How long one poll waits before the watch is asked again.
constexpr milliseconds kSlice{20};
constexpr size_t kChunk = size_t{64} << 10;

#if defined(_WIN32)
using Native = SOCKET;
constexpr Native kInvalid = INVALID_SOCKET;
int last_error() {
  return WSAGetLastError();
}
bool would_block(int error) {
  return error == WSAEWOULDBLOCK || error == WSAEINPROGRESS;
}
bool refused(int error) {
  return error == WSAECONNREFUSED;
}
void close_native(Native fd) {
  ::closesocket(fd);
}
int poll_native(pollfd* fds, int timeout) {
  return ::WSAPoll(fds, 1, timeout);
}
void make_nonblocking(Native fd) {
  u_long on = 1;
  ::ioctlsocket(fd, FIONBIO, &on);
}
std::string system_text(int error) {
  return platform::windows_error_text(static_cast<DWORD>(error));
}
void start_winsock() {
  static std::once_flag once;
  std::call_once(once, [] {
    WSADATA data;
    ::WSAStartup(MAKEWORD(2, 2), &data);
  });
}
constexpr int kSendFlags = 0;
#else
using Native = int;
constexpr Native kInvalid = -1;
int last_error() {
  return errno;
}
bool would_block(int error) {
  return error == EAGAIN || error == EWOULDBLOCK || error == EINPROGRESS || error == EINTR;
}
bool refused(int error) {
  return error == ECONNREFUSED;
}
void close_native(Native fd) {
  ::close(fd);
}
int poll_native(pollfd* fds, int timeout) {
  return ::poll(fds, 1, timeout);
}
void make_nonblocking(Native fd) {
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  ::fcntl(fd, F_SETFD, FD_CLOEXEC);
#if defined(__APPLE__)
  int on = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, sizeof on);
#endif
}
std::string system_text(int error) {
  std::string text = std::strerror(error);
  if (!text.empty()) text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  return text;
}
void start_winsock() {}
#if defined(MSG_NOSIGNAL)
constexpr int kSendFlags = MSG_NOSIGNAL;  // a peer that went away is an error, not SIGPIPE
#else
constexpr int kSendFlags = 0;
#endif
#endif

// LuaSocket's words for the errors scripts test for.
std::string error_text(int error) {
  if (refused(error)) return "connection refused";
  return system_text(error);
}

Native native(long long fd) {
  return static_cast<Native>(fd);
}

}  // namespace

StreamSocket::~StreamSocket() {
  close();
}

void StreamSocket::take(StreamSocket& other) {
  close();
  fd_ = other.fd_;
  connected_ = other.connected_;
  host_ = std::move(other.host_);
  buffer_ = std::move(other.buffer_);
  ssl_context_ = other.ssl_context_;
  ssl_ = other.ssl_;
  other.fd_ = -1;
  other.connected_ = false;
  other.buffer_.clear();
  other.ssl_context_ = nullptr;
  other.ssl_ = nullptr;
}

bool StreamSocket::is_open() const {
  return fd_ != static_cast<long long>(kInvalid) && fd_ != -1;
}

void StreamSocket::close() {
  if (ssl_ != nullptr) {
    SSL_shutdown(ssl_);  // one close_notify, not waited for
    SSL_free(ssl_);
    ssl_ = nullptr;
  }
  if (ssl_context_ != nullptr) {
    SSL_CTX_free(ssl_context_);
    ssl_context_ = nullptr;
  }
  if (is_open()) close_native(native(fd_));
  fd_ = -1;
  connected_ = false;
  buffer_.clear();
}

std::string StreamSocket::wait_for(bool write, const Wait& wait) {
  for (;;) {
    if (wait.reason) {
      if (std::optional<std::string> why = wait.reason()) throw WaitEnded(*why);
    }
    milliseconds slice = kSlice;
    if (wait.limit) {
      const auto left = std::chrono::ceil<milliseconds>(*wait.limit - Clock::now());
      if (left <= milliseconds{0}) return "timeout";
      slice = std::min(slice, left);
    }
    pollfd fd{};
    fd.fd = native(fd_);
    fd.events = write ? POLLOUT : POLLIN;
    const int ready = poll_native(&fd, static_cast<int>(slice.count()));
    if (ready > 0) return "";
    if (ready < 0 && !would_block(last_error())) return error_text(last_error());
  }
}

std::string StreamSocket::finish_connect(const Wait& wait) {
  if (std::string waited = wait_for(true, wait); !waited.empty()) return waited;
  int error = 0;
  socklen_t size = sizeof error;
  ::getsockopt(native(fd_), SOL_SOCKET, SO_ERROR, reinterpret_cast<char*>(&error), &size);
  if (error != 0) return error_text(error);
  connected_ = true;
  return "";
}

std::string StreamSocket::connect_tcp(const std::string& host, const std::string& port,
                                      const Wait& wait) {
  start_winsock();
  if (connected_) return "already connected";
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (const int status = ::getaddrinfo(host.c_str(), port.c_str(), &hints, &found); status != 0) {
    return "host not found: " + host;
  }
  host_ = host;
  std::string error = "host not found: " + host;
  for (addrinfo* address = found; address != nullptr; address = address->ai_next) {
    close();
    const Native fd = ::socket(address->ai_family, address->ai_socktype, address->ai_protocol);
    if (fd == kInvalid) {
      error = error_text(last_error());
      continue;
    }
    fd_ = static_cast<long long>(fd);
    make_nonblocking(fd);
    if (::connect(fd, address->ai_addr, static_cast<socklen_t>(address->ai_addrlen)) == 0) {
      connected_ = true;
      error.clear();
      break;
    }
    if (!would_block(last_error())) {
      error = error_text(last_error());
      continue;
    }
    try {
      error = finish_connect(wait);
    } catch (...) {
      ::freeaddrinfo(found);
      close();
      throw;
    }
    if (error.empty() || error == "timeout") break;
  }
  ::freeaddrinfo(found);
  if (!error.empty()) close();
  return error;
}

std::string StreamSocket::connect_unix(const std::string& path, const Wait& wait) {
#if defined(_WIN32)
  (void)path;
  (void)wait;
  return "Unix domain sockets are not available on Windows";
#else
  if (connected_) return "already connected";
  sockaddr_un address{};
  if (path.size() >= sizeof address.sun_path) return "the socket path is too long: " + path;
  address.sun_family = AF_UNIX;
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  close();
  const Native fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd == kInvalid) return error_text(last_error());
  fd_ = fd;
  make_nonblocking(fd);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0) {
    connected_ = true;
    return "";
  }
  std::string error = would_block(last_error()) ? finish_connect(wait) : error_text(last_error());
  if (!error.empty()) close();
  return error;
#endif
}

std::string StreamSocket::wait_for_tls(int result, const Wait& wait) {
  switch (SSL_get_error(ssl_, result)) {
    case SSL_ERROR_WANT_READ:
      return wait_for(false, wait);
    case SSL_ERROR_WANT_WRITE:
      return wait_for(true, wait);
    case SSL_ERROR_ZERO_RETURN:
      return "closed";
    case SSL_ERROR_SYSCALL:
      // An end of file without close_notify, as many servers close: closed all the same.
      if (ERR_peek_error() == 0) return last_error() == 0 ? "closed" : error_text(last_error());
      [[fallthrough]];
    default: {
      const unsigned long error = ERR_get_error();
      char text[256];
      ERR_error_string_n(error, text, sizeof text);
      const char* reason = ERR_reason_error_string(error);
      return reason != nullptr ? reason : text;
    }
  }
}

std::string StreamSocket::start_tls(const TlsOptions& options, const Wait& wait) {
  if (!connected_) return "closed";
  if (ssl_ != nullptr) return "TLS is already on";
  ssl_context_ = SSL_CTX_new(TLS_client_method());
  if (ssl_context_ == nullptr) return "cannot make a TLS context";
  const int lowest = options.protocol == "tlsv1_3" ? TLS1_3_VERSION : TLS1_2_VERSION;
  if (options.protocol != "any" && options.protocol != "tlsv1_2" && options.protocol != "tlsv1_3") {
    return "unsupported protocol " + options.protocol + " (any, tlsv1_2, tlsv1_3)";
  }
  SSL_CTX_set_min_proto_version(ssl_context_, lowest);
  SSL_CTX_set_mode(ssl_context_, SSL_MODE_ENABLE_PARTIAL_WRITE |
                                     SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_AUTO_RETRY);
  if (options.verify) {
    SSL_CTX_set_verify(ssl_context_, SSL_VERIFY_PEER, nullptr);
    std::string file = options.ca_file;
    std::string directory = options.ca_directory;
    if (file.empty() && directory.empty()) {
      file = http::system_certificates().file;
      directory = http::system_certificates().directory;
    }
    if (file.empty() && directory.empty()) {
#if defined(_WIN32)
      if (add_windows_root_certificates(SSL_CTX_get_cert_store(ssl_context_)) == 0) {
        return "no trusted certificates: the Windows ROOT store holds none that OpenSSL reads "
               "(name some with cafile or capath)";
      }
#else
      return "no trusted certificates found on this system (set SSL_CERT_FILE, or name some "
             "with cafile or capath)";
#endif
    } else if (SSL_CTX_load_verify_locations(ssl_context_, file.empty() ? nullptr : file.c_str(),
                                             directory.empty() ? nullptr : directory.c_str()) !=
               1) {
      return "cannot read the trusted certificates " + (file.empty() ? directory : file);
    }
  }
  if (!options.certificate.empty() &&
      SSL_CTX_use_certificate_chain_file(ssl_context_, options.certificate.c_str()) != 1) {
    return "cannot read the certificate " + options.certificate;
  }
  if (!options.key.empty() &&
      SSL_CTX_use_PrivateKey_file(ssl_context_, options.key.c_str(), SSL_FILETYPE_PEM) != 1) {
    return "cannot read the key " + options.key;
  }
  ssl_ = SSL_new(ssl_context_);
  if (ssl_ == nullptr) return "cannot start TLS";
  SSL_set_fd(ssl_, static_cast<int>(fd_));
  const std::string name = options.server_name.empty() ? host_ : options.server_name;
  if (!name.empty()) {
    in6_addr ignored{};
    const bool address = ::inet_pton(AF_INET, name.c_str(), &ignored) == 1 ||
                         ::inet_pton(AF_INET6, name.c_str(), &ignored) == 1;
    // SNI names hosts, never addresses (RFC 6066).
    if (!address) SSL_set_tlsext_host_name(ssl_, name.c_str());
    if (options.verify) {
      X509_VERIFY_PARAM* param = SSL_get0_param(ssl_);
      if (address) {
        X509_VERIFY_PARAM_set1_ip_asc(param, name.c_str());
      } else {
        X509_VERIFY_PARAM_set1_host(param, name.c_str(), 0);
      }
    }
  }
  for (;;) {
    ERR_clear_error();
    const int result = SSL_connect(ssl_);
    if (result == 1) return "";
    const int kind = SSL_get_error(ssl_, result);
    if (kind == SSL_ERROR_WANT_READ || kind == SSL_ERROR_WANT_WRITE) {
      if (std::string waited = wait_for_tls(result, wait); !waited.empty()) return waited;
      continue;
    }
    const long verified = SSL_get_verify_result(ssl_);
    std::string error = wait_for_tls(result, wait);
    if (verified != X509_V_OK) {
      error = std::string("certificate verify failed: ") + X509_verify_cert_error_string(verified);
    }
    return error.empty() ? "the TLS handshake failed" : error;
  }
}

std::string StreamSocket::peer_certificate_pem() const {
  if (ssl_ == nullptr) return "";
  X509* certificate = SSL_get1_peer_certificate(ssl_);
  if (certificate == nullptr) return "";
  BIO* bio = BIO_new(BIO_s_mem());
  PEM_write_bio_X509(bio, certificate);
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  std::string pem(data, static_cast<size_t>(size));
  BIO_free(bio);
  X509_free(certificate);
  return pem;
}

Sent StreamSocket::send(const char* data, size_t size, const Wait& wait) {
  Sent sent;
  if (!connected_) {
    sent.error = "closed";
    return sent;
  }
  while (sent.count < size) {
    const int piece = static_cast<int>(std::min(kChunk, size - sent.count));
    if (ssl_ != nullptr) {
      ERR_clear_error();
      const int n = SSL_write(ssl_, data + sent.count, piece);
      if (n > 0) {
        sent.count += static_cast<size_t>(n);
        continue;
      }
      if (std::string waited = wait_for_tls(n, wait); !waited.empty()) {
        sent.error = waited;
        return sent;
      }
      continue;
    }
    const auto n = ::send(native(fd_), data + sent.count, piece, kSendFlags);
    if (n > 0) {
      sent.count += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && would_block(last_error())) {
      if (std::string waited = wait_for(true, wait); !waited.empty()) {
        sent.error = waited;
        return sent;
      }
      continue;
    }
    sent.error = n == 0 ? "closed" : error_text(last_error());
    if (sent.error == system_text(
#if defined(_WIN32)
                          WSAECONNRESET
#else
                          EPIPE
#endif
                          )) {
      sent.error = "closed";
    }
    return sent;
  }
  return sent;
}

std::string StreamSocket::fill(const Wait& wait) {
  if (!connected_) return "closed";
  char chunk[kChunk];
  for (;;) {
    if (ssl_ != nullptr) {
      ERR_clear_error();
      const int n = SSL_read(ssl_, chunk, static_cast<int>(sizeof chunk));
      if (n > 0) {
        buffer_.append(chunk, static_cast<size_t>(n));
        return "";
      }
      if (std::string waited = wait_for_tls(n, wait); !waited.empty()) return waited;
      continue;
    }
    const auto n = ::recv(native(fd_), chunk, static_cast<int>(sizeof chunk), 0);
    if (n > 0) {
      buffer_.append(chunk, static_cast<size_t>(n));
      return "";
    }
    if (n == 0) return "closed";
    const int error = last_error();
    if (!would_block(error)) return error_text(error);
    if (std::string waited = wait_for(false, wait); !waited.empty()) return waited;
  }
}

Received StreamSocket::receive_line(const Wait& wait, size_t max_bytes) {
  Received out;
  for (;;) {
    const size_t end = buffer_.find('\n');
    if (end != std::string::npos) {
      out.data.assign(buffer_, 0, end);
      buffer_.erase(0, end + 1);
      break;
    }
    if (buffer_.size() > max_bytes) {
      throw std::runtime_error("a line longer than the " + std::to_string(max_bytes) +
                               " bytes the script has left under its memory limit");
    }
    if (std::string error = fill(wait); !error.empty()) {
      out.data = std::move(buffer_);
      buffer_.clear();
      out.error = std::move(error);
      break;
    }
  }
  // LuaSocket's "*l" ignores every CR.
  out.data.erase(std::remove(out.data.begin(), out.data.end(), '\r'), out.data.end());
  return out;
}

Received StreamSocket::receive_bytes(size_t count, const Wait& wait) {
  Received out;
  while (buffer_.size() < count) {
    if (std::string error = fill(wait); !error.empty()) {
      out.data = std::move(buffer_);
      buffer_.clear();
      out.error = std::move(error);
      return out;
    }
  }
  out.data.assign(buffer_, 0, count);
  buffer_.erase(0, count);
  return out;
}

Received StreamSocket::receive_all(const Wait& wait, size_t max_bytes) {
  Received out;
  for (;;) {
    if (buffer_.size() > max_bytes) {
      throw std::runtime_error("receiving more than the " + std::to_string(max_bytes) +
                               " bytes the script has left under its memory limit");
    }
    std::string error = fill(wait);
    if (error.empty()) continue;
    out.data = std::move(buffer_);
    buffer_.clear();
    if (error != "closed") out.error = std::move(error);
    return out;
  }
}

std::string StreamSocket::shutdown(const std::string& how) {
  if (!connected_) return "closed";
#if defined(_WIN32)
  const int mode = how == "send" ? SD_SEND : how == "receive" ? SD_RECEIVE : SD_BOTH;
#else
  const int mode = how == "send" ? SHUT_WR : how == "receive" ? SHUT_RD : SHUT_RDWR;
#endif
  if (::shutdown(native(fd_), mode) != 0) return error_text(last_error());
  return "";
}

std::string StreamSocket::set_option(const std::string& name, bool value) {
  if (!is_open()) return "closed";
  int on = value ? 1 : 0;
  int level = SOL_SOCKET;
  int option = 0;
  if (name == "tcp-nodelay") {
    level = IPPROTO_TCP;
    option = TCP_NODELAY;
  } else if (name == "keepalive") {
    option = SO_KEEPALIVE;
  } else {
    return "unsupported option " + name;
  }
  if (::setsockopt(native(fd_), level, option, reinterpret_cast<const char*>(&on), sizeof on) !=
      0) {
    return error_text(last_error());
  }
  return "";
}

std::optional<StreamSocket::Endpoint> StreamSocket::peer_name() const {
  if (!connected_) return std::nullopt;
  sockaddr_storage address{};
  socklen_t size = sizeof address;
  if (::getpeername(native(fd_), reinterpret_cast<sockaddr*>(&address), &size) != 0) {
    return std::nullopt;
  }
  Endpoint out;
  char text[INET6_ADDRSTRLEN] = {};
  if (address.ss_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(&address);
    ::inet_ntop(AF_INET, &in->sin_addr, text, sizeof text);
    out = {text, ntohs(in->sin_port), "inet"};
  } else if (address.ss_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&address);
    ::inet_ntop(AF_INET6, &in6->sin6_addr, text, sizeof text);
    out = {text, ntohs(in6->sin6_port), "inet6"};
  } else {
    out.family = "unix";
  }
  return out;
}

}  // namespace luaform::lua::net
