-- luaform_openapi_types: which types a description's operations make, and the hooks that serve
-- them. Internal to the SDK (scripts use tf.openapi). The conventions, each once:
--   a resource    a collection path with a POST and an item path below it (the collection and
--                 one `{parameter}` more) with a GET; the item's PUT or PATCH updates it and its
--                 DELETE deletes it. Or, where an API names its objects by links (Pulp's
--                 `pulp_href`), an item path that is only a parameter ("{repository_href}")
--                 whose GET's operationId is the collection POST's with `_read` or
--                 `_retrieve` for `_create`: the link is the object's id.
--   a data source an item path with a GET and no POST on its collection.
-- Path parameters of the collection are required arguments that replace the object when they
-- change; the item's parameter is the object's id. A type is named after the schema its GET
-- answers with ("#/definitions/Zone": zone), else after the collection ("zones": zone).

local json = require("luaform_json")
local paths = require("luaform_paths")
local sorted_keys = require("luaform_check").sorted_keys
local schema = require("luaform_openapi_schema")
local api = require("luaform_openapi_api")

local null = json.null

local M = {}

-- "zones" as "zone", "policies" as "policy", "addresses" as "address".
function M.singular(word)
  if word:match("ies$") then
    return (word:gsub("ies$", "y"))
  elseif word:match("sses$") or word:match("xes$") or word:match("ches$")
    or word:match("shes$") then
    return (word:gsub("es$", ""))
  elseif word:match("[^s]s$") then
    return (word:gsub("s$", ""))
  end
  return word
end

-- The `{name}`s of a path template, in order.
local function path_parameters(path)
  local names = {}
  for name in path:gmatch("{([^}]+)}") do
    names[#names + 1] = name
  end
  return names
end

-- The attribute name of each path parameter of `collection`: its own, snake_case, but for
-- `id`, which every object has: the name of what it is the id of ("/flow_runs/{id}/input":
-- flow_run_id).
local function parent_names(collection)
  local names, before = {}, "parent"
  for segment in collection:gmatch("[^/]+") do
    for name in segment:gmatch("{([^}]+)}") do
      local attribute = schema.attribute_name(name)
      if attribute == "id" then
        attribute = schema.attribute_name(M.singular(before)) .. "_id"
      end
      names[name] = attribute
    end
    if not segment:find("[{}]") then
      before = segment
    end
  end
  return names
end

-- The collection an item path belongs to ("/zones" for "/zones/{id}"), and its parameter.
local function collection_of(path)
  local collection, parameter = path:match("^(.*)/{([^}/]+)}$")
  return collection, parameter
end

-- Words schema names end with that say which message a schema is, not what it holds
-- (WorkPoolResponse, DeploymentRead).
local MESSAGE_SUFFIXES = { "Response", "Read", "Output", "Out", "Dto", "DTO", "Model" }

-- The type name the operations of a collection give: their schema's, else the collection's.
local function type_name(collection, read)
  local named = schema.ref_name(read and read.response)
  if named then
    for _, suffix in ipairs(MESSAGE_SUFFIXES) do
      local stem = named:match("^(.-%w)" .. suffix .. "$")
      if stem and #stem > 1 then
        named = stem
        break
      end
    end
    return schema.attribute_name(named)
  end
  local last = collection:match("([^/{}]+)/*$") or "object"
  return schema.attribute_name(M.singular(last))
end

-- Whether an annotation leaves out the type `op` belongs to (x-terraform-exclude-resource).
local function excluded(op)
  return op ~= nil and op ~= false and op.operation["x-terraform-exclude-resource"] == true
end

-- The type name annotations give the first of `ops` that has one: Speakeasy's
-- x-speakeasy-entity-operation ("Pet#create": pet) or x-terraform-resource-name.
local function annotated_name(...)
  for _, op in ipairs({ ... }) do
    local operation = op.operation
    local entity = operation["x-speakeasy-entity-operation"]
    if type(entity) == "string" and entity:match("^[^#]+") then
      return schema.attribute_name(entity:match("^[^#]+"))
    end
    if type(operation["x-terraform-resource-name"]) == "string" then
      return schema.attribute_name(operation["x-terraform-resource-name"])
    end
  end
  return nil
end

-- The operations of a description grouped as types: { resources = { name = plan },
-- data_sources = { name = plan }, claimed = { [operation] = true } }, where a plan holds the
-- operations one type is served by.
function M.plan(doc)
  local by_path = {}
  for _, op in ipairs(doc:operations()) do
    if op.operation["x-speakeasy-ignore"] ~= true then
      by_path[op.path] = by_path[op.path] or {}
      by_path[op.path][op.method] = op
    end
  end
  local found = { resources = {}, data_sources = {}, claimed = {}, problems = {} }
  local function claim(kind, name, plan, where)
    if found[kind][name] then
      -- Two collections give the same name: the deeper one is named with its parent too.
      local parent = plan.collection:match("([^/{}]+)/{[^}]+}/[^/]+$")
      local qualified = parent and schema.attribute_name(M.singular(parent)) .. "_" .. name
      if not qualified or found[kind][qualified] then
        found.problems[#found.problems + 1] = where .. ": the type name " .. name
          .. " is taken by " .. found[kind][name].where .. "; name it in the mapping"
        return
      end
      name = qualified
    end
    plan.where, plan.name = where, name
    found[kind][name] = plan
    for _, op in pairs(plan.operations) do
      found.claimed[op] = true
    end
  end
  local bare_paths = {}
  for path, ops in pairs(by_path) do
    -- "/variables/" and "/variables" are one collection, "/zones/{id}/" and "/zones/{id}" one
    -- item.
    local bare = path:gsub("(.)/+$", "%1")
    if bare ~= path and by_path[bare] == nil then
      bare_paths[bare] = ops
    end
  end
  -- Added after the walk: a table given new keys while pairs walks it may skip some.
  for bare, ops in pairs(bare_paths) do
    by_path[bare] = ops
  end
  -- The collection POSTs by the stem of their operationId ("repositories_file_create":
  -- "repositories_file"), for items named by links.
  local creates = {}
  for _, op in ipairs(doc:operations()) do
    local stem = op.method == "post" and op.id and op.id:match("^(.+)_create$")
    if stem then
      creates[stem] = op
    end
  end
  for _, path in ipairs(sorted_keys(by_path)) do
    local item = by_path[path]
    local collection, parameter = collection_of(path)
    local link = path:match("^{([^}/]+)}/*$")
    if link and item.get and item.get.id then
      local stem = item.get.id:match("^(.+)_read$") or item.get.id:match("^(.+)_retrieve$")
      local create = stem and creates[stem]
      if create and not excluded(create) and not excluded(item.get) then
        claim("resources", annotated_name(create, item.get) or type_name(create.path, item.get), {
          collection = create.path,
          item = item.get.path,
          id_parameter = link,
          link = true,
          parents = path_parameters(create.path),
          parent_names = parent_names(create.path),
          operations = {
            create = create, read = item.get, update = item.put or item.patch,
            delete = item.delete, list = by_path[create.path] and by_path[create.path].get,
          },
        }, item.get.where)
      end
      goto next_path
    end
    local create = collection and by_path[collection] and by_path[collection].post
    if excluded(create) or excluded(item.get) then
      goto next_path
    end
    if create and item.get then
      local filter = by_path[collection .. "/filter"]
      claim("resources", annotated_name(create, item.get) or type_name(collection, item.get), {
        collection = collection,
        item = item.get.path,  -- as written: "/zones/{id}/" keeps its slash
        id_parameter = parameter,
        parents = path_parameters(collection),
        parent_names = parent_names(collection),
        operations = {
          create = create, read = item.get, update = item.put or item.patch,
          delete = item.delete, list = by_path[collection].get or (filter and filter.post),
        },
      }, item.get.where)
    elseif collection and item.get then
      claim("data_sources", annotated_name(item.get) or type_name(collection, item.get), {
        collection = collection,
        item = item.get.path,  -- as written: "/zones/{id}/" keeps its slash
        id_parameter = parameter,
        operations = { read = item.get },
      }, item.get.where)
    end
    ::next_path::
  end
  return found
end

-- The field of its answers that holds the id of an object of `plan`: the one the author's
-- options name, else the one an annotation marks (x-terraform-id), else nil (see id_fields).
function M.id_field(doc, plan, options)
  if type(options) == "table" and options.id then
    return options.id
  end
  local read = plan.operations.read
  local depth = type(options) == "table" and options.depth or nil
  local properties = schema.properties(doc, read.response, read.response_file, depth) or {}
  for _, property in ipairs(properties) do
    if property.holds_id then
      return property.wire
    end
  end
  -- An object named by a link holds it in the field that ends like its parameter
  -- ("repository_href": pulp_href); of several (versions_href, latest_version_href: links to
  -- its parts), the shortest name is its own.
  local word = plan.link and plan.id_parameter:match("_([^_]+)$")
  local link
  for _, property in ipairs(word and properties or {}) do
    local wire = property.wire
    if wire:sub(-#word - 1) == "_" .. word and (link == nil or #wire < #link) then
      link = wire
    end
  end
  return link
end

-- The fields that may hold an object's id, in order: the one the author named, the one named
-- like the item's parameter, `id`, and the parameter's last word ("metadata_kind": kind).
local function id_fields(plan, id_field)
  local fields = {}
  for _, field in ipairs({ id_field or false, plan.id_parameter or false, "id",
    plan.id_parameter and plan.id_parameter:match("_([^_]+)$") or false }) do
    if field then
      fields[#fields + 1] = field
    end
  end
  return fields
end

-- What the attributes of a resource are and where each comes from: { name = { shape, wire,
-- in_body, in_update, read, required } }, with the path parameters of its collection.
local function attributes_of(doc, plan, depth, id_field)
  local ops = plan.operations
  local fields = {}
  local function add(list, role)
    for _, property in ipairs(list or {}) do
      local field = fields[property.name]
      if field == nil then
        field = { name = property.name, wire = property.wire, shape = property.shape }
        fields[property.name] = field
      end
      field[role] = true
      if role == "in_body" then
        field.required = property.required and not property.shape.read_only
        field.shape = property.shape
      end
    end
  end
  add(ops.read and schema.properties(doc, ops.read.response, ops.read.response_file, depth),
    "read")
  if ops.create then
    local body = schema.properties(doc, ops.create.body, ops.create.body_file, depth)
    local writable = {}
    for _, property in ipairs(body or {}) do
      if not property.shape.read_only then
        writable[#writable + 1] = property
      end
    end
    add(writable, "in_body")
  end
  if ops.update then
    add(schema.properties(doc, ops.update.body, ops.update.body_file, depth), "in_update")
  end
  for _, field in pairs(fields) do
    -- An object only the API writes stays JSON text: a nested attribute computed as a whole
    -- cannot be planned as changing on update, and the API may change it with any update.
    if not field.in_body and schema.is_nested(field.shape) then
      field.shape = schema.as_json(field.shape)
    end
  end
  fields.id = nil  -- the object's id is the resource's id
  for _, name in ipairs(id_fields(plan, id_field)) do
    if fields[schema.attribute_name(name)] then
      fields[schema.attribute_name(name)].holds_id = true
    end
  end
  local parents = path_parameters(plan.collection)
  for _, parent in ipairs(parents) do
    fields[plan.parent_names[parent]] = nil
  end
  return fields, parents
end

-- What replaces the object: a change of a value that was known. A value the state has as
-- null was never known (an imported object, a field the API takes and never answers with,
-- such as PowerDNS's nameservers): setting it changes the object in place.
local function replaced_when_known(old)
  return old ~= nil
end

local declare  -- below

-- Options a nested attribute does not take, which its inner attributes take instead.
local NOT_NESTED = { validate = true, diff_suppress = true, changes_on_update = true,
  requires_replace_if = true, default = true, state_func = true }

-- The attributes inside a nested object: optional and kept from what the server says, or
-- computed (read-only ones; all of a data source's, `computed_only`). None is required, even
-- where the description says so (the server checks that): the CLI takes a nested attribute
-- whose stored value holds one attribute that is not computed as set by the configuration,
-- and would plan to remove every object the server fills in by itself (PowerDNS's rrsets).
local function nested_schema(tf, properties, updatable, computed_only)
  local inner = {}
  for _, property in ipairs(properties) do
    local shape = property.shape
    local options = {
      description = shape.description,
      sensitive = shape.sensitive or nil,
      deprecated = shape.deprecated and "deprecated by the API's description" or nil,
    }
    if computed_only or shape.read_only then
      options.computed = true
    else
      options.validate = schema.validators(tf, shape)
      options.optional, options.computed = true, true
      if shape.kind == "json" then
        options.diff_suppress = schema.same_json
      end
    end
    if options.computed and updatable and not computed_only then
      options.changes_on_update = true
    end
    inner[property.name] = declare(tf, shape, options, updatable, computed_only)
  end
  return inner
end

-- The tf attribute of `shape` with `options`: a nested attribute for an object or a list or
-- map of them (protocol 6), else an attribute of the shape's type.
declare = function(tf, shape, options, updatable, computed_only)
  if not schema.is_nested(shape) then
    return schema.tf_type(tf, shape)(options)
  end
  local object = shape.kind == "object" and shape or shape.element
  local nested = {}
  for k, v in pairs(options) do
    if not NOT_NESTED[k] then
      nested[k] = v
    end
  end
  nested.schema = nested_schema(tf, object.properties, updatable, computed_only)
  if shape.kind == "object" then
    return tf.single_nested(nested)
  elseif shape.kind == "map" then
    return tf.map_nested(nested)
  end
  return (shape.set and tf.set_nested or tf.list_nested)(nested)
end

-- The tf attribute of a field of a resource (`updatable`: the resource has an update).
local function resource_attribute(tf, field, updatable, override)
  local shape = field.shape
  override = override or {}
  if override.set ~= nil then
    -- `set = true`: an array whose order means nothing to the API is a set, so that reading
    -- it back in another order plans nothing.
    if shape.kind ~= "list" then
      error(string.format("attribute %s: set = true needs an array; the description states %s",
        field.wire, shape.kind == "json" and "a value kept as JSON text" or "a " .. shape.kind), 0)
    end
    local copy = {}
    for k, v in pairs(shape) do
      copy[k] = v
    end
    copy.set = override.set == true
    shape = copy
  end
  local options = {
    description = shape.description,
    sensitive = shape.sensitive or nil,
    validate = field.in_body and schema.validators(tf, shape) or nil,
    deprecated = shape.deprecated and "deprecated by the API's description" or nil,
  }
  if field.in_body and field.required then
    options.required = true
  elseif field.in_body then
    -- Optional arguments the server fills when they are not given are kept from what it says.
    options.optional, options.computed = true, true
  else
    options.computed = true
  end
  -- Nothing in a description says which values an update leaves alone (a serial, a modified
  -- time): the plan of an update shows what the configuration does not set as known after it.
  -- But for the object's id, which an update keeps, and which other objects refer to.
  if options.computed and updatable and not field.holds_id then
    options.changes_on_update = true
  end
  -- A field the update does not take, or the one that holds the id (the object's URL changes
  -- with it), can change only by replacing the object.
  if field.in_body and (not updatable or field.holds_id or shape.force_new
      or (field.in_update == nil and updatable == "partial")) then
    options.force_new = true
  end
  if shape.kind == "json" and field.in_body then
    options.diff_suppress = schema.same_json
  end
  for k, v in pairs(override) do
    if k ~= "set" then
      options[k] = v
    end
  end
  if schema.is_nested(shape) then
    -- A nested attribute takes force_new as it is; the server fills what it is not given.
    return declare(tf, shape, options, updatable, false)
  end
  -- force_new (the mapping's or the author's; false turns the mapping's off) replaces the
  -- object only when the value was known.
  if options.force_new and options.requires_replace_if == nil then
    options.requires_replace_if = replaced_when_known
  end
  options.force_new = nil
  return schema.tf_type(tf, shape)(options)
end

-- The body of a write: each field the operation takes, from d.
local function body_of(d, fields, role)
  local body = {}
  for name, field in pairs(fields) do
    if field[role] and not d:is_null(name) then
      body[field.wire] = schema.to_api(field.shape, d:get(name))
    end
  end
  return body
end

-- Copies what the API answered into d: each field it returned (a write-only one never is),
-- settled against what d has (schema.settled): a secret it masks, a null it adds in JSON text,
-- a field of a nested object it leaves out.
local function record(d, fields, object)
  if type(object) ~= "table" then
    return
  end
  for name, field in pairs(fields) do
    local value = object[field.wire]
    if field.read and not field.shape.write_only and value ~= nil then
      local shape = field.shape
      local known = (shape.kind == "json" or schema.is_nested(shape) or schema.holds_mask(value))
        and d:get(name) or nil
      local converted
      if shape.kind == "json" then
        -- JSON text is settled as the API spells it.
        converted = schema.from_api(shape, schema.settled(shape, value, known))
      else
        converted = schema.from_api(shape, value, known)
        if known ~= nil and schema.holds_mask(converted) then
          converted = schema.settled(shape, converted, known)
        end
      end
      d:set(name, converted)
    end
  end
end

-- The id an object of `plan` holds: the first of id_fields it has, or nil.
function M.id_in(object, plan, id_field)
  if type(object) ~= "table" then
    return nil
  end
  for _, field in ipairs(id_fields(plan, id_field)) do
    if object[field] ~= nil and object[field] ~= null then
      return tostring(object[field])
    end
  end
  return nil
end

local function last_segment(link)
  local last = link and link:gsub("[?#].*$", ""):gsub("/+$", ""):match("([^/]+)$")
  return last and paths.unescape(last)
end

-- The id a create's answer gives: of what the work it started made (a 202 followed to its
-- end), else of the answer's object, else the last segment of a Location header (which a 202
-- gives to its status, not to the object).
local function created_id(object, response, plan, id_field)
  -- An object named by a link has the whole link as its id.
  local made = plan.link and response.created or last_segment(response.created)
  local id = made or M.id_in(object, plan, id_field)
    or (response.status ~= 202 and last_segment(response.headers.location))
  if id then
    return id
  end
  error(string.format("the answer to %s (status %d) has no id (no %s field, no Location "
    .. "header); name the field with the mapping's id option", plan.operations.create.where,
    response.status, plan.id_parameter or "id"), 0)
end

-- Whether `op` answers with the object itself: a 200 or 201 stated with the very schema the
-- read answers with. Its answer is then recorded as a read's would be and no GET follows it;
-- any other answer (202, 204, only a Location, another schema) is read back.
local function answers_object(doc, op, read)
  if not (op and op.response and read.response) or (op.status ~= "200" and op.status ~= "201") then
    return false
  end
  local answered = doc:resolve(op.response, op.response_file)
  return type(answered) == "table" and answered == doc:resolve(read.response, read.response_file)
end

-- The hooks of a resource served by `plan`'s operations (a resource_model) through `call`;
-- `answered` says which writes answer with the object (answers_object), as
-- { create = bool, update = bool }.
local function resource_hooks(plan, fields, parents, options, call, answered)
  local ops = plan.operations
  local gone = options.gone or { 404 }
  -- The type's poll option, when it has one (else the provider's, which the client holds).
  local extra = { poll = options.poll }
  local function parameters(d, with_id)
    local values = {}
    for _, parent in ipairs(parents) do
      values[parent] = d:get(plan.parent_names[parent])
    end
    if with_id then
      values[plan.id_parameter] = d:id()
    end
    return values
  end
  local hooks = {}
  hooks.read = function(d, client)
    local object, response = call(client, ops.read, parameters(d, true), nil, gone, extra)
    for _, status in ipairs(gone) do
      if response.status == status then
        d:set_id("")
        return
      end
    end
    record(d, fields, object)
  end
  hooks.create = function(d, client)
    local object, response = call(client, ops.create, parameters(d, false),
      body_of(d, fields, "in_body"), nil, extra)
    d:set_id(created_id(object, response, plan, plan.id_field))
    -- Read back unless the answer is the object: a 201 with only a Location, a 204 or another
    -- schema says too little, and what the server keeps is what the next plan compares with.
    -- A 202 is not the object, whatever else the description states.
    if answered.create and type(object) == "table" and response.status ~= 202 then
      record(d, fields, object)
    else
      hooks.read(d, client)
    end
  end
  if ops.update then
    hooks.update = function(d, client)
      local object, response = call(client, ops.update, parameters(d, true),
        body_of(d, fields, "in_update"), nil, extra)
      -- Pulp answers a PATCH that changes nothing with the object, one that does with a task.
      if answered.update and type(object) == "table" and response.status ~= 202 then
        record(d, fields, object)
      else
        hooks.read(d, client)
      end
    end
  end
  hooks.delete = function(d, client)
    if ops.delete then
      call(client, ops.delete, parameters(d, true), nil, gone, extra)
    end
  end
  hooks.import = function(d)
    -- By identity, the parents and the id are set already. By id, the import id names the
    -- parents first: "localhost/example.org." for a zone of server localhost.
    if #parents == 0 or d:identity() then
      return
    end
    local parts = {}
    local rest = d:id()
    for _ = 1, #parents do
      local part, after = rest:match("^([^/]*)/(.+)$")
      if not part then
        error(string.format("expected an import id of the form %s/ID, got %s",
          table.concat(parents, "/"):upper(), d:id()), 0)
      end
      parts[#parts + 1], rest = paths.unescape(part), after
    end
    for i, parent in ipairs(parents) do
      d:set(plan.parent_names[parent], parts[i])
    end
    d:set_id(rest)
  end
  return hooks
end

-- What a hook needs of an operation, as plain data (the model is kept between starts).
function M.operation_model(op)
  return op and { method = op.method, path = op.path, id = op.id, where = op.where } or nil
end

-- What `plan`'s resource is made of, as plain data (luaform_openapi_model): its fields and
-- where each comes from, its operations, its parents and id. `settings`: { depth, id }, the
-- author's options the mapping reads.
function M.resource_model(doc, plan, settings)
  local id_field = M.id_field(doc, plan, settings)
  local fields, parents = attributes_of(doc, plan, settings.depth, id_field)
  local ops = plan.operations
  local unchecked = {}
  -- A pattern the SDK cannot read is left to the server; --check names each one an argument
  -- would be validated by.
  for name, field in pairs(fields) do
    local why = field.in_body and schema.unchecked_pattern(field.shape)
    if why then
      unchecked[name] = string.format(
        "%s: attribute %s: its pattern %s is not checked (%s); the server checks it",
        ops.create.where, name, field.shape.pattern, why)
    end
  end
  local description = ops.read.operation.description or ops.read.operation.summary
  local operations = {}
  for role, op in pairs(ops) do
    operations[role] = M.operation_model(op)
  end
  return {
    name = plan.name,
    where = plan.where,
    link = plan.link,
    id_parameter = plan.id_parameter,
    parent_names = plan.parent_names,
    operations = operations,
    id_field = id_field,
    fields = fields,
    parents = parents,
    updatable = ops.update and (ops.update.body and "partial" or true) or false,
    answers_object = {
      create = answers_object(doc, ops.create, ops.read),
      update = answers_object(doc, ops.update, ops.read),
    },
    unchecked = unchecked,
    description = type(description) == "string" and description or nil,
  }
end

-- A tf.resource made from `model` (resource_model), with the author's `options` (see
-- tf.openapi.provider). `notes` gets --check's notes of the attributes it keeps.
function M.resource(tf, model, options, call, notes)
  options, notes = options or {}, notes or {}
  local fields = {}
  for name, field in pairs(model.fields) do
    fields[name] = field
  end
  local parents = model.parents
  local attributes = options.attributes or {}
  local declared = {}
  for _, parent in ipairs(parents) do
    declared[model.parent_names[parent]] = tf.string {
      required = true,
      force_new = true,
      description = "The " .. parent .. " the object belongs to (a path parameter)",
    }
  end
  for name, field in pairs(model.fields) do
    if attributes[name] ~= false then
      declared[name] = resource_attribute(tf, field, model.updatable, attributes[name])
      notes[#notes + 1] = model.unchecked[name]
    else
      fields[name] = nil
    end
  end
  -- The identity names the object by its parents and id: import blocks and list resources
  -- use it.
  local identity = {
    id = tf.string { required_for_import = true, description = "The object's id" },
  }
  for _, parent in ipairs(parents) do
    identity[model.parent_names[parent]] = tf.string {
      required_for_import = true, description = "The " .. parent .. " (a path parameter)",
    }
  end
  local read_back = options.read_after_write == true
  local hooks = resource_hooks(model, fields, parents, options, call, {
    create = not read_back and model.answers_object.create,
    update = not read_back and model.answers_object.update,
  })
  local ops = model.operations
  local definition = {
    description = model.description,
    schema = declared,
    create = options.create or hooks.create,
    read = options.read or hooks.read,
    update = options.update or (ops.update and hooks.update) or nil,
    delete = options.delete or hooks.delete,
    import = options.import or hooks.import,
    timeouts = options.timeouts,
    identity = { schema = identity },
  }
  return tf.resource(definition)
end

-- What `plan`'s data source is made of, as plain data: its path parameters are its
-- arguments, the rest computed. `settings`: { depth }.
function M.data_source_model(doc, plan, settings)
  local read = plan.operations.read
  local fields = {}
  for _, property in ipairs(schema.properties(doc, read.response, read.response_file,
    settings.depth) or {}) do
    fields[property.name] = { wire = property.wire, shape = property.shape, read = true }
  end
  local arguments = path_parameters(plan.item)
  local argument_names = {}
  local names = parent_names(plan.item)
  for i, parameter in ipairs(arguments) do
    -- `id` is every object's own: the item's parameter of that name is the type's
    -- ("species_id"), a parent's its collection's ("/groups/{id}/members/{user_id}": group_id).
    local name = names[parameter]
    if i == #arguments and schema.attribute_name(parameter) == "id" then
      name = plan.name .. "_id"
    end
    argument_names[parameter] = name
    fields[name] = nil
  end
  fields.id = nil
  local description = read.operation.description or read.operation.summary
  return {
    name = plan.name,
    where = plan.where,
    item = plan.item,
    read = M.operation_model(read),
    fields = fields,
    arguments = arguments,
    argument_names = argument_names,
    description = type(description) == "string" and description or nil,
  }
end

-- A tf.data_source made from `model` (data_source_model).
function M.data_source(tf, model, options, call)
  options = options or {}
  local declared = {}
  for _, parameter in ipairs(model.arguments) do
    declared[model.argument_names[parameter]] = tf.string {
      required = true, description = "The " .. parameter .. " (a path parameter)",
    }
  end
  for name, field in pairs(model.fields) do
    declared[name] = declare(tf, field.shape, {
      computed = true, description = field.shape.description,
      sensitive = field.shape.sensitive or nil,
    }, false, true)
  end
  return tf.data_source {
    description = model.description,
    schema = declared,
    read = options.read or function(d, client)
      local values = {}
      for _, parameter in ipairs(model.arguments) do
        values[parameter] = d:get(model.argument_names[parameter])
      end
      local object = call(client, model.read, values)
      d:set_id(api.filled(model.item, values))
      record(d, model.fields, object)
    end,
  }
end

return M
