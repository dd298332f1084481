-- The provider of scenario 7 (tests/bench/README.md): bench_object is served from the
-- description of the benchmark's object API, bench_object_script is the same type written by
-- hand (resource_object_script.lua), so that one process serves both against one server.
local tf = require("luaform")

return tf.openapi.provider {
  document = "objects.openapi.json",
  env_prefix = "BENCH",
}
