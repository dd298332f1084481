-- The benchmark provider: the same four resources as the Go peer in ../peer, so that both are
-- measured doing the same work. It has no provider arguments.
local tf = require("luaform")

return tf.provider {
  description = "Resources for luaform's benchmarks (tests/bench)",
  schema = {},
}
