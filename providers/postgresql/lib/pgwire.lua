-- A small PostgreSQL client on the host's sockets: protocol 3.0's startup, authentication by
-- SCRAM-SHA-256 (or md5, or a clear password), TLS through ssl.wrap when asked for, and the
-- simple query protocol with every value as text. Written for this provider; pgmoon is the
-- full-featured client of the same kind.
local socket = require("socket")
local ssl = require("ssl")
local digest = require("openssl.digest")
local hmac = require("openssl.hmac")
local kdf = require("openssl.kdf")
local rand = require("openssl.rand")
local mime = require("mime")

local M = {}

local SSL_REQUEST = 80877103
local PROTOCOL_3 = 196608

-- ---- framing ----

local function message(kind, body)
  return kind .. string.pack(">i4", #body + 4) .. body
end

local Connection = {}
Connection.__index = Connection

function Connection:send(data)
  local _, err = self.sock:send(data)
  if err then
    error("postgresql: sending to " .. self.where .. " failed: " .. err, 0)
  end
end

---@param count number|string
---@return string
function Connection:receive(count)
  local data, err = self.sock:receive(count)
  if not data then
    error("postgresql: reading from " .. self.where .. " failed: " .. err, 0)
  end
  return data
end

-- The next message from the server: its type byte and body.
---@return string kind, string body
function Connection:read_message()
  local header = self:receive(5)
  local kind, length = header:sub(1, 1), string.unpack(">i4", header, 2)
  local body = length > 4 and self:receive(length - 4) or ""
  return kind, body
end

-- An ErrorResponse's or NoticeResponse's fields: { M = message, C = code, D = detail, ... }.
local function fields_of(body)
  local out, position = {}, 1
  while position <= #body and body:sub(position, position) ~= "\0" do
    local code = body:sub(position, position)
    local value, next_position = string.unpack("z", body, position + 1)
    out[code] = value
    position = next_position
  end
  return out
end

local function server_error(body)
  local f = fields_of(body)
  local text = f.M or "unknown error"
  if f.D then
    text = text .. " (" .. f.D .. ")"
  end
  return "postgresql: " .. text .. (f.C and (" [" .. f.C .. "]") or "")
end

-- ---- authentication ----

local function xor(a, b)
  local out = {}
  for i = 1, #a do
    out[i] = string.char(a:byte(i) ~ b:byte(i))
  end
  return table.concat(out)
end

local function md5_hex(data)
  return (digest.new("md5"):final(data):gsub(".", function(c)
    return ("%02x"):format(c:byte())
  end))
end

local function sha256(data)
  return digest.new("sha256"):final(data)
end

local function hmac_sha256(key, data)
  return hmac.new(key, "sha256"):final(data)
end

-- RFC 5802 with SHA-256 (RFC 7677), as PostgreSQL runs it: the user name comes from the
-- startup message, so the client's is empty.
function Connection:scram(password)
  local nonce = mime.b64(rand.bytes(18))
  local first_bare = "n=,r=" .. nonce
  self:send(message("p", string.pack(">z>i4", "SCRAM-SHA-256", #first_bare + 3) ..
    "n,," .. first_bare))
  local kind, body = self:read_message()
  if kind == "E" then
    error(server_error(body), 0)
  end
  local code = string.unpack(">i4", body)
  if code ~= 11 then
    error("postgresql: unexpected SASL step " .. code, 0)
  end
  local server_first = body:sub(5)
  local server_nonce = server_first:match("r=([^,]+)")
  local salt = server_first:match("s=([^,]+)")
  local iterations = math.tointeger(tonumber(server_first:match("i=(%d+)")))
  if not (server_nonce and salt and iterations) or server_nonce:sub(1, #nonce) ~= nonce then
    error("postgresql: the server's SCRAM answer is not well formed", 0)
  end
  local salted = kdf.derive { type = "PBKDF2", md = "sha256", pass = password,
    salt = mime.unb64(salt), iter = iterations, outlen = 32 }
  local client_key = hmac_sha256(salted, "Client Key")
  local without_proof = "c=biws,r=" .. server_nonce
  local auth_message = first_bare .. "," .. server_first .. "," .. without_proof
  local proof = xor(client_key, hmac_sha256(sha256(client_key), auth_message))
  self:send(message("p", without_proof .. ",p=" .. mime.b64(proof)))
  kind, body = self:read_message()
  if kind == "E" then
    error(server_error(body), 0)
  end
  local server_key = hmac_sha256(salted, "Server Key")
  local expected = "v=" .. mime.b64(hmac_sha256(server_key, auth_message))
  if string.unpack(">i4", body) ~= 12 or body:sub(5) ~= expected then
    error("postgresql: the server did not prove it knows the password", 0)
  end
end

function Connection:authenticate(user, password)
  while true do
    local kind, body = self:read_message()
    if kind == "E" then
      error(server_error(body), 0)
    elseif kind == "R" then
      local code = string.unpack(">i4", body)
      if code == 0 then
        return
      elseif code == 3 then
        self:send(message("p", string.pack("z", password or "")))
      elseif code == 5 then
        local salt = body:sub(5, 8)
        local inner = md5_hex((password or "") .. user)
        self:send(message("p", string.pack("z", "md5" .. md5_hex(inner .. salt))))
      elseif code == 10 then
        if not body:find("SCRAM-SHA-256\0", 5, true) then
          error("postgresql: the server offers no SASL mechanism this client knows", 0)
        end
        self:scram(password or "")
      elseif code ~= 12 then
        error("postgresql: authentication method " .. code .. " is not supported", 0)
      end
    end
  end
end

-- ---- connecting ----

-- options: host, port, user, password, database, sslmode ("disable", "require",
-- "verify-full"), sslrootcert (a CA file), timeout (seconds).
function M.connect(options)
  local where = options.host .. ":" .. options.port
  local sock = socket.tcp()
  sock:settimeout(options.timeout or 30)
  local ok, err = sock:connect(options.host, options.port)
  if not ok then
    error("postgresql: cannot connect to " .. where .. ": " .. err, 0)
  end
  local connection = setmetatable({ sock = sock, where = where }, Connection)
  local mode = options.sslmode or "disable"
  if mode ~= "disable" then
    connection:send(string.pack(">i4>i4", 8, SSL_REQUEST))
    if connection:receive(1) ~= "S" then
      sock:close()
      error("postgresql: " .. where .. " does not accept TLS (sslmode = " .. mode .. ")", 0)
    end
    local secured, wrap_error = ssl.wrap(sock, {
      mode = "client",
      verify = mode == "verify-full" and "peer" or "none",
      cafile = options.sslrootcert,
    })
    if not secured then
      error("postgresql: TLS with " .. where .. ": " .. wrap_error, 0)
    end
    local shaken, handshake_error = secured:dohandshake()
    if not shaken then
      secured:close()
      error("postgresql: TLS with " .. where .. ": " .. handshake_error, 0)
    end
    connection.sock = secured
  end
  local parameters = string.pack(">i4", PROTOCOL_3) ..
    string.pack("zz", "user", options.user) ..
    string.pack("zz", "database", options.database or options.user) ..
    string.pack("zz", "application_name", "luaform") .. "\0"
  connection:send(string.pack(">i4", #parameters + 4) .. parameters)
  local authenticated, auth_error = pcall(connection.authenticate, connection, options.user,
    options.password)
  if not authenticated then
    connection.sock:close()
    error(auth_error, 0)
  end
  connection:wait_ready()
  return connection
end

function Connection:wait_ready()
  while true do
    local kind, body = self:read_message()
    if kind == "Z" then
      return
    elseif kind == "E" then
      error(server_error(body), 0)
    end
  end
end

-- Runs `sql` (one or more statements) and returns the rows of the last statement that gave
-- any: an array of tables of column name to text (nil for NULL).
function Connection:query(sql)
  self:send(message("Q", string.pack("z", sql)))
  local rows, columns, failure = {}, nil, nil
  while true do
    local kind, body = self:read_message()
    if kind == "T" then
      columns, rows = {}, {}
      local count, position = string.unpack(">i2", body)
      for i = 1, count do
        columns[i], position = string.unpack("z", body, position)
        position = position + 18
      end
    elseif kind == "D" then
      local count, position = string.unpack(">i2", body)
      local row = {}
      for i = 1, count do
        local length
        length, position = string.unpack(">i4", body, position)
        if length >= 0 then
          row[columns[i]] = body:sub(position, position + length - 1)
          position = position + length
        end
      end
      rows[#rows + 1] = row
    elseif kind == "E" then
      failure = server_error(body)
    elseif kind == "Z" then
      if failure then
        error(failure, 0)
      end
      return rows
    end
  end
end

function Connection:close()
  pcall(self.send, self, message("X", ""))
  self.sock:close()
end

-- ---- quoting ----

function M.literal(text)
  return "'" .. tostring(text):gsub("'", "''") .. "'"
end

function M.identifier(name)
  return '"' .. tostring(name):gsub('"', '""') .. '"'
end

return M
