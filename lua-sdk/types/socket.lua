---@meta
-- luacheck: no unused, max comment line length 600
-- Type definitions of `require("socket")`, built into the host: LuaSocket's client API, so that
-- pure-Lua clients written for LuaSocket load unmodified. Blocking calls answer StopProvider and
-- the operation's deadline; a state holds at most 64 open sockets.

---@class luasocket.tcp
local tcp = {}

--- Connects to `host`:`port` (a Unix socket's path for `socket.unix`): 1, or nil and the error ("connection refused", "timeout", "host not found: ...").
---@param host string
---@param port? integer|string
---@return integer?, string?
function tcp:connect(host, port) end

--- Each later call waits at most this long and then gives "timeout"; nil or a negative number: as long as the operation may.
---@param seconds? number|string
---@param mode? string
---@return integer
function tcp:settimeout(seconds, mode) end

--- Sends `data` (bytes i to j): the index of the last byte sent, or nil, the error and that index.
---@param data string
---@param i? integer
---@param j? integer
---@return integer?, string?, integer?
function tcp:send(data, i, j) end

--- "*l" (a line without its end, the default), "*a" (until the peer closes) or a byte count: the data, or nil, the error ("timeout", "closed") and what came before it.
---@param pattern? "*l"|"*a"|"l"|"a"|integer
---@param prefix? string
---@return string?, string?, string?
function tcp:receive(pattern, prefix) end

---@return integer
function tcp:close() end

---@param how? "send"|"receive"|"both"
---@return integer?, string?
function tcp:shutdown(how) end

---@param name "tcp-nodelay"|"keepalive"
---@param value boolean
---@return integer?, string?
function tcp:setoption(name, value) end

--- The peer's address, port and family ("inet", "inet6"), or nil and "not connected".
---@return string?, integer|string, string?
function tcp:getpeername() end

---@class luasocket
---@field _VERSION string
local socket = {}

---@return luasocket.tcp
function socket.tcp() end

---@return luasocket.tcp
function socket.tcp4() end

---@return luasocket.tcp
function socket.tcp6() end

--- A TCP socket connected to `host`:`port`, or nil and the error.
---@param host string
---@param port integer|string
---@return luasocket.tcp?, string?
function socket.connect(host, port) end

--- Seconds since 1970, with fractions.
---@return number
function socket.gettime() end

--- Waits (StopProvider and the deadline end the wait with their error).
---@param seconds number|string
function socket.sleep(seconds) end

return socket
