local s = {}
s.b = { kind = "block", nesting = "list", schema = s }
return { kind = "resource", schema = s }
