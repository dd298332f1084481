-- resource "vendored_pin": parses `version` with the vendored library and says whether it is
-- newer than `than`.
local tf = require("luaform")
local semver = require("semverlite")

local function compute(d)
  local version, problem = semver.parse(d:get("version"))
  if not version then
    tf.fail { summary = "Invalid version", detail = problem, path = "version" }
  end
  d:set("major", version.major)
  d:set("newer", semver.newer(version, assert(semver.parse(d:get("than")))))
end

return tf.resource {
  description = "A version, parsed",
  schema = {
    version = tf.string { required = true, force_new = true },
    than = tf.string { required = true, force_new = true },
    major = tf.number { computed = true },
    newer = tf.bool { computed = true },
  },
  create = function(d)
    d:set_id(d:get("version"))
    compute(d)
  end,
  read = function() end,
  delete = function() end,
}
