local t = { kind = "type", name = "string" }
for _ = 1, 200000 do t = { kind = "type", name = "list", element = t } end
return { kind = "resource", schema = { a = { kind = "attribute", type = t, optional = true } } }
