-- Without the SDK: the tables read_schema reads, as tf.resource would build them.
local s = { kind = "type", name = "string" }
return {
  kind = "resource",
  schema_version = 2,
  timeouts = { read = "1h" },
  schema = {
    a = { kind = "attribute", type = s, optional = true, default = 7 },
    b = { kind = "attribute", type = { kind = "type", name = "list", element = s }, computed = true,
          refine = { not_null = true, min_length = 1 } },
    o = { kind = "attribute", required = true,
          type = { kind = "type", name = "object", attributes = { x = s } } },
    blk = { kind = "block", nesting = "map", min_items = 0,
            schema = { c = { kind = "attribute", type = s, optional = true } } },
    nat = { kind = "nested_attribute", nesting = "set", optional = true,
            schema = { d = { kind = "attribute", type = s, required = true } } },
  },
}
