-- luaform_openapi_model: what a description maps to, as plain data (tables of strings, numbers
-- and booleans): the provider block's inputs, each type's fields, shapes and operations, and
-- what --check says about the operations no type claims. Reading the description and mapping
-- it is most of a mapped provider's start (GitHub's 13 MB: a third of a second), so the model
-- is kept between starts (luaform_openapi_cache), and tf.openapi.provider makes the types from
-- it with the author's options, functions included. Internal to the SDK.

local types = require("luaform_openapi_types")
local lists = require("luaform_openapi_lists")

local M = {}

-- The author's options the model depends on (the rest apply when the types are made from it):
-- how deep objects nest and `$ref`s are followed, and which field holds a type's id.
function M.settings(options, nesting)
  local settings = { nesting = nesting, depth = options.depth, resources = {}, data_sources = {} }
  for _, kind in ipairs({ "resources", "data_sources" }) do
    for name, type_options in pairs(options[kind] or {}) do
      if type(type_options) == "table"
        and (type_options.depth ~= nil or type_options.id ~= nil) then
        settings[kind][name] = {
          depth = type_options.depth,
          id = kind == "resources" and type_options.id or nil,
        }
      end
    end
  end
  return settings
end

-- Why no type claims `op`, in the words of the conventions (luaform_openapi_types); `claimed`:
-- the operations types claim.
local function unclaimed_because(op, by_path, claimed)
  -- Paths that start with a link: an object the API names by its href, and what is done to it.
  local read = by_path[op.path].get
  if op.path:match("^{[^}]+}/*$") and not (read and claimed[read]) then
    return "an object named by its link whose collection has no create to pair with (the "
      .. "read's operationId with _create for _read or _retrieve)"
  elseif op.path:match("^{[^}]+}.") then
    return "an action on an object named by its link; a script calls it by name (api:call)"
  end
  local item = op.path:match("/{[^}/]+}/*$")
  if op.method == "get" then
    return item and "its collection's POST was left out of the mapping"
      or "a GET of a path that ends in no {parameter} and lists no mapped resource"
  elseif op.method == "post" then
    return "no GET of an item below it (PATH/{id}), so nothing reads what it makes"
  elseif op.method == "patch" and by_path[op.path] and by_path[op.path].put then
    return "the resource's update is the item's PUT; a PATCH beside it is not used"
  elseif item and by_path[op.path] and by_path[op.path].get then
    return "its path's GET was left out of the mapping"
  end
  return "no type is read from this path"
end

-- The operations no type claims, in the document's order, each { where, id, because }.
local function unclaimed(doc, found)
  local by_path = {}
  for _, op in ipairs(doc:operations()) do
    by_path[op.path] = by_path[op.path] or {}
    by_path[op.path][op.method] = op
  end
  local left = {}
  for _, op in ipairs(doc:operations()) do
    if not found.claimed[op] then
      left[#left + 1] = { where = op.where, id = op.id,
        because = unclaimed_because(op, by_path, found.claimed) }
    end
  end
  return left
end

-- The model of the description `doc` (luaform_openapi_document) under `settings` (M.settings),
-- and the other files its `$ref`s read. A type the mapping cannot make holds `load_error`, saying
-- where and why; the others serve.
function M.derive(doc, settings)
  doc.nesting = settings.nesting
  local found = types.plan(doc)
  local title = type(doc.root.info) == "table" and doc.root.info.title
  local model = {
    root_file = doc.root_file,
    title = type(title) == "string" and title or nil,
    base_url = doc:base_url(),
    schemes = doc:security_schemes(),
    resources = {},
    data_sources = {},
    list_resources = {},
    unclaimed = unclaimed(doc, found),
    problems = found.problems,
  }
  for _, kind in ipairs({ "resources", "data_sources" }) do
    local make = kind == "resources" and types.resource_model or types.data_source_model
    for name, plan in pairs(found[kind]) do
      local given = settings[kind][name] or {}
      local made, type_model = pcall(make, doc, plan,
        { depth = given.depth or settings.depth, id = given.id })
      if not made then
        type_model = { load_error = plan.where .. ": " .. tostring(type_model) }
      end
      model[kind][name] = type_model
      if made and kind == "resources" and plan.operations.list then
        local listed, list_model = pcall(lists.list_model, doc, plan, types.operation_model)
        model.list_resources[name] = listed and list_model
          or { load_error = plan.operations.list.where .. ": " .. tostring(list_model) }
      end
    end
  end
  local files = {}
  for file in pairs(doc.files) do
    if file ~= doc.root_file then
      files[#files + 1] = file
    end
  end
  table.sort(files)
  return model, files
end

-- The notes `--check` prints: the types served, then each operation no type claims and why (or
-- which script calls it by name), the mapping's problems and the patterns left unchecked.
function M.coverage_notes(model, served, unchecked, callers)
  local counts = {}
  for _, kind in ipairs({ "resources", "data_sources", "list_resources" }) do
    local n = 0
    for _ in pairs(served[kind]) do
      n = n + 1
    end
    counts[#counts + 1] = n .. " " .. kind:gsub("_", " ")
  end
  local root = model.root_file
  local notes = { root .. ": " .. table.concat(counts, ", ") }
  for _, op in ipairs(model.unclaimed) do
    local caller = op.id and callers[op.id]
    notes[#notes + 1] = caller
      and string.format("%s: %s (%s): called by name in %s", root, op.where, op.id, caller)
      or string.format("%s: %s (%s): no type: %s", root, op.where, op.id or "no operationId",
        op.because)
  end
  for _, problem in ipairs(model.problems) do
    notes[#notes + 1] = root .. ": " .. problem
  end
  table.sort(unchecked)
  for _, note in ipairs(unchecked) do
    notes[#notes + 1] = root .. ": " .. note
  end
  return notes
end

return M
