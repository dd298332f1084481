-- resource "lease_memo": the same notes as lease_note under a newer name, with `body` for
-- `text`. A `moved` block from a lease_note keeps the note: move_state turns the old state into
-- a memo's instead of destroying one object and creating another.
local tf = require("luaform")

local function record(d, note)
  d:set("body", note.text)
  d:set_private("etag", note.etag)
end

-- The service refuses an update without the version it last answered (412): If-Match carries
-- the etag record kept.
local crud = tf.http.crud {
  path = "/notes",
  body = function(d)
    return { text = d:get("body") }
  end,
  record = record,
  headers = function(d, operation)
    if operation == "update" then
      return { ["If-Match"] = d:private("etag") }
    end
  end,
}

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
  create = crud.create,
  read = crud.read,
  update = crud.update,
  delete = crud.delete,
}
