-- resource "broken_helper": create calls a helper module that raises, and passes the error on
-- with error(err) after a pcall, so the error has two places: the helper's line, then this one.
local tf = require("luaform")
local names = require("lib.names")

return tf.resource {
  description = "Fails on create in a helper module",
  schema = {
    name = tf.string { required = true, force_new = true },
  },
  create = function(d)
    local ok, err = pcall(names.check, d:get("name"))
    if not ok then
      error(err) -- MARK: rethrow
    end
    d:set_id(d:get("name"))
  end,
  read = function() end,
  delete = function() end,
}
