-- resource "lease_memo": the same notes as lease_note under a newer name, with `body` for
-- `text`. A `moved` block from a lease_note keeps the note: move_state turns the old state into
-- a memo's instead of destroying one object and creating another.
local tf = require("luaform")
local notes = require("lib.notes")

local function record(d, note)
  d:set("body", note.text)
  d:set_private("etag", note.etag)
end

return tf.resource {
  description = "A note, by its newer name",
  schema = {
    body = tf.string { required = true },
  },
  move_state = function(source)
    if source.type ~= "lease_note" then
      return nil
    end
    return { id = source.state.id, body = source.state.text }
  end,
  create = function(d, client)
    local note = client:post("/notes", { text = d:get("body") })
    d:set_id(note.id)
    record(d, note)
  end,
  read = notes.reader(record),
  update = function(d, client)
    record(d, client:put("/notes/" .. d:id(), { text = d:get("body") },
      { headers = { ["If-Match"] = d:private("etag") } }))
  end,
  delete = notes.delete,
}
