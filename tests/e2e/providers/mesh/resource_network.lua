-- resource "mesh_network": nested attributes (protocol 6) of every nesting, with computed
-- values inside them that the provider assigns (gateways, peer ids, a default DNS server).
local tf = require("luaform")

local function assign_computed(subnets, peers, labels, dns)
  for _, subnet in ipairs(subnets) do
    subnet.gateway = "gw-" .. subnet.cidr
  end
  for _, peer in ipairs(peers) do
    peer.id = "peer-" .. peer.name
  end
  for _, label in pairs(labels) do
    label.owner = label.owner or "ops"
  end
  return dns or { server = "10.0.0.53", ttl = 300 }
end

local function save(d, client)
  local subnets, peers, labels = d:get("subnets"), d:get("peers"), d:get("labels")
  local dns = assign_computed(subnets, peers, labels, d:get("dns"))
  dns.server = dns.server or "10.0.0.53"
  client:put("network", d:id(), { subnets = subnets, peers = peers, labels = labels, dns = dns })
  d:set("subnets", subnets)
  d:set("peers", peers)
  d:set("labels", labels)
  d:set("dns", dns)
end

return tf.resource {
  description = "A network described with nested attributes",
  schema = {
    name = tf.string { required = true, force_new = true },
    subnets = tf.list_nested {
      optional = true,
      description = "Subnets, in order",
      schema = {
        cidr = tf.string { required = true, force_new = true },
        dhcp = tf.bool { optional = true, default = true },
        gateway = tf.string { computed = true },
      },
    },
    peers = tf.set_nested {
      optional = true,
      schema = {
        name = tf.string { required = true },
        id = tf.string { computed = true },
      },
    },
    labels = tf.map_nested {
      optional = true,
      schema = {
        value = tf.string { required = true },
        owner = tf.string { optional = true, computed = true },
      },
    },
    dns = tf.single_nested {
      optional = true,
      computed = true,
      schema = {
        server = tf.string { optional = true, computed = true },
        ttl = tf.number { optional = true, default = 300 },
      },
    },
  },

  create = function(d, client)
    d:set_id(d:get("name"))
    save(d, client)
  end,

  read = function(d, client)
    local record = client:get("network", d:id())
    if record == nil then
      d:set_id("")
      return
    end
    d:set("name", d:id())
    d:set("subnets", record.subnets)
    d:set("peers", record.peers)
    d:set("labels", record.labels)
    d:set("dns", record.dns)
  end,

  update = function(d, client)
    save(d, client)
  end,

  delete = function(d, client)
    client:delete("network", d:id())
  end,

  import = tf.import_by_id,
}
