local tf = require("luaform")

-- pcall(nest, n - 1) n times over: the depth reached, or the error that stopped it.
local function nest(n)
  if n == 0 then
    return 0
  end
  local ok, reached = pcall(nest, n - 1)
  if not ok then
    error(reached, 0)
  end
  return reached + 1
end

-- {"a":{"a":...{}...}}, `depth` objects deep.
local function deep_document(depth)
  return string.rep('{"a":', depth - 1) .. "{}" .. string.rep("}", depth - 1)
end

return tf.resource {
  description = "Nests calls and documents `depth` levels deep when created",
  schema = {
    depth = tf.number { required = true, force_new = true },
    json_depth = tf.number { required = true, force_new = true },
    reached = tf.number { computed = true },
  },
  create = function(d)
    local reached = nest(d:get("depth"))
    local doc = deep_document(d:get("json_depth"))
    assert(tf.json.equivalent(doc, tf.json.encode(tf.json.decode(doc))))
    d:set_id("nest-" .. reached)
    d:set("reached", reached)
  end,
  read = function() end,
  delete = function() end,
}
