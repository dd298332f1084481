-- Where evolve_note keeps a note (a file per note), and the functions every version of
-- resource_note.lua shares: the versions differ in what they declare (schema, upgrades,
-- identity), not in where a note lives.
local tf = require("luaform")

local M = {}

local function path(id)
  return "note-" .. id .. ".txt"
end

local function write(name, text)
  local file = assert(io.open(path(name), "w"))
  file:write(text)
  file:close()
end

-- create, read, update and delete of a note; `measure(d, text)` records its size the way the
-- version's schema has it.
function M.functions(measure)
  return {
    create = function(d)
      write(d:get("name"), d:get("text"))
      d:set_id(d:get("name"))
      measure(d, d:get("text"))
    end,
    read = function(d)
      local file = io.open(path(d:id()))
      if not file then
        d:set_id("")
        return
      end
      local text = file:read("a")
      file:close()
      d:set("text", text)
      measure(d, text)
    end,
    update = function(d)
      write(d:id(), d:get("text"))
      measure(d, d:get("text"))
    end,
    delete = function(d)
      os.remove(path(d:id()))
    end,
  }
end

-- Schema version 0 keeps the size as text.
function M.size_as_text(d, text)
  d:set("size", tostring(#text))
end

-- The note at schema version 0, without an update function (every change replaces it), with
-- the fields of `extra` added.
function M.version0(extra)
  local functions = M.functions(M.size_as_text)
  local definition = {
    schema = {
      name = tf.string { required = true, force_new = true },
      text = tf.string { required = true },
      size = tf.string { computed = true },
    },
    create = functions.create,
    read = functions.read,
    delete = functions.delete,
  }
  for key, value in pairs(extra or {}) do
    definition[key] = value
  end
  return definition
end

return M
