-- resource "checks_database": every kind of configuration check the SDK offers. The object
-- itself is a file named after the database, so a valid configuration really applies.
local tf = require("luaform")
local file_object = require("lib.file_object")

local function path(d)
  return "db-" .. d:get("name") .. ".txt"
end

local function write(d)
  local file = assert(io.open(path(d), "w"))
  file:write(d:get("engine"), " ", d:get("snapshot"), " ", tostring(d:get("port")), "\n")
  file:close()
end

return tf.resource {
  description = "A database, checked before anything is created",
  schema = {
    name = tf.string {
      required = true,
      force_new = true,
      validate = tf.v.pattern("^%l[%l%d-]*$", "must start with a letter; letters, digits and -"),
    },
    port = tf.number { optional = true, default = 5432, validate = tf.v.between(1024, 65535) },
    engine = tf.string {
      optional = true,
      validate = tf.v.one_of { "postgres", "mysql" },
      exactly_one_of = { "engine", "snapshot" },
    },
    snapshot = tf.string { optional = true, exactly_one_of = { "engine", "snapshot" } },
    backup_window = tf.string { optional = true, conflicts_with = { "snapshot" } },
    user = tf.string { optional = true, required_with = { "user", "password" } },
    password = tf.string { optional = true, sensitive = true, required_with = { "user" } },
    size = tf.number { optional = true, deprecated = "size is ignored; storage grows by itself" },
    legacy = tf.bool { optional = true, removed = "legacy was removed in 2.0: delete the line" },
    region = tf.string { computed = true, description = "The provider's region" },
    replica = tf.list_block {
      max_items = 2,
      schema = {
        zone = tf.string { required = true, validate = tf.v.pattern("^eu%-", "must be in eu-") },
      },
    },
  },
  create = function(d, client)
    write(d)
    d:set_id(d:get("name"))
    d:set("region", client.region)
  end,
  read = file_object.read("db"),
  update = function(d)
    write(d)
  end,
  delete = function(d)
    os.remove(path(d))
  end,
}
