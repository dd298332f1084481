-- resource "modifiers_server": plan modifiers in the framework's sense. Shrinking `size` or a
-- volume's `gb` replaces the server while growing it is an update (requires_replace_if);
-- `created_at` keeps its stored value through updates (use_state_for_unknown) while
-- `updated_at` is recomputed.
-- `arn`, `port` and `ips` are refined: before apply the CLI already knows the ARN is not null
-- and how it starts, that the port is in the unprivileged range and that there are 1 to 4 ips.
-- A server named "liar" breaks those promises. `fqdn` is planned by its own function from the
-- name, so it is known before apply, even when the name changes; so is each volume's `label`.
-- Nothing outside the state is touched: the values are all the scenario needs.
local tf = require("luaform")

return tf.resource {
  description = "A server that can grow in place but not shrink",
  schema = {
    name = tf.string { required = true,
      requires_replace_if = function(_, new)
        if new == "boom" then
          error("cannot tell whether " .. new .. " needs a new server") -- MARK: name check
        end
        return false
      end },
    size = tf.number { required = true,
      requires_replace_if = function(old, new)
        return new ~= tf.unknown and new < old
      end },
    created_at = tf.string { computed = true, use_state_for_unknown = true },
    updated_at = tf.string { computed = true, changes_on_update = true },
    arn = tf.string { computed = true, use_state_for_unknown = true,
      refine = { not_null = true, prefix = "arn:modifiers:server/" } },
    port = tf.number { computed = true, use_state_for_unknown = true,
      refine = { min = 1024, max = 65535 } },
    ips = tf.list(tf.string) { computed = true, use_state_for_unknown = true,
      refine = { min_length = 1, max_length = 4 } },
    volume = tf.list_block { schema = {
      gb = tf.number { required = true,
        requires_replace_if = function(old, new)
          return old ~= nil and new ~= tf.unknown and new < old
        end },
      label = tf.string { computed = true,
        plan = function(p)
          if p.object.gb ~= tf.unknown then
            return p.resource.name .. "-" .. p.object.gb .. "gb"
          end
        end },
    } },
    fqdn = tf.string { computed = true,
      plan = function(p)
        if p.resource.name ~= tf.unknown then
          return p.resource.name .. ".servers.internal"
        end
      end },
  },
  create = function(d)
    d:set_id(tf.uuid())
    d:set("created_at", tf.uuid())
    d:set("updated_at", tf.uuid())
    local liar = d:get("name") == "liar"
    d:set("arn", (liar and "urn:" or "arn:modifiers:server/") .. d:id())
    d:set("port", liar and 80 or 8080)
    d:set("ips", { "10.0.0.1" })
    d:set("fqdn", d:get("name") .. ".servers.internal")
  end,
  read = function()
  end,
  update = function(d)
    d:set("updated_at", tf.uuid())
    d:set("fqdn", d:get("name") .. ".servers.internal")
  end,
  delete = function()
  end,
}
