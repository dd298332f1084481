-- resource "inventory_server": nested blocks of every nesting, with computed values inside
-- them that the provider assigns (disk serials, rule ids).
local tf = require("luaform")

local function assign_computed(name, disks, rules)
  for i, disk in ipairs(disks) do
    disk.serial = string.format("%s-disk-%d-%d", name, i - 1, disk.size)
  end
  for _, rule in ipairs(rules) do
    rule.uid = "rule-" .. rule.port
  end
end

local function save(d, client)
  local disks, rules = d:get("disk"), d:get("rule")
  assign_computed(d:get("name"), disks, rules)
  local record = { name = d:get("name"), disk = disks, rule = rules, boot = d:get("boot") }
  client:put("server", d:id(), record)
  d:set("disk", disks)
  d:set("rule", rules)
end

return tf.resource {
  description = "A server with disks, firewall rules and a boot image",
  schema = {
    name = tf.string { required = true, description = "Name of the server" },
    disk = tf.list_block {
      max_items = 3,
      description = "Disks, in order",
      schema = {
        size = tf.number { required = true },
        kind = tf.string { optional = true, default = "ssd" },
        label = tf.string { optional = true, force_new = true },
        serial = tf.string { computed = true, changes_on_update = true },
      },
    },
    rule = tf.set_block {
      description = "Firewall rules, in no order",
      schema = {
        port = tf.number { required = true },
        protocol = tf.string { optional = true, default = "tcp" },
        note = tf.string { optional = true },
        uid = tf.string { computed = true },
      },
    },
    boot = tf.single_block {
      schema = { image = tf.string { required = true } },
    },
  },

  create = function(d, client)
    d:set_id(d:get("name"))
    save(d, client)
  end,

  read = function(d, client)
    local record = client:get("server", d:id())
    if record == nil then
      d:set_id("")
      return
    end
    d:set("name", record.name)
    d:set("disk", record.disk)
    d:set("rule", record.rule)
    d:set("boot", record.boot)
  end,

  update = function(d, client)
    save(d, client)
  end,

  delete = function(d, client)
    client:delete("server", d:id())
  end,

  import = tf.import_by_id,
}
