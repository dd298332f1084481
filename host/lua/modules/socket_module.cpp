#include "host/lua/modules/socket_module.h"

#include <algorithm>
#include <chrono>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>

#include "host/lua/core/duration_argument.h"
#include "host/lua/core/frozen_tables.h"
#include "host/lua/core/guarded.h"
#include "host/lua/core/option_fields.h"
#include "host/lua/core/sandbox.h"
#include "host/lua/modules/openssl_modules.h"
#include "host/lua/modules/stream_socket.h"
#include "host/lua/modules/time_module.h"

namespace luaform::lua {
namespace {

constexpr const char* kSocketMetatable = "luaform.socket.tcp";
constexpr const char* kTlsMetatable = "luaform.socket.ssl";
constexpr const char* kOpenCountKey = "luaform.socket.open";
// Sockets one Lua state may hold open at once: a client that forgets to close them in a loop
// meets this, not the process's file limit.
constexpr lua_Integer kMaxOpenSockets = 64;

struct SocketObject {
  net::StreamSocket socket;
  double timeout = -1;  // seconds; negative: wait as long as the operation may
  bool unix_domain = false;
  bool counted = false;
  net::TlsOptions tls;  // an ssl.wrap object's, until dohandshake
};

// The socket at index 1: a TCP (or Unix) one, or one ssl.wrap made.
SocketObject& check_socket(lua_State* L) {
  void* found = luaL_testudata(L, 1, kSocketMetatable);
  if (found == nullptr) found = luaL_testudata(L, 1, kTlsMetatable);
  if (found == nullptr) {
    throw std::runtime_error(std::string("bad argument #1 (socket expected, got ") +
                             luaL_typename(L, 1) + ")");
  }
  return *static_cast<SocketObject*>(found);
}

lua_Integer open_count(lua_State* L) {
  lua_getfield(L, LUA_REGISTRYINDEX, kOpenCountKey);
  const lua_Integer count = lua_tointeger(L, -1);
  lua_pop(L, 1);
  return count;
}

void add_open(lua_State* L, lua_Integer delta) {
  lua_pushinteger(L, open_count(L) + delta);
  lua_setfield(L, LUA_REGISTRYINDEX, kOpenCountKey);
}

void release(lua_State* L, SocketObject& object) {
  object.socket.close();
  if (object.counted) {
    object.counted = false;
    add_open(L, -1);
  }
}

net::Wait wait_of(lua_State* L, const SocketObject& object) {
  net::Wait wait;
  wait.reason = [L] { return limit_reached(L); };
  if (object.timeout >= 0) {
    wait.limit = net::Clock::now() + std::chrono::duration_cast<net::Clock::duration>(
                                         std::chrono::duration<double>(object.timeout));
  }
  return wait;
}

int fail(lua_State* L, const std::string& error) {
  lua_pushnil(L);
  lua_pushlstring(L, error.data(), error.size());
  return 2;
}

int new_socket(lua_State* L, bool unix_domain) {
  void* memory = lua_newuserdatauv(L, sizeof(SocketObject), 0);
  auto* object = new (memory) SocketObject();
  object->unix_domain = unix_domain;
  luaL_setmetatable(L, kSocketMetatable);
  return 1;
}

int tcp(lua_State* L) {
  return new_socket(L, false);
}
int unix_stream(lua_State* L) {
  return new_socket(L, true);
}

// Runs a socket call, turning the end of the operation into the script's error.
template <typename F>
auto waiting(F&& body) {
  try {
    return body();
  } catch (const net::WaitEnded& e) {
    throw std::runtime_error(e.what());
  }
}

int connect(lua_State* L) {
  SocketObject& object = check_socket(L);
  if (!object.counted && open_count(L) >= kMaxOpenSockets) {
    return fail(L, "too many open sockets: this script holds " + std::to_string(kMaxOpenSockets) +
                       " (close those it no longer uses)");
  }
  std::string error;
  if (object.unix_domain) {
    const std::string path = luaL_checkstring(L, 2);
    error = waiting([&] { return object.socket.connect_unix(path, wait_of(L, object)); });
  } else {
    const std::string host = luaL_checkstring(L, 2);
    lua_pushvalue(L, 3);
    const std::string port = luaL_checklstring(L, -1, nullptr);  // a number or a string
    lua_pop(L, 1);
    error = waiting([&] { return object.socket.connect_tcp(host, port, wait_of(L, object)); });
  }
  if (!error.empty()) return fail(L, error);
  if (!object.counted) {
    object.counted = true;
    add_open(L, 1);
  }
  lua_pushinteger(L, 1);
  return 1;
}

int settimeout(lua_State* L) {
  SocketObject& object = check_socket(L);
  object.timeout = lua_isnoneornil(L, 2) || (lua_isnumber(L, 2) && lua_tonumber(L, 2) < 0)
                       ? -1
                       : duration_seconds(L, 2, "settimeout: the timeout");
  lua_pushinteger(L, 1);
  return 1;
}

int send(lua_State* L) {
  SocketObject& object = check_socket(L);
  size_t size = 0;
  const char* data = luaL_checklstring(L, 2, &size);
  const auto length = static_cast<lua_Integer>(size);
  lua_Integer first = luaL_optinteger(L, 3, 1);
  lua_Integer last = luaL_optinteger(L, 4, -1);
  if (first < 0) first = std::max<lua_Integer>(length + first + 1, 1);
  if (first == 0) first = 1;
  if (last < 0) last = length + last + 1;
  last = std::min(last, length);
  const size_t count = last >= first ? static_cast<size_t>(last - first + 1) : 0;
  const net::Sent sent =
      waiting([&] { return object.socket.send(data + (first - 1), count, wait_of(L, object)); });
  const lua_Integer sent_to = first - 1 + static_cast<lua_Integer>(sent.count);
  if (!sent.error.empty()) {
    lua_pushnil(L);
    lua_pushlstring(L, sent.error.data(), sent.error.size());
    lua_pushinteger(L, sent_to);
    return 3;
  }
  lua_pushinteger(L, sent_to);
  return 1;
}

int receive(lua_State* L) {
  SocketObject& object = check_socket(L);
  size_t prefix_size = 0;
  const char* prefix = luaL_optlstring(L, 3, "", &prefix_size);
  // Held here, then as the script's string: twice what it takes of the memory limit.
  NativeMemory memory(L, "socket: receive");
  const size_t max_bytes = memory.left() / 2;
  net::Received got;
  if (lua_type(L, 2) == LUA_TNUMBER) {
    const lua_Integer count = luaL_checkinteger(L, 2);
    if (count < 0) throw std::runtime_error("socket: receive: a negative byte count");
    memory.add(static_cast<size_t>(count));
    got = waiting([&] {
      return object.socket.receive_bytes(static_cast<size_t>(count), wait_of(L, object));
    });
  } else {
    std::string pattern = luaL_optstring(L, 2, "*l");
    if (pattern.starts_with("*")) pattern.erase(0, 1);
    if (pattern == "l") {
      got = waiting([&] { return object.socket.receive_line(wait_of(L, object), max_bytes); });
    } else if (pattern == "a") {
      got = waiting([&] { return object.socket.receive_all(wait_of(L, object), max_bytes); });
    } else {
      throw std::runtime_error("socket: receive: invalid pattern \"" + pattern +
                               "\" (\"*l\", \"*a\" or a byte count)");
    }
  }
  std::string data(prefix, prefix_size);
  data += got.data;
  if (!got.error.empty()) {
    lua_pushnil(L);
    lua_pushlstring(L, got.error.data(), got.error.size());
    lua_pushlstring(L, data.data(), data.size());
    return 3;
  }
  lua_pushlstring(L, data.data(), data.size());
  return 1;
}

int close(lua_State* L) {
  release(L, check_socket(L));
  lua_pushinteger(L, 1);
  return 1;
}

int shutdown(lua_State* L) {
  SocketObject& object = check_socket(L);
  const std::string error = object.socket.shutdown(luaL_optstring(L, 2, "both"));
  if (!error.empty()) return fail(L, error);
  lua_pushinteger(L, 1);
  return 1;
}

int setoption(lua_State* L) {
  SocketObject& object = check_socket(L);
  const std::string name = luaL_checkstring(L, 2);
  const std::string error = object.socket.set_option(name, lua_toboolean(L, 3) != 0);
  // Options set before connect apply to a socket not made yet: LuaSocket's own would have
  // one; they are accepted and ignored here, as redis-lua sets tcp-nodelay after connect.
  if (!error.empty() && error != "closed") return fail(L, error);
  lua_pushinteger(L, 1);
  return 1;
}

int getpeername(lua_State* L) {
  const auto peer = check_socket(L).socket.peer_name();
  if (!peer) return fail(L, "not connected");
  lua_pushstring(L, peer->address.c_str());
  lua_pushinteger(L, peer->port);
  lua_pushstring(L, peer->family.c_str());
  return 3;
}

int collect(lua_State* L) {
  SocketObject* object = &check_socket(L);
  release(L, *object);
  object->~SocketObject();
  return 0;
}

int to_string(lua_State* L) {
  const SocketObject& object = check_socket(L);
  lua_pushfstring(L, "%s{%s}: %p",
                  object.socket.is_tls() ? "SSL connection"
                  : object.unix_domain   ? "unix"
                                         : "tcp",
                  object.socket.is_connected() ? "client" : "master", lua_topointer(L, 1));
  return 1;
}

int gettime(lua_State* L) {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  lua_pushnumber(L, std::chrono::duration<double>(now).count());
  return 1;
}

int sleep(lua_State* L) {
  sleep_within_limits(L, duration_seconds(L, 1, "socket.sleep: the duration"));
  return 0;
}

// The methods both kinds of socket have, then `extra`, in the metatable named `name`.
void push_metatable(lua_State* L, const char* name, const luaL_Reg* extra) {
  if (luaL_newmetatable(L, name) == 0) return;
  const luaL_Reg methods[] = {
      {"settimeout", guarded<settimeout>},   {"send", guarded<send>},
      {"receive", guarded<receive>},         {"close", guarded<close>},
      {"shutdown", guarded<shutdown>},       {"setoption", guarded<setoption>},
      {"getpeername", guarded<getpeername>}, {nullptr, nullptr}};
  lua_newtable(L);
  luaL_setfuncs(L, methods, 0);
  luaL_setfuncs(L, extra, 0);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, guarded<collect>);
  lua_setfield(L, -2, "__gc");
  lua_pushcfunction(L, guarded<close>);
  lua_setfield(L, -2, "__close");
  lua_pushcfunction(L, guarded<to_string>);
  lua_setfield(L, -2, "__tostring");
  seal_metatable(L, -1, name);
}

void push_metatable(lua_State* L) {
  const luaL_Reg extra[] = {{"connect", guarded<connect>}, {nullptr, nullptr}};
  push_metatable(L, kSocketMetatable, extra);
}

// ---- ssl (LuaSec's client half) ----

// verify = "none" | "peer" | { "peer", ... }: off only when "none" is asked for.
bool verify_of(lua_State* L, int table) {
  lua_getfield(L, table, "verify");
  bool verify = true;
  if (lua_type(L, -1) == LUA_TSTRING) {
    verify = std::string(lua_tostring(L, -1)) != "none";
  } else if (lua_istable(L, -1)) {
    for (lua_Integer i = 1; i <= static_cast<lua_Integer>(lua_rawlen(L, -1)); ++i) {
      lua_rawgeti(L, -1, i);
      if (lua_type(L, -1) == LUA_TSTRING && std::string(lua_tostring(L, -1)) == "none") {
        verify = false;
      }
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  return verify;
}

int dohandshake(lua_State* L) {
  SocketObject& object = check_socket(L);
  const std::string error =
      waiting([&] { return object.socket.start_tls(object.tls, wait_of(L, object)); });
  if (!error.empty()) return fail(L, error);
  lua_pushboolean(L, 1);
  return 1;
}

// LuaSec's getpeercertificate: the server's certificate (pem, getsignaturename, digest), as
// pgmoon's SCRAM-SHA-256-PLUS channel binding reads it; nil before the handshake.
int getpeercertificate(lua_State* L) {
  const std::string pem = check_socket(L).socket.peer_certificate_pem();
  if (pem.empty()) return fail(L, "no certificate: the handshake has not happened");
  push_certificate(L, pem);
  return 1;
}

int sni(lua_State* L) {
  check_socket(L).tls.server_name = luaL_checkstring(L, 2);
  return 0;
}

int wrap(lua_State* L) {
  auto* tcp_socket = static_cast<SocketObject*>(luaL_checkudata(L, 1, kSocketMetatable));
  net::TlsOptions options;
  if (!lua_isnoneornil(L, 2)) {
    luaL_checktype(L, 2, LUA_TTABLE);
    const std::string mode = string_field(L, 2, "mode", "ssl.wrap").value_or("");
    if (!mode.empty() && mode != "client") {
      throw std::runtime_error("ssl.wrap: mode \"" + mode + "\": only clients are served here");
    }
    options.verify = verify_of(L, 2);
    options.ca_file = string_field(L, 2, "cafile", "ssl.wrap").value_or("");
    options.ca_directory = string_field(L, 2, "capath", "ssl.wrap").value_or("");
    options.certificate = string_field(L, 2, "certificate", "ssl.wrap").value_or("");
    options.key = string_field(L, 2, "key", "ssl.wrap").value_or("");
    const std::string protocol = string_field(L, 2, "protocol", "ssl.wrap").value_or("");
    if (!protocol.empty()) options.protocol = protocol;
    options.server_name = string_field(L, 2, "servername", "ssl.wrap").value_or("");
  }
  if (!tcp_socket->socket.is_connected()) return fail(L, "closed");
  auto* object = new (lua_newuserdatauv(L, sizeof(SocketObject), 0)) SocketObject();
  const luaL_Reg extra[] = {{"dohandshake", guarded<dohandshake>},
                            {"sni", guarded<sni>},
                            {"getpeercertificate", guarded<getpeercertificate>},
                            {nullptr, nullptr}};
  push_metatable(L, kTlsMetatable, extra);
  lua_setmetatable(L, -2);
  object->socket.take(tcp_socket->socket);
  object->timeout = tcp_socket->timeout;
  object->counted = tcp_socket->counted;
  tcp_socket->counted = false;
  object->tls = std::move(options);
  return 1;
}

// socket.connect(host, port): a new TCP socket, connected.
int connect_new(lua_State* L) {
  const int host = 1;
  const int port = 2;
  tcp(L);
  const int made = lua_gettop(L);
  lua_getfield(L, made, "connect");
  lua_pushvalue(L, made);
  lua_pushvalue(L, host);
  lua_pushvalue(L, port);
  lua_call(L, 3, 2);
  if (lua_isnil(L, -2)) return 2;  // nil, error
  lua_pop(L, 2);
  return 1;
}

}  // namespace

int open_socket_module(lua_State* L) {
  push_metatable(L);
  lua_pop(L, 1);
  const luaL_Reg functions[] = {{"tcp", guarded<tcp>},
                                {"tcp4", guarded<tcp>},
                                {"tcp6", guarded<tcp>},
                                {"connect", guarded<connect_new>},
                                {"gettime", guarded<gettime>},
                                {"sleep", guarded<sleep>},
                                {nullptr, nullptr}};
  luaL_newlib(L, functions);
  lua_pushstring(L, "LuaSocket 3.0.0 (luaform)");
  lua_setfield(L, -2, "_VERSION");
  return 1;
}

int open_ssl_module(lua_State* L) {
  const luaL_Reg functions[] = {{"wrap", guarded<wrap>}, {nullptr, nullptr}};
  luaL_newlib(L, functions);
  lua_pushstring(L, "1.3.2 (luaform)");
  lua_setfield(L, -2, "_VERSION");
  return 1;
}

int open_socket_unix_module(lua_State* L) {
  push_metatable(L);
  lua_pop(L, 1);
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, guarded<unix_stream>);
  lua_setfield(L, -2, "stream");
  // LuaSocket's socket.unix is also called to make a stream socket: socket.unix().
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, guarded<unix_stream>);
  lua_setfield(L, -2, "__call");
  lua_setmetatable(L, -2);
  return 1;
}

}  // namespace luaform::lua
