---@meta
-- luacheck: no unused, max comment line length 600
-- Type definitions of `require("luaform_crud")`, the function behind `tf.http.crud`.

--- A resource's create, read, update and delete for a JSON API whose collection takes a POST.
---@type fun(options: luaform.CrudOptions): luaform.Crud
local crud = nil

return crud
