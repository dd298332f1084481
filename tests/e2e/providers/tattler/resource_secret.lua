-- resource "tattler_secret": each plan-time hook fails, quoting the password and the provider's
-- token, when the new password names it ("...-plan-...", "-replace-", "-suppress-",
-- "-customize-"); every hook logs both secrets, at every run. Create also makes a secret of its
-- own (`serial`) and logs it as soon as it is set.
local tf = require("luaform")

local function tell(hook, password, client)
  tf.log.info(hook .. " sees password " .. password .. " and token " .. client.token)
  print(hook .. " prints " .. password .. " / " .. client.token)
  if password:find("-" .. hook .. "-", 1, true) then
    error(hook .. " refused password " .. password .. " with token " .. client.token) -- MARK: tell
  end
end

return tf.resource {
  description = "Tells its secrets from every hook",
  schema = {
    name = tf.string { required = true },
    password = tf.string {
      required = true,
      sensitive = true,
      validate = function(value)
        tf.log.info("validate sees password " .. value)
        return nil
      end,
      requires_replace_if = function(_, new, client)
        tell("replace", new, client)
        return false
      end,
      diff_suppress = function(_, _, new)
        tf.log.info("suppress sees password " .. new)
        if new:find("-suppress-", 1, true) then
          error("suppress refused password " .. new)
        end
        return false
      end,
    },
    serial = tf.string { computed = true, sensitive = true },
    fingerprint = tf.string {
      computed = true,
      plan = function(p, client)
        tell("plan", p.resource.password, client)
        return "fp-" .. #p.resource.password
      end,
    },
  },
  customize_diff = function(d, client)
    tell("customize", d:get("password"), client)
  end,
  create = function(d)
    d:set_id(d:get("name"))
    d:set("fingerprint", "fp-" .. #d:get("password"))
    d:set("serial", "serial-" .. tf.uuid())
    tf.log.info("made serial " .. d:get("serial"))
    -- The password as a log field's name, and in a URL path as tf.http.path escapes it (Go's
    -- PathEscape keeps "@" and ":"), quoted by the client's error for that URL.
    tf.log.info("created", { [d:get("password")] = "as a field name" })
    local _, err = pcall(function()
      return tf.http.client({ base_url = "http://127.0.0.1:9", retries = 0 })
        :get(tf.http.path("tokens", d:get("password")))
    end)
    tf.log.info("lookup said: " .. tostring(err))
  end,
  read = function() end,
  update = function(d)
    d:set("fingerprint", "fp-" .. #d:get("password"))
  end,
  delete = function() end,
}
