-- data "inventory_server": a saved server's disks, as a computed list of objects.
local tf = require("luaform")

return tf.data_source {
  description = "Reads a server record",
  schema = {
    name = tf.string { required = true },
    disks = tf.list(tf.object { size = tf.number, kind = tf.string, serial = tf.string }) {
      computed = true,
    },
    ports = tf.set(tf.number) { computed = true },
  },
  read = function(d, client)
    local record = client:get("server", d:get("name"))
    if record == nil then
      error("no server named " .. d:get("name"))
    end
    local disks, ports = {}, {}
    for i, disk in ipairs(record.disk) do
      disks[i] = { size = disk.size, kind = disk.kind, serial = disk.serial }
    end
    for _, rule in ipairs(record.rule) do
      ports[#ports + 1] = rule.port
    end
    d:set_id(record.name)
    d:set("disks", disks)
    d:set("ports", ports)
  end,
}
