-- resource "people_user": every optional argument is sent to the API as d:get gives it (the
-- zero value when unset), and read sets back what the API answers, zero values included.
local tf = require("luaform")

local function contacts_of(d)
  local out = {}
  for _, c in ipairs(d:get("contact")) do
    out[#out + 1] = { email = c.email, phone = c.phone or "" }  -- the API wants every field
  end
  return out
end

local function body_of(d)
  return {
    name = d:get("name"),
    nickname = d:get("nickname"),
    age = d:get("age"),
    admin = d:get("admin"),
    groups = d:get("groups"),
    labels = d:get("labels"),
    contact = contacts_of(d),
  }
end

local function record(d, user)
  d:set("name", user.name)
  d:set("nickname", user.nickname)
  d:set("age", user.age)
  d:set("admin", user.admin)
  d:set("groups", user.groups)
  d:set("labels", user.labels)
  d:set("contact", user.contact)
end

local crud = tf.http.crud { path = "/objects", body = body_of, record = record }

return tf.resource {
  description = "A user of the API",
  schema = {
    name = tf.string { required = true },
    nickname = tf.string { optional = true, force_new = true },
    age = tf.number { optional = true },
    admin = tf.bool { optional = true },
    groups = tf.list(tf.string) { optional = true },
    labels = tf.map(tf.string) { optional = true },
    contact = tf.list_block {
      schema = {
        email = tf.string { required = true },
        phone = tf.string { optional = true },
      },
    },
  },
  create = crud.create,
  read = crud.read,
  update = crud.update,
  delete = crud.delete,
  import = tf.import_by_id,
}
