-- resource "powerdns_record": an RRset, every record of one name and type in a zone. The
-- description has no path of its own for it: the zone's PATCH changes RRsets (changetype
-- REPLACE or DELETE) and the zone's GET answers with them. So this type is written by hand,
-- beside the mapped ones, calling those two operations by their operationId; `api:call` checks
-- the parameters and the body against the description before it sends them.
local tf = require("luaform")

local function zone_of(d)
  return { server_id = d:get("server_id"), zone_id = d:get("zone") }
end

local function patch(d, api, changetype)
  local rrset = { name = d:get("name"), type = d:get("type"), changetype = changetype }
  if changetype == "REPLACE" then
    rrset.ttl = d:get("ttl")
    rrset.records = {}
    for _, content in ipairs(d:get("records")) do
      rrset.records[#rrset.records + 1] = { content = content, disabled = false }
    end
  end
  api:call("patchZone", zone_of(d), { rrsets = { rrset } })
end

local function read(d, api)
  local wanted = zone_of(d)
  wanted.rrset_name, wanted.rrset_type = d:get("name"), d:get("type")
  local zone, response = api:call("listZone", wanted, nil, { allow = { 404, 422 } })
  if response.status ~= 200 then
    d:set_id("")  -- the zone is gone, and the records with it
    return
  end
  for _, rrset in ipairs(zone.rrsets or {}) do
    if rrset.name == d:get("name") and rrset.type == d:get("type") then
      local contents = {}
      for _, record in ipairs(rrset.records) do
        contents[#contents + 1] = record.content
      end
      d:set("ttl", rrset.ttl)
      d:set("records", contents)
      return
    end
  end
  d:set_id("")
end

return tf.resource {
  description = "The records of one name and type in a zone (an RRset)",
  schema = {
    server_id = tf.string { required = true, force_new = true },
    zone = tf.string {
      required = true, force_new = true, description = "The zone's id (powerdns_zone's id)",
    },
    name = tf.string {
      required = true, force_new = true,
      description = "The records' name, fully qualified with its trailing dot",
    },
    type = tf.string { required = true, force_new = true, description = "A, AAAA, MX, TXT..." },
    ttl = tf.number { required = true, validate = tf.v.at_least(1) },
    records = tf.set(tf.string) {
      required = true, description = "Each record's content, as PowerDNS spells it",
    },
  },
  create = function(d, api)
    patch(d, api, "REPLACE")
    d:set_id(table.concat({ d:get("server_id"), d:get("zone"), d:get("name"), d:get("type") },
      "/"))
    read(d, api)
  end,
  read = read,
  update = function(d, api)
    patch(d, api, "REPLACE")
    read(d, api)
  end,
  delete = function(d, api)
    patch(d, api, "DELETE")
  end,
  import = function(d)
    local server, zone, name, kind = d:id():match("^([^/]+)/([^/]+)/([^/]+)/([^/]+)$")
    if not server then
      error("expected an import id SERVER/ZONE/NAME/TYPE, such as "
        .. "localhost/example.org./www.example.org./A, got " .. d:id(), 0)
    end
    d:set("server_id", server)
    d:set("zone", zone)
    d:set("name", name)
    d:set("type", kind)
  end,
}
