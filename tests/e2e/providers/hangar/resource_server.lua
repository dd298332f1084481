-- resource "hangar_server": a record file standing in for an API that opens port 22 on a
-- server whose configuration asks for no ports (the `port` blocks are computed: Terraform
-- 1.16's protocol 6.11), and names each server's host with a suffix chosen at plan time (kept
-- in private data, which Terraform 1.16 hands back to the plan it makes again at apply).
-- A server whose `after` file does not exist yet waits for a later run (d:defer), and so does
-- the read of one its record marks pending.
local tf = require("luaform")
local json = require("luaform_json")

local function record_path(id)
  return "server-" .. id .. ".json"
end

local function save(id, record)
  local file = assert(io.open(record_path(id), "w"))
  file:write(json.encode(record))
  file:close()
end

local function ports_of(d)
  local ports = {}
  for _, port in ipairs(d:get("port") or {}) do
    ports[#ports + 1] = { number = port.number, protocol = port.protocol or "tcp" }
  end
  if #ports == 0 then
    ports[1] = { number = 22, protocol = "tcp" }  -- what the API opens when asked for none
  end
  return ports
end

local function record_of(d)
  local host = d:get("host")
  if host == nil or host == "" then
    -- Not chosen at plan (a CLI that keeps no planned private data): chosen now.
    host = d:get("name") .. "-" .. string.format("%06x", math.random(0, 0xffffff))
  end
  return { name = d:get("name"), host = host, ports = ports_of(d) }
end

local function read(d)
  local file = io.open(record_path(d:id()))
  if not file then
    d:set_id("")
    return
  end
  local record = json.decode(file:read("a"))
  file:close()
  if record.pending then
    d:defer()
    return
  end
  d:set("name", record.name)
  d:set("host", record.host)
  local ports = {}
  for i, port in ipairs(record.ports) do
    ports[i] = { number = port.number, protocol = port.protocol, state = "open" }
  end
  d:set("port", ports)
end

return tf.resource {
  schema = {
    name = tf.string { required = true },
    after = tf.string { optional = true, description = "a file that must exist first" },
    host = tf.string { computed = true, description = "name-SUFFIX, the suffix chosen at plan" },
    port = tf.list_block {
      computed = true,
      schema = {
        number = tf.number { optional = true },
        protocol = tf.string { optional = true, computed = true },
        state = tf.string { computed = true },
      },
    },
  },

  -- A suffix is chosen once per object, when its create is planned; the plan made again at
  -- apply finds it in the private data of the first plan. A CLI that does not hand that back
  -- would see another suffix there: the host stays "known after apply".
  customize_diff = function(d)
    local after = d:get("after")
    if after ~= nil and after ~= "" then
      local prerequisite = io.open(after)
      if not prerequisite then
        d:defer("absent_prereq")
        return
      end
      prerequisite:close()
    end
    if not d:is_new_resource() or not d:keeps_planned_private() then
      return
    end
    local suffix = d:private("suffix")
    if suffix == nil then
      suffix = string.format("%06x", math.random(0, 0xffffff))
      d:set_private("suffix", suffix)
    end
    d:set_new("host", d:get("name") .. "-" .. suffix)
  end,

  create = function(d)
    d:set_id(d:get("name"))
    save(d:id(), record_of(d))
    read(d)
  end,
  read = read,
  update = function(d)
    save(d:id(), record_of(d))
    read(d)
  end,
  delete = function(d)
    os.remove(record_path(d:id()))
  end,
}
