// The modules `require("socket")` and `require("socket.unix")` return: LuaSocket's client API
// over the host's sockets (stream_socket.h), so that pure-Lua clients written for LuaSocket
// (redis-lua, pgmoon) load unmodified from a provider directory.
//
//   socket.tcp() / tcp4() / tcp6()   an unconnected TCP socket
//   socket.connect(host, port)       a connected one, or nil and the error
//   socket.gettime(), socket.sleep(seconds), socket._VERSION
//   sock:connect(host, port) | sock:connect(path) (socket.unix)   1, or nil and the error
//   sock:settimeout(seconds)         each later call waits at most that long ("timeout")
//   sock:send(data [, i [, j]])      the index of the last byte sent, or nil, error, that index
//   sock:receive([pattern [, prefix]])  "*l" (the default), "*a" or a byte count: the data, or
//                                    nil, "timeout" | "closed" | error, and what came before it
//   sock:close(), sock:shutdown([how]), sock:setoption(name, value), sock:getpeername()
//
// Blocking calls answer StopProvider and the operation's deadline, which end the script with
// their own error; a state holds at most 64 open sockets; what a receive returns counts
// against the memory limit.
#pragma once

#include <lua.hpp>

namespace luaform::lua {

// Installed in package.preload as C functions, so the sandbox's no-C-loaders rule holds.
int open_socket_module(lua_State* L);
int open_socket_unix_module(lua_State* L);
// `require("ssl")`: LuaSec's client half. ssl.wrap(sock, { verify = "peer" | "none", cafile,
// capath, certificate, key, protocol, servername }) spends `sock` and returns a socket whose
// dohandshake() starts TLS (true, or nil and the error) and whose sni(name) names the server.
// Unlike LuaSec, the peer's certificate is checked unless verify = "none", against the system's
// authorities unless cafile or capath name others, and against the name connected to.
int open_ssl_module(lua_State* L);

}  // namespace luaform::lua
