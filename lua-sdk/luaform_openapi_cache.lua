-- luaform_openapi_cache: what tf.openapi made of a description (the model: types, shapes,
-- operations, notes; luaform_openapi_model), kept between starts of the provider. A CLI command
-- starts a provider several times (schema, validate, plan, apply), and each start would read
-- and map the whole description again: GitHub's 13 MB take a third of a second. Internal to the
-- SDK.
--
-- An entry is a file of Lua table constructors (text, loaded with no environment but `null`),
-- named by the SHA-256 of what the model is made from: the SDK the host carries, the
-- description's bytes and the options the mapping reads. It also names the other files the
-- description's `$ref`s read, with their digests, checked before the entry is used. Where the
-- cache cannot be read or written, the model is made as if there were none.
--
-- The directory: LUAFORM_OPENAPI_CACHE (a path, or "off" for none), else
-- $XDG_CACHE_HOME/luaform/openapi, else ~/.cache/luaform/openapi (%LOCALAPPDATA% on
-- Windows). Entries not written for 30 days are removed when another is written.

local documents = require("luaform_documents")
local null = require("luaform_json").null

local M = {}

-- Raised when what the model is made of changes its shape, so older entries are not read.
local FORMAT = "luaform-openapi-model-1"
local MAX_AGE = 30 * 24 * 3600
local KEYWORDS = {}
for word in ("and break do else elseif end false for function goto if in local nil not or "
  .. "repeat return then true until while"):gmatch("%a+") do
  KEYWORDS[word] = true
end

local function directory()
  local given = os.getenv("LUAFORM_OPENAPI_CACHE")
  if given == "off" then
    return nil
  elseif given and given ~= "" then
    return given
  end
  local base = os.getenv("XDG_CACHE_HOME")
  if not base or base == "" then
    local home = os.getenv("HOME")
    base = home and home ~= "" and home .. "/.cache" or os.getenv("LOCALAPPDATA")
  end
  return base and base .. "/luaform/openapi" or nil
end

-- The options the model depends on, as text that orders the same way every time.
local function settings_text(value)
  if type(value) ~= "table" then
    return string.format("%q", value)
  end
  local keys = {}
  for k in pairs(value) do
    keys[#keys + 1] = k
  end
  table.sort(keys, function(a, b)
    return tostring(a) < tostring(b)
  end)
  local parts = {}
  for _, k in ipairs(keys) do
    parts[#parts + 1] = string.format("[%q]=%s", k, settings_text(value[k]))
  end
  return "{" .. table.concat(parts, ",") .. "}"
end

-- `value` as Lua source: each table once (a table two places hold is written once and named
-- twice), children before the tables that hold them. Nil and a reason for what text cannot
-- hold (a function, a table that holds itself).
local function serialized(value)
  local out, ids, open = { "local T = {}\n" }, {}, {}
  -- A model repeats a few hundred keys and words many thousand times: each is quoted once.
  local quoted = { [true] = "true", [false] = "false" }
  local literal
  -- Keys as names where Lua reads them so (kind=), else bracketed ([1.5]=, ["a-b"]=).
  local names = {}
  local function key(k)
    local text
    if type(k) == "string" and k:match("^[%a_][%w_]*$") and not KEYWORDS[k] then
      text = k
    else
      text = "[" .. (quoted[k] or literal(k)) .. "]"
    end
    names[k] = text
    return text
  end
  local function write_table(t)
    local parts = {}
    open[t] = true
    local n = #t
    for i = 1, n do
      parts[i] = quoted[t[i]] or literal(t[i])
    end
    for k, v in pairs(t) do
      if math.type(k) ~= "integer" or k < 1 or k > n then
        parts[#parts + 1] = (names[k] or key(k)) .. "=" .. (quoted[v] or literal(v))
      end
    end
    open[t] = nil
    out[#out + 1] = "={" .. table.concat(parts, ",") .. "}\n"
    local id = "T[" .. #out .. "]"
    out[#out] = id .. out[#out]
    ids[t] = id
    return id
  end
  literal = function(v)
    local kind = type(v)
    if kind == "table" then
      if ids[v] then
        return ids[v]
      elseif open[v] then
        error("a table that holds itself", 0)
      end
      return write_table(v)
    elseif v == null then
      return "null"
    elseif kind == "string" or kind == "number" then
      local text = string.format("%q", v)
      if v == v then  -- not NaN, which no table takes as a key
        quoted[v] = text
      end
      return text
    end
    error("a " .. kind, 0)
  end
  local ok, root = pcall(literal, value)
  if not ok then
    return nil, root
  end
  out[#out + 1] = "return " .. root .. "\n"
  return table.concat(out)
end

local function read(path)
  local file = io.open(path, "rb")
  if not file then
    return nil
  end
  local text = file:read("a")
  file:close()
  return text
end

-- Removes the entries of `dir` not written for MAX_AGE, but `keep`.
local function prune(fs, dir, keep)
  local ok, names = pcall(fs.list, dir)
  for _, name in ipairs(ok and names or {}) do
    local path = dir .. "/" .. name
    local seen, info = pcall(fs.stat, path)
    if name ~= keep and seen and info and info.type == "file"
      and os.time() - (info.modified or os.time()) > MAX_AGE then
      os.remove(path)
    end
  end
end

-- Writes `text` as `path`, whole or not at all: another start of the provider may read it at
-- the same moment.
local function write(dir, name, text)
  local fs = require("luaform_fs")
  if not pcall(fs.mkdir, dir, "0700") then
    return
  end
  -- A name no other start writes at the same time (math.random is seeded anew per start).
  local partial = string.format("%s/%s.%d.%d.part", dir, name, os.time(), math.random(1 << 40))
  local file = io.open(partial, "wb")
  if not file then
    return
  end
  local written = file:write(text)
  file:close()
  local entry = dir .. "/" .. name
  -- Windows' rename does not replace a file: an entry that could not be read goes first.
  local placed = written and (os.rename(partial, entry)
    or (os.remove(entry) and os.rename(partial, entry)))
  if not placed then
    os.remove(partial)
    return
  end
  prune(fs, dir, name)
end

-- Whether each file an entry says it was made from still has the digest it had.
local function files_unchanged(files)
  for name, digest in pairs(files) do
    local ok, now = pcall(documents.digest, name)
    if not ok or now ~= digest then
      return false
    end
  end
  return true
end

-- The model of description `file` under `settings` (plain data: numbers, strings, booleans
-- and tables of them): the cached one, else `derive()`'s, which is then kept. `derive` returns
-- the model and the names of the other files it read (those the description's `$ref`s name).
-- Errors of `derive` are raised as they are; none is kept.
function M.model(file, settings, derive)
  local dir = directory()
  local name
  if dir then
    local ok, digest = pcall(documents.digest, file)
    if ok then
      local sdk = documents.sdk_digest()
      name = sdk:sub(1, 16) .. "-" .. require("luaform_encoding").sha256(
        table.concat({ FORMAT, sdk, file, digest, settings_text(settings) }, "\n")):sub(1, 40)
        .. ".lua"
      local text = read(dir .. "/" .. name)
      local chunk = text and load(text, "=" .. name, "t", { null = null })
      local loaded, entry = false, nil
      if chunk then
        loaded, entry = pcall(chunk)
      end
      if loaded and type(entry) == "table" and entry.format == FORMAT
        and type(entry.files) == "table" and files_unchanged(entry.files) then
        return entry.model, true
      end
    end
  end
  local model, files = derive()
  if name then
    local digests = {}
    for _, read_file in ipairs(files) do
      local read_ok, digest = pcall(documents.digest, read_file)
      digests[read_file] = read_ok and digest or nil
      name = read_ok and name or nil  -- gone since: nothing to key an entry by
    end
    local text = name and serialized({ format = FORMAT, files = digests, model = model })
    if text then
      write(dir, name, text)
    end
  end
  return model, false
end

return M
