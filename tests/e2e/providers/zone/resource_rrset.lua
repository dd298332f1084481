-- resource "zone_rrset": a record set whose addresses and targets the API lower-cases
-- ("2001:DB8::1" comes back "2001:db8::1"). The script sends what d:get gives and sets back
-- what the API answers; element_state_func says which elements are the same, so neither the
-- API's spelling nor the user's shows as a change.
local tf = require("luaform")

local function lower_target(t)
  return t.host:lower() .. ":" .. t.port
end

local function body_of(d)
  local targets = {}
  for _, t in ipairs(d:get("target")) do
    targets[#targets + 1] = { host = t.host, port = t.port }
  end
  return { name = d:get("name"), records = d:get("records"), targets = targets }
end

local function record(d, rrset)
  d:set("name", rrset.name)
  d:set("records", rrset.records)
  d:set("target", rrset.targets)
end

local crud = tf.http.crud { path = "/objects", body = body_of, record = record }

return tf.resource {
  description = "A record set",
  schema = {
    name = tf.string { required = true, force_new = true },
    records = tf.set(tf.string) { required = true,
      element_state_func = function(address) return address:lower() end },
    target = tf.set_block {
      element_state_func = lower_target,
      schema = {
        host = tf.string { required = true },
        port = tf.number { required = true },
        weight = tf.number { computed = true },  -- the API's choice
      },
    },
  },
  create = crud.create,
  read = crud.read,
  update = crud.update,
  delete = crud.delete,
}
