local t = { kind = "type", name = "list" }
t.element = t
return { kind = "resource", schema = { a = { kind = "attribute", type = t, optional = true } } }
