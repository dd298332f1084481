---@meta
-- luacheck: no unused, max comment line length 600
-- Type definitions of `require("luaform_pagination")`, the function behind `tf.http.paginate`.

--- Every item of every page, in order.
---@type fun(client: luaform.HttpClient, path: string, options?: luaform.PaginateOptions): any[]
local paginate = nil

return paginate
