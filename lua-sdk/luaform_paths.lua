-- URL path segments, as `tf.http.escape`, `tf.http.unescape` and `tf.http.path`: APIs put names
-- such as "a b" or "team/web" into their paths, where they must travel as one segment.
--
--   tf.http.escape("team/web 1")          "team%2Fweb%201" (Go's url.PathEscape)
--   tf.http.unescape("team%2Fweb%201")    "team/web 1"; an error on a malformed escape
--   tf.http.path("servers", name, "disks")  "/servers/" .. escape(name) .. "/disks"
--
-- And, inside the SDK, resolve(link, base_url): a link an answer or a description gives, made
-- a whole URL; origin(url): its scheme and host.

local M = {}

local CALLER = 2

-- Kept as they are in a segment: RFC 3986's unreserved characters and the sub-delimiters Go's
-- url.PathEscape keeps; everything else, "/" and "?" first, is percent-encoded.
local KEPT = "[^%w%-%._~%$&%+,:;=@]"

function M.escape(segment)
  if type(segment) == "number" then
    segment = tostring(segment)
  end
  if type(segment) ~= "string" then
    error("tf.http.escape expects a string, got " .. type(segment), CALLER)
  end
  return (segment:gsub(KEPT, function(c)
    return string.format("%%%02X", c:byte())
  end))
end

function M.unescape(text)
  if type(text) ~= "string" then
    error("tf.http.unescape expects a string, got " .. type(text), CALLER)
  end
  local bad = text:find("%%%x?[^%x]") or text:find("%%%x?$")
  if bad then
    error(string.format("tf.http.unescape: malformed escape at position %d of %q", bad, text),
      CALLER)
  end
  return (text:gsub("%%(%x%x)", function(hex)
    return string.char(tonumber(hex, 16))
  end))
end

function M.path(...)
  local count = select("#", ...)
  if count == 0 then
    error("tf.http.path expects at least one segment", CALLER)
  end
  local parts = {}
  for i = 1, count do
    local segment = select(i, ...)
    if type(segment) ~= "string" and type(segment) ~= "number" then
      error(string.format("tf.http.path: segment %d is %s, not a string or number", i,
        type(segment)), CALLER)
    end
    parts[i] = M.escape(segment)
  end
  return "/" .. table.concat(parts, "/")
end

-- "https://h:8080" of "https://h:8080/api/x?y", or nil for a URL without a scheme and host.
function M.origin(url)
  return url:match("^(%a[%w+.-]*://[^/?#]+)")
end

-- `link` (a whole URL, a path from the root, or a relative path) read against `base_url` as a
-- browser reads a link (RFC 3986): "/tasks/7" is at the root of base_url's host, whatever its
-- path ("http://h/api" gives "http://h/tasks/7"); "tasks/7" is below base_url.
function M.resolve(link, base_url)
  if link:match("^%a[%w+.-]*://") then
    return link
  end
  local origin = M.origin(base_url)
  if link:sub(1, 1) == "/" and origin then
    return origin .. link
  end
  return (base_url:gsub("/*$", "")) .. "/" .. link
end

return M
