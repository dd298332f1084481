-- resource "people_login": the password is write-only (sent, never stored); bumping
-- password_version is how a user asks for it to be sent again.
local tf = require("luaform")

return tf.resource {
  description = "A login with a password the state never holds",
  schema = {
    user = tf.string { required = true },
    password = tf.string { optional = true, sensitive = true, write_only = true },
    password_version = tf.number { optional = true, default = 1 },
    -- An update may send the password again, so its time may change with any update.
    password_set_at = tf.number {
      computed = true, changes_on_update = true, description = "The API's revision then",
    },
  },
  create = function(d, client)
    local login = client:post("/objects", { user = d:get("user"), password = d:get("password") })
    d:set_id(login.id)
    d:set("password_set_at", login.revision)
  end,
  read = function(d, client)
    local login, response = client:get("/objects/" .. d:id(), { allow = { 404 } })
    if response.status == 404 then
      d:set_id("")
      return
    end
    d:set("user", login.user)
  end,
  update = function(d, client)
    local changes = { user = d:get("user") }
    if d:has_change("password_version") then
      changes.password = d:get("password")
    end
    local login = client:patch("/objects/" .. d:id(), changes)
    if changes.password then
      d:set("password_set_at", login.revision)
    end
  end,
  delete = function(d, client)
    client:delete("/objects/" .. d:id(), { allow = { 404 } })
  end,
}
