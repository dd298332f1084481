// A peer on loopback for tests of the code that connects out (sockets, HTTP): a listening
// socket whose first connection a function of the test handles on a thread of its own.
#pragma once

#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <functional>
#include <string>
#include <thread>

namespace luaform::lua::testing {

// Listens on 127.0.0.1 (a free port) or at a Unix path; `serve` gets the first connection.
class Peer {
 public:
  explicit Peer(std::function<void(int)> serve, const std::string& unix_path = "") {
    if (unix_path.empty()) {
      listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
      sockaddr_in address{};
      address.sin_family = AF_INET;
      address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      REQUIRE(::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
      socklen_t size = sizeof address;
      ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &size);
      port_ = ntohs(address.sin_port);
    } else {
      listener_ = ::socket(AF_UNIX, SOCK_STREAM, 0);
      sockaddr_un address{};
      address.sun_family = AF_UNIX;
      unix_path.copy(address.sun_path, sizeof address.sun_path - 1);
      ::unlink(unix_path.c_str());
      REQUIRE(::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    }
    REQUIRE(::listen(listener_, 80) == 0);
    thread_ = std::thread([this, serve = std::move(serve)] {
      const int connection = ::accept(listener_, nullptr, nullptr);
      if (connection >= 0) {
        serve(connection);
        ::close(connection);
      }
    });
  }
  ~Peer() {
    ::shutdown(listener_, SHUT_RDWR);
    ::close(listener_);
    thread_.join();
  }
  int port() const { return port_; }

 private:
  int listener_ = -1;
  int port_ = 0;
  std::thread thread_;
};

inline void write_all(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

inline std::string read_line(int fd) {
  std::string line;
  char c = 0;
  while (::read(fd, &c, 1) == 1 && c != '\n') line += c;
  return line;
}

}  // namespace luaform::lua::testing
