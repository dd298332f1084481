-- luaform_openapi_lists: the list resource of a mapped resource, from its collection's GET (or
-- a POST to the collection's /filter), reading every page. Internal to the SDK (scripts use
-- tf.openapi). How pages go, each once, first found first:
--   a `Link: <...>; rel="next"` header, or a `next` link in the answer (next, links.next,
--   _links.next.href): followed as it is;
--   a cursor in the answer (next_cursor, next_page_token, cursor, next) and a parameter that
--   takes it (cursor, page_token, after, next, starting_after): sent back;
--   an `offset` parameter: advanced by what each page held, until a page holds less than asked;
--   a `page` parameter: counted up until a page holds less than asked.
-- With none of these the first answer is all there is.

local json = require("luaform_json")
local schema = require("luaform_openapi_schema")

local null = json.null

local M = {}

local ITEM_FIELDS = { "items", "results", "data", "records", "values", "content" }
local CURSOR_FIELDS = { "next_cursor", "next_page_token", "nextPageToken", "cursor" }
local CURSOR_PARAMETERS = { "cursor", "page_token", "pageToken", "after", "starting_after",
  "next" }
local SIZE_PARAMETERS = { "limit", "per_page", "page_size", "pageSize", "size", "count" }

-- The objects a page holds: the answer itself when it is a list, else its list field.
local function items_of(answer)
  if type(answer) ~= "table" then
    return {}
  end
  if answer[1] ~= nil or next(answer) == nil then
    return answer
  end
  for _, field in ipairs(ITEM_FIELDS) do
    if type(answer[field]) == "table" then
      return answer[field]
    end
  end
  local only
  for _, value in pairs(answer) do
    if type(value) == "table" and value[1] ~= nil then
      if only then
        return {}
      end
      only = value
    end
  end
  return only or {}
end

-- The next page's URL an answer links to, if any.
local function next_link(answer, response)
  local link = response.headers.link
  if link then
    for url, rel in link:gmatch("<([^>]*)>%s*;[^,]*rel=\"?([^\",;]+)") do
      if rel == "next" then
        return url
      end
    end
  end
  if type(answer) ~= "table" then
    return nil
  end
  local candidates = { answer.next, type(answer.links) == "table" and answer.links.next,
    type(answer._links) == "table" and type(answer._links.next) == "table"
      and answer._links.next.href }
  for i = 1, 3 do
    if type(candidates[i]) == "string" and candidates[i]:match("^https?://") then
      return candidates[i]
    end
  end
  return nil
end

-- Where the operation takes each paging value: { name, where = "query" | "body" } or nil.
local function paging_parameters(doc, op)
  local found = {}
  local function take(name, where, maximum)
    for _, wanted in ipairs(CURSOR_PARAMETERS) do
      if name == wanted and not found.cursor then
        found.cursor = { name = name, where = where }
      end
    end
    for _, wanted in ipairs(SIZE_PARAMETERS) do
      if name == wanted and not found.size then
        found.size = { name = name, where = where, maximum = maximum }
      end
    end
    if name == "offset" or name == "skip" then
      found.offset = found.offset or { name = name, where = where }
    elseif name == "page" then
      found.page = found.page or { name = name, where = where }
    end
  end
  for _, parameter in ipairs(op.parameters) do
    if parameter["in"] == "query" then
      local spec = parameter.schema or parameter
      take(parameter.name, "query", type(spec) == "table" and spec.maximum or nil)
    end
  end
  for _, property in ipairs(schema.properties(doc, op.body, op.body_file) or {}) do
    take(property.wire, "body", property.shape.maximum)
  end
  return found
end

-- Calls `list(request)` for each page of `op` (a list_model's) until `each(item)` returns
-- false or no page is left. `values` fills the path; `call` is tf.openapi's.
function M.each_item(op, client, values, call, each)
  local paging = op.paging
  local size = paging.size and math.min(paging.size.maximum or 100, 100) or nil
  local query, body = {}, op.method == "post" and {} or nil
  local function put(parameter, value)
    if parameter.where == "body" then
      body[parameter.name] = value
    else
      query[parameter.name] = value
    end
  end
  if size then
    put(paging.size, size)
  end
  local offset, page = 0, 1
  if paging.offset then
    put(paging.offset, 0)
  elseif paging.page then
    put(paging.page, 1)
  end
  local url
  for _ = 1, 10000 do
    local answer, response = call(client, op, values, body, nil, { query = query, url = url })
    local items = items_of(answer)
    for _, item in ipairs(items) do
      if item ~= null and each(item) == false then
        return
      end
    end
    url = next_link(answer, response)
    if not url then
      local cursor
      for _, field in ipairs(CURSOR_FIELDS) do
        if type(answer) == "table" and type(answer[field]) == "string" and answer[field] ~= "" then
          cursor = answer[field]
        end
      end
      if cursor and paging.cursor then
        put(paging.cursor, cursor)
      elseif paging.offset and #items > 0 and (not size or #items >= size) then
        offset = offset + #items
        put(paging.offset, offset)
      elseif paging.page and #items > 0 and (not size or #items >= size) then
        page = page + 1
        put(paging.page, page)
      else
        return
      end
    end
  end
  error(op.where .. ": more than 10000 pages; the listing stops there", 0)
end

-- What the list resource of `plan`'s resource is made of, as plain data (the model is kept
-- between starts): the collection's GET with where it takes its paging values, its parents.
function M.list_model(doc, plan, operation_model)
  local op = plan.operations.list
  local listing = operation_model(op)
  listing.paging = paging_parameters(doc, op)
  return {
    op = listing,
    parents = plan.parents,
    parent_names = plan.parent_names,
    description = type(op.operation.summary) == "string" and op.operation.summary or nil,
  }
end

-- A tf.list_resource made from `model` (list_model): its filters are the collection's path
-- parameters; each object is emitted with its identity (parents and id).
function M.list_resource(tf, model, call, id_of)
  local op = model.op
  local parents = model.parents
  local filters = {}
  for _, parent in ipairs(parents) do
    filters[model.parent_names[parent]] = tf.string {
      required = true, description = "The " .. parent .. " whose objects are listed",
    }
  end
  return tf.list_resource {
    description = model.description,
    schema = filters,
    list = function(request, emit, client)
      local values, identity_parents = {}, {}
      for _, parent in ipairs(parents) do
        local value = request.config[model.parent_names[parent]]
        values[parent], identity_parents[model.parent_names[parent]] = value, value
      end
      M.each_item(op, client, values, call, function(item)
        local id = id_of(item)
        if id == nil then
          tf.warn { summary = op.where .. " listed an object without an id; it is left out" }
          return true
        end
        local identity = { id = id }
        for k, v in pairs(identity_parents) do
          identity[k] = v
        end
        local name = type(item) == "table" and (item.name or item.display_name or item.title)
        return emit { identity = identity, display_name = tostring(name or id) }
      end)
    end,
  }
end

return M
