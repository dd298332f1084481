-- resource "bench_item": ten attributes and no API behind them, the null-like resource of the
-- RPC and CLI benchmarks.
local tf = require("luaform")

-- Ids only need to differ within one provider process.
local created = 0

return tf.resource {
  description = "Ten attributes kept in state, nothing else",
  schema = {
    s1 = tf.string { optional = true },
    s2 = tf.string { optional = true },
    s3 = tf.string { optional = true },
    s4 = tf.string { optional = true },
    n1 = tf.number { optional = true },
    n2 = tf.number { optional = true },
    n3 = tf.number { optional = true },
    b1 = tf.bool { optional = true },
    b2 = tf.bool { optional = true },
  },
  create = function(d)
    created = created + 1
    d:set_id("item-" .. created)
  end,
  read = function() end,
  update = function() end,
  delete = function() end,
  import = tf.import_by_id,
}
