-- resource "lease_note": a note written with a leased token. The note's version (etag) is kept
-- as private data: sent back as If-Match on update, never shown in plans or state attributes.
-- `secret` is write-only: sent with create and with the update that secret_version triggers,
-- never saved.
local tf = require("luaform")
local notes = require("lib.notes")

local function record(d, note)
  d:set("text", note.text)
  d:set_private("etag", note.etag)
end

return tf.resource {
  description = "A note",
  schema = {
    text = tf.string { required = true },
    delay = tf.number { optional = true, default = 0,
      description = "Seconds to wait before writing, as a slow API would" },
    secret = tf.string { optional = true, sensitive = true, write_only = true },
    secret_version = tf.number { optional = true,
      description = "Change it to send secret again" },
  },
  create = function(d, client)
    tf.time.sleep(d:get("delay"))
    local note = client:post("/notes", { text = d:get("text"), secret = d:get("secret") })
    d:set_id(note.id)
    record(d, note)
  end,
  read = notes.reader(record),
  update = function(d, client)
    local body = { text = d:get("text") }
    if d:has_change("secret_version") then
      body.secret = d:get("secret")
    end
    local note = client:put("/notes/" .. d:id(), body,
      { headers = { ["If-Match"] = d:private("etag") } })
    record(d, note)
  end,
  delete = notes.delete,
}
