-- luaform_openapi_schema: JSON Schema, as an OpenAPI description writes it, turned into the
-- attributes of a Terraform schema, with the conversions of values both ways. Each rule is one
-- function below, named for what it decides. Internal to the SDK.
--
-- A schema node becomes a "shape": { kind = "string" | "number" | "bool" | "list" | "map" |
-- "object" | "json", element = shape (list, map), properties (object: as M.properties gives
-- them), nullable, enum, minimum, maximum, min_length, max_length, min_items, max_items,
-- pattern, description, deprecated, default, read_only, write_only, sensitive }. An object's
-- properties become attributes. An object nested in a property, or a list of them, is an
-- "object" shape (a nested attribute) down to `doc.nesting` levels (0 when unset: protocol 6
-- can describe them, 5 cannot); what is mapped no further (deeper objects, oneOf, free-form
-- values) is a "json" shape: a string holding the value's JSON, compared by meaning so that
-- key order and spacing never make a plan.

local json = require("luaform_json")
local document = require("luaform_openapi_document")
local pattern = require("luaform_openapi_pattern")

local null = json.null

local M = {}

local properties_of  -- below M.properties, which keeps what it finds

-- How deep `$ref`s are followed inside one property before the rest is kept as JSON text.
M.DEFAULT_DEPTH = 8
-- How many levels of objects in objects become nested attributes by default (the provider's
-- `nesting` option); deeper ones are JSON text. Descriptions such as Azure's nest objects a
-- dozen deep, and each level makes a large description's schema slower to load (Microsoft
-- Graph's: 4.2 s with none, 6.6 s with 2 levels, 10 s with 3).
M.DEFAULT_NESTING = 2

-- Names Terraform reserves for its meta-arguments, and `id`, which every resource has.
local RESERVED = {
  count = true, for_each = true, provider = true, lifecycle = true, depends_on = true,
  connection = true, provisioner = true, timeouts = true,
}

-- The Terraform name of a property or parameter: camelCase and other spellings in snake_case
-- ("zoneId", "zone-id" and "ZoneID" are "zone_id"); a reserved one gets a trailing "_value".
function M.attribute_name(name)
  local snake = tostring(name)
    :gsub("(%u+)(%u%l)", "%1_%2")
    :gsub("(%l)(%u)", "%1_%2")
    :gsub("(%d)(%a)", "%1_%2")
    :lower()
    :gsub("[^a-z0-9_]+", "_")
    :gsub("_+", "_")
    :gsub("^_+", "")
    :gsub("_+$", "")
  if snake == "" or snake:match("^%d") then
    snake = "n_" .. snake
  end
  if RESERVED[snake] then
    snake = snake .. "_value"
  end
  return snake
end

-- allOf: the properties, required names and other keywords of every part, in one schema.
local function merged_all_of(doc, node, file, depth)
  local merged = { properties = {}, required = {} }
  for k, v in pairs(node) do
    if k ~= "allOf" then
      merged[k] = v
    end
  end
  merged.properties, merged.required = {}, {}
  local function add(part, part_file)
    part, part_file = doc:resolve(part, part_file)
    if type(part) ~= "table" then
      return
    end
    if type(part.allOf) == "table" then
      for _, inner in ipairs(part.allOf) do
        add(inner, part_file)
      end
    end
    for k, v in pairs(part) do
      if k == "properties" and type(v) == "table" then
        for name, property in pairs(v) do
          merged.properties[name] = { node = property, file = part_file }
        end
      elseif k == "required" and type(v) == "table" then
        for _, name in ipairs(v) do
          merged.required[#merged.required + 1] = name
        end
      elseif k ~= "allOf" and merged[k] == nil then
        merged[k] = v
      end
    end
  end
  add(node, file)
  return merged, depth
end

-- anyOf / oneOf / type lists that say "X or null" (OpenAPI 3.1's way of writing nullable):
-- the X, nullable. Nil when the alternatives are more than that.
function M.nullable_alternative(doc, node, file)
  local alternatives = node.anyOf or node.oneOf
  if type(alternatives) ~= "table" then
    return nil
  end
  local kept
  for _, alternative in ipairs(alternatives) do
    local resolved = doc:resolve(alternative, file)
    if type(resolved) == "table" and resolved.type == "null" then
      goto continue
    end
    if kept ~= nil then
      return nil
    end
    kept = alternative
    ::continue::
  end
  return kept
end

-- The single type a node states: "string", "integer", ..., with 3.1's ["string", "null"]
-- read as a nullable string. Nil when it states none.
function M.stated_type(node)
  local t = node.type
  if type(t) == "table" then
    local single, nullable = nil, false
    for _, name in ipairs(t) do
      if name == "null" then
        nullable = true
      elseif single == nil then
        single = name
      else
        return nil, nullable
      end
    end
    return single, nullable
  end
  return t, node.nullable == true
end

local function copy_facets(shape, node)
  shape.description = type(node.description) == "string" and node.description
    or type(node.title) == "string" and node.title or nil
  -- A facet that does not hold is nil, not false: models are kept between starts
  -- (luaform_openapi_cache), and GitHub's hold some ten thousand shapes.
  shape.deprecated = node.deprecated == true or nil
  shape.read_only = node.readOnly == true or nil
  shape.write_only = node.writeOnly == true or nil
  shape.sensitive = (node.format == "password" or node.writeOnly == true) or nil
  if node.default ~= nil and node.default ~= null and type(node.default) ~= "table" then
    shape.default = node.default
  end
  if type(node.enum) == "table" then
    local values = {}
    for _, value in ipairs(node.enum) do
      if value ~= null then
        values[#values + 1] = value
      end
    end
    shape.enum = values
  end
  for key, facet in pairs({ minimum = "minimum", maximum = "maximum", minLength = "min_length",
    maxLength = "max_length", minItems = "min_items", maxItems = "max_items" }) do
    if type(node[key]) == "number" then
      shape[facet] = node[key]
    end
  end
  if node.uniqueItems == true then
    shape.unique = true
  end
  if type(node.pattern) == "string" then
    shape.pattern = node.pattern
  end
  return shape
end

-- The shape of `node` (written in `file`), following `$ref`s at most `depth` deep, inside
-- `nest` levels of nested objects (0 for an attribute of the type itself).
function M.shape(doc, node, file, depth, nest)
  nest = nest or 0
  depth = depth or M.DEFAULT_DEPTH
  local outer = node
  node, file = doc:resolve(node, file)
  if type(node) ~= "table" then
    return { kind = "json" }
  end
  if type(outer) == "table" and outer["$ref"] ~= nil then
    depth = depth - 1
    if depth < 0 then
      return copy_facets({ kind = "json", cut = true }, node)
    end
  end
  local alternative = M.nullable_alternative(doc, node, file)
  if alternative ~= nil then
    local shape = M.shape(doc, alternative, file, depth, nest)
    shape.nullable = true
    if shape.description == nil and type(node.description) == "string" then
      shape.description = node.description
    end
    return shape
  end
  local unmerged = node
  if type(node.allOf) == "table" then
    node = merged_all_of(doc, node, file, depth)
  end
  local t, nullable = M.stated_type(node)
  if t == nil and type(node.properties) == "table" and next(node.properties) ~= nil then
    t = "object"
  end
  local shape
  if t == "object" and nest < (doc.nesting or 0)
    and type(node.properties) == "table" and next(node.properties) ~= nil then
    shape = { kind = "object", properties = M.properties(doc, unmerged, file, depth, nest + 1) }
  elseif t == "string" then
    shape = { kind = "string" }
  elseif t == "integer" then
    shape = { kind = "number", integer = true }
  elseif t == "number" then
    shape = { kind = "number" }
  elseif t == "boolean" then
    shape = { kind = "bool" }
  elseif t == "array" then
    local element = M.shape(doc, node.items or {}, file, depth, nest)
    if element.kind == "list" or element.kind == "map" or element.kind == "json"
      or (element.kind == "object" and element.nullable) then
      shape = { kind = "json" }
    else
      shape = { kind = "list", element = element }
    end
  elseif t == "object" and type(node.properties) ~= "table"
    and type(node.additionalProperties) == "table" then
    local element = M.shape(doc, node.additionalProperties, file, depth, nest)
    -- A map of lists or maps of objects has no nested attribute to be.
    if element.kind == "json" or (element.kind == "object" and element.nullable)
      or (element.kind ~= "object" and M.is_nested(element)) then
      shape = { kind = "json" }
    else
      shape = { kind = "map", element = element }
    end
  else
    shape = { kind = "json" }
  end
  shape.nullable = shape.nullable or nullable or nil
  return copy_facets(shape, node)
end

-- The properties of an object schema (allOf merged), each as { wire, name, shape, required,
-- holds_id } (what annotations say included; an ignored one left out), sorted by name. Nil
-- when the node is no object with properties. Kept per schema, depth and nesting: the types
-- of a large description share a few schemas (Microsoft Graph's 517 resources read entity
-- schemas of hundreds of properties many times over). Callers read the list, never change it.
function M.properties(doc, node, file, depth, nest)
  node, file = doc:resolve(node, file)
  if type(node) ~= "table" then
    return nil
  end
  doc.properties_of = doc.properties_of or setmetatable({}, { __mode = "k" })
  local by_depth = doc.properties_of[node]
  if by_depth == nil then
    by_depth = {}
    doc.properties_of[node] = by_depth
  end
  local key = (depth or M.DEFAULT_DEPTH) .. ":" .. (nest or 0)
  if by_depth[key] == nil then
    by_depth[key] = { list = properties_of(doc, node, file, depth, nest) }
  end
  return by_depth[key].list
end

-- What a property's annotations say (Speakeasy's x-speakeasy-* and the x-terraform-* of
-- terraform-provider-openapi), written beside a `$ref` or in the schema it names: { ignore,
-- name, read_only, optional, force_new, sensitive, id }.
local ANNOTATIONS = {
  ignore = { "x-speakeasy-ignore" },
  read_only = { "x-speakeasy-param-readonly", "x-terraform-computed" },
  optional = { "x-speakeasy-param-optional" },
  force_new = { "x-speakeasy-param-force-new", "x-terraform-force-new", "x-terraform-immutable" },
  sensitive = { "x-speakeasy-param-sensitive", "x-terraform-sensitive" },
  id = { "x-terraform-id" },
}
local NAME_ANNOTATIONS = { "x-speakeasy-name-override", "x-terraform-field-name" }

function M.annotations(doc, node, file)
  local says = {}
  if type(node) ~= "table" then
    return says
  end
  local resolved = doc:resolve(node, file)
  local places = { node, type(resolved) == "table" and resolved or node }
  for meaning, keys in pairs(ANNOTATIONS) do
    for _, key in ipairs(keys) do
      for _, place in ipairs(places) do
        says[meaning] = says[meaning] or place[key] == true
      end
    end
  end
  for _, key in ipairs(NAME_ANNOTATIONS) do
    for _, place in ipairs(places) do
      if says.name == nil and type(place[key]) == "string" and place[key] ~= "" then
        says.name = place[key]
      end
    end
  end
  return says
end

-- M.properties, uncached.
properties_of = function(doc, node, file, depth, nest)
  if type(node) ~= "table" then
    return nil
  end
  local merged
  if type(node.allOf) == "table" then
    merged = merged_all_of(doc, node, file, depth)
  else
    merged = { properties = {}, required = node.required or {} }
    if type(node.properties) ~= "table" then
      return nil
    end
    for name, property in pairs(node.properties) do
      merged.properties[name] = { node = property, file = file }
    end
  end
  local required = {}
  for _, name in ipairs(type(merged.required) == "table" and merged.required or {}) do
    required[name] = true
  end
  local list = {}
  for wire, property in pairs(merged.properties) do
    local says = M.annotations(doc, property.node, property.file)
    if not says.ignore then
      local shape = M.shape(doc, property.node, property.file, depth, nest)
      shape.read_only = shape.read_only or says.read_only or nil
      shape.sensitive = shape.sensitive or says.sensitive or nil
      shape.force_new = says.force_new or nil
      list[#list + 1] = {
        wire = wire,
        name = M.attribute_name(says.name or wire),
        shape = shape,
        required = required[wire] == true and not says.optional,
        holds_id = says.id,
      }
    end
  end
  table.sort(list, function(a, b)
    return a.name < b.name
  end)
  return list
end

-- The tf type of a shape (the element type of a list or map).
function M.tf_type(tf, shape)
  if shape.kind == "number" then
    return tf.number
  elseif shape.kind == "bool" then
    return tf.bool
  elseif shape.kind == "list" then
    return (shape.set and tf.set or tf.list)(M.tf_type(tf, shape.element))
  elseif shape.kind == "map" then
    return tf.map(M.tf_type(tf, shape.element))
  end
  return tf.string
end

-- The validators a shape's facets ask for, or nil.
function M.validators(tf, shape)
  local list = {}
  if shape.enum and #shape.enum > 0 and (shape.kind == "string" or shape.kind == "number") then
    list[#list + 1] = tf.v.one_of(shape.enum)
  end
  if shape.kind == "number" and (shape.minimum or shape.maximum) then
    list[#list + 1] = tf.v.between(shape.minimum or -math.huge, shape.maximum or math.huge)
  end
  if shape.kind == "number" and shape.integer then
    list[#list + 1] = tf.v.integer()
  end
  if shape.kind == "string" and (shape.min_length or shape.max_length) then
    list[#list + 1] = tf.v.length_between(shape.min_length or 0, shape.max_length or math.huge)
  end
  if shape.kind == "string" and shape.pattern then
    -- One this module cannot read is left to the server (M.unchecked_pattern says why).
    list[#list + 1] = pattern.validator(shape.pattern)
  end
  if #list == 0 then
    return nil
  end
  return #list == 1 and list[1] or tf.v.all(table.unpack(list))
end

-- Why the pattern of a string shape is left to the server (the SDK cannot read it), or nil.
function M.unchecked_pattern(shape)
  if shape.kind == "string" and shape.pattern then
    return select(2, pattern.validator(shape.pattern))
  end
  return nil
end

-- `shape` kept as JSON text instead (its description and facets as they were).
function M.as_json(shape)
  local json_shape = {}
  for k, v in pairs(shape) do
    json_shape[k] = v
  end
  json_shape.kind, json_shape.properties, json_shape.element = "json", nil, nil
  return json_shape
end

-- Whether a shape is served as a nested attribute: an object, or a list or map of objects.
function M.is_nested(shape)
  return shape.kind == "object"
    or ((shape.kind == "list" or shape.kind == "map") and shape.element.kind == "object")
end

-- A value as the API sent it, as the attribute of `shape` holds it: JSON text for a json
-- shape, nil for null. Inside an object, a field the answer leaves out keeps what `known` (the
-- attribute's value in the plan or the state) has there, as a top-level one does.
function M.from_api(shape, value, known)
  if value == nil or value == null then
    return nil
  end
  if shape.kind == "json" then
    return json.encode(value)
  end
  if shape.kind == "object" and type(value) == "table" then
    known = type(known) == "table" and known or {}
    local object = {}
    for _, property in ipairs(shape.properties) do
      local field = value[property.wire]
      if field == nil then
        object[property.name] = known[property.name]
      else
        object[property.name] = M.from_api(property.shape, field, known[property.name])
      end
    end
    return object
  end
  if shape.kind == "list" and type(value) == "table" then
    known = type(known) == "table" and known or {}
    local list = {}
    for i, element in ipairs(value) do
      list[i] = M.from_api(shape.element, element, known[i])
    end
    return list
  end
  if shape.kind == "map" and type(value) == "table" then
    known = type(known) == "table" and known or {}
    local map = {}
    for k, element in pairs(value) do
      map[k] = M.from_api(shape.element, element, known[k])
    end
    return map
  end
  if shape.kind == "string" and type(value) ~= "string" then
    return tostring(value)
  end
  return value
end

-- A secret an API answers with in place of its value ("********", as Prefect does): three or
-- more asterisks and nothing else.
local function is_mask(value)
  return type(value) == "string" and value:match("^%*%*%*+$") ~= nil
end

local function holds_mask(value, depth)
  if is_mask(value) then
    return true
  end
  if type(value) == "table" and depth < 64 then
    for _, v in pairs(value) do
      if holds_mask(v, depth + 1) then
        return true
      end
    end
  end
  return false
end

-- `value` with each masked secret in it replaced by what `known` holds at the same place.
local function unmask(value, known, depth)
  if is_mask(value) then
    -- "" is what d:get gives for a value not known yet (a computed one during create).
    if known ~= nil and known ~= null and known ~= "" and type(known) ~= "table"
      and not is_mask(known) then
      return known
    end
    return value
  end
  if type(value) == "table" and type(known) == "table" and depth < 64 then
    for k, v in pairs(value) do
      value[k] = unmask(v, known[k], depth + 1)  -- only existing keys: safe while iterating
    end
  end
  return value
end

-- `value` without the members it has as null where `known` has none at all: an answer that
-- spells out every field of an object ({"strategy": "x", "grace": null}) holds what a
-- configuration that leaves "grace" out says.
local function without_added_nulls(value, known, depth)
  if type(value) == "table" and type(known) == "table" and depth < 64 then
    for k, v in pairs(value) do
      if v == null and type(k) == "string" and known[k] == nil then
        value[k] = nil  -- clearing a field while iterating is allowed
      else
        without_added_nulls(v, known[k], depth + 1)
      end
    end
  end
  return value
end

local function without_nulls(value, depth)
  if type(value) == "table" and depth < 64 then
    for k, v in pairs(value) do
      if v == null and type(k) == "string" then
        value[k] = nil
      else
        without_nulls(v, depth + 1)
      end
    end
  end
  return value
end

-- The diff_suppress of a JSON text attribute: the same content (key order, spacing and
-- number spelling aside), a member that is null counting as one left out, as APIs mean it
-- (Prefect answers {"collision_strategy": "ENQUEUE", "grace_period_seconds": null} for an
-- object created without the second).
function M.same_json(_, old, new)
  if type(old) ~= "string" or type(new) ~= "string" then
    return false
  end
  if json.equivalent(old, new) then
    return true
  end
  local old_ok, old_value = pcall(json.decode, old)
  local new_ok, new_value = pcall(json.decode, new)
  return old_ok and new_ok and json.equivalent(json.encode(without_nulls(old_value, 0)),
    json.encode(without_nulls(new_value, 0)))
end

-- Whether an answer of the API holds a masked secret (see M.settled).
function M.holds_mask(value)
  return holds_mask(value, 0)
end

-- A value as the API answered it (`value`, decoded JSON), settled against `known`, the
-- attribute's value as the plan or the state has it (JSON text for a json shape), so that a
-- read keeps what the configuration set instead of planning to send it again on every plan:
-- the secrets it masks ("********") are taken from `known` (a change made outside to one is
-- not seen: the API shows it to nobody), and, in JSON text, members it adds as null where
-- `known` has none are left out. `value` is changed in place.
function M.settled(shape, value, known)
  if known == nil then
    return value
  end
  if shape.kind == "json" then
    local ok, decoded = pcall(json.decode, known)
    if not ok then
      return value
    end
    return without_added_nulls(unmask(value, decoded, 0), decoded, 0)
  end
  return unmask(value, known, 0)
end

-- A value of the attribute of `shape` as the API takes it (the inverse of from_api).
function M.to_api(shape, value)
  if value == nil then
    return nil
  end
  if shape.kind == "json" then
    return json.decode(value)
  end
  if shape.kind == "object" then
    local object = {}
    for _, property in ipairs(shape.properties) do
      if not property.shape.read_only then
        object[property.wire] = M.to_api(property.shape, value[property.name])
      end
    end
    return object
  end
  if shape.kind == "list" then
    local list = json.array()
    for i, element in ipairs(value) do
      list[i] = M.to_api(shape.element, element)
    end
    return list
  end
  if shape.kind == "map" then
    local map = {}
    for k, element in pairs(value) do
      map[k] = M.to_api(shape.element, element)
    end
    return map
  end
  if shape.kind == "number" and shape.integer then
    return math.tointeger(value) or value
  end
  return value
end

M.ref_name = document.ref_name

return M
