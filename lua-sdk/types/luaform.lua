---@meta
-- luacheck: no unused, max comment line length 600
-- Type definitions of `require("luaform")` for lua-language-server and EmmyLua (LuaCATS
-- annotations). The host never loads this file: the SDK itself is in lua-sdk/*.lua and in the
-- host. The authoring guide (lua-sdk/README.md) says what each call does in full.

-- A table an author writes for the SDK (options, definitions) is an exact class whose parent,
-- `{ name?: any, ..., [string]: nil }`, lists its fields again: EmmyLua then reports any other
-- key in such a table (`requird = true`) as a type mismatch. Keep the two lists alike
-- (tests/lint/lua_types.sh checks that they are).

-------------------------------------------------------------------------------
-- Values shared by the whole SDK

--- Text that documentation tools render as markdown (made by `tf.markdown`).
---@class luaform.Markdown
---@field kind "markdown"
---@field text string

--- Plain text, or markdown made with `tf.markdown`.
---@alias luaform.Description string|luaform.Markdown

--- Seconds (`90`, `1.5`) or a duration in Terraform's spelling (`"90s"`, `"10m"`, `"1h30m"`).
---@alias luaform.Duration number|string

--- The client `configure` returned: whatever the provider chose (often a `luaform.HttpClient`).
---@alias luaform.Client any

--- The one value standing for "known after apply" (`tf.unknown`). Compare with `==`.
---@class luaform.Unknown

-------------------------------------------------------------------------------
-- Schema: types, attributes, blocks, nested attributes

--- A Terraform type: `tf.string`, `tf.list(tf.number)`, `tf.object { ... }`. Called with an
--- options table it declares an attribute of that type. Uncalled, it is a function
--- parameter's or result's type.
---@class luaform.Type
---@field kind "type"
---@field name "string"|"number"|"bool"|"dynamic"|"list"|"set"|"map"|"object"
---@field element? luaform.Type the element type of a list, set or map
---@field attributes? table<string, luaform.Type> the attribute types of an object
---@overload fun(options: luaform.AttributeOptions): luaform.Attribute

--- A check of one known, non-null value: returns nil when it is fine, else a message.
--- `path` is the value's address (`"disk.0.size"`).
---@alias luaform.Validator fun(value: any, path: string, p: luaform.HookRequest): string?

--- Says whether two spellings are the same value: `address` is the attribute's address
--- (`"rule.0.host"`), `old` the stored value, `new` the configured or read one.
---@alias luaform.Suppressor fun(address: string, old: any, new: any, p: luaform.HookRequest): boolean

--- The request every hook of one attribute gets, last (a plan function, first). Each field is
--- there where the step has it; unknown parts are `tf.unknown`.
---@class luaform.HookRequest
---@field path string the attribute's address (`"disk.0.size"`)
---@field config any the configured value (nil when unset, or when the step has no configuration)
---@field state any the stored value (nil for a new object, or when the step has no state)
---@field planned any the planned value (plan functions and `requires_replace_if`)
---@field object table<string, any> the object holding the attribute (an element inside blocks)
---@field resource table<string, any> the whole resource: the configuration while validating, the plan while planning, what was read or applied while comparing spellings

--- What a `plan` function is given. Unknown parts are `tf.unknown`.
---@class luaform.PlanContext : luaform.HookRequest
---@field config any the configured value (nil when unset)
---@field state any the stored value (nil for a new object)
---@field planned any the value planned so far
---@field object table<string, any> the planned object holding the attribute (an element inside blocks)
---@field resource table<string, any> the whole planned resource

--- What is known of a computed value before apply.
---@class (exact) luaform.Refinement : { not_null?: any, prefix?: any, min?: any, max?: any, min_length?: any, max_length?: any, [string]: nil }
---@field not_null? boolean the value will not be null
---@field prefix? string strings: the value starts with this
---@field min? number numbers: inclusive lower bound
---@field max? number numbers: inclusive upper bound
---@field min_length? integer lists, sets, maps: fewest elements
---@field max_length? integer lists, sets, maps: most elements

--- The options of an attribute: `tf.string { required = true, ... }`. Set exactly one of
--- `required`, `optional` and `computed` (`optional` and `computed` may go together).
---@class (exact) luaform.AttributeOptions : { required?: any, optional?: any, computed?: any, force_new?: any, requires_replace_if?: any, plan?: any, refine?: any, changes_on_update?: any, use_state_for_unknown?: any, sensitive?: any, write_only?: any, default?: any, description?: any, deprecated?: any, removed?: any, validate?: any, diff_suppress?: any, state_func?: any, element_state_func?: any, conflicts_with?: any, required_with?: any, exactly_one_of?: any, at_least_one_of?: any, required_for_import?: any, optional_for_import?: any, [string]: nil }
---@field required? boolean the configuration must set it
---@field optional? boolean the configuration may set it
---@field computed? boolean the provider sets it (with `optional`: when the configuration does not)
---@field force_new? boolean a change replaces the resource
---@field requires_replace_if? fun(old: any, new: any, client: luaform.Client, p: luaform.HookRequest): boolean? decides per change whether it replaces the resource
---@field plan? fun(p: luaform.PlanContext, client: luaform.Client): any (computed) the value to plan; nil keeps the plan's
---@field refine? luaform.Refinement (computed) what is known before apply
---@field changes_on_update? boolean (computed) a new value after every update
---@field use_state_for_unknown? boolean (computed) updates keep the stored value; the default
---@field sensitive? boolean hidden in plans, logs and diagnostics
---@field write_only? boolean sent to create and update, never planned or stored
---@field default? any the value planned when unset: a value, or a function run once at start (`tf.env(...)`)
---@field description? luaform.Description documentation
---@field deprecated? string still works; using it warns with this message
---@field removed? string setting it is an error with this message
---@field validate? luaform.Validator|luaform.Validator[] checks of each known value (see `tf.v`)
---@field diff_suppress? luaform.Suppressor counts two spellings as one value (see `tf.suppress`)
---@field state_func? fun(value: any, p: luaform.HookRequest): any the normal form of a value; equal forms are the same value
---@field element_state_func? fun(element: any, p: luaform.HookRequest): string|number|boolean (`tf.set(T)`) the normal form of an element; equal forms are the same element
---@field conflicts_with? string[] addresses that must not be set together with this one
---@field required_with? string[] addresses that must be set when this one is
---@field exactly_one_of? string[] a group of which exactly one is set
---@field at_least_one_of? string[] a group of which at least one is set
---@field required_for_import? boolean identity attributes only: an import by identity must give it
---@field optional_for_import? boolean identity attributes only: an import by identity may give it

--- An attribute declaration, as `tf.string { ... }` returns it.
---@class luaform.Attribute : luaform.AttributeOptions
---@field kind "attribute"
---@field type luaform.Type

--- The options of `tf.list_block`, `tf.set_block` and `tf.single_block`.
---@class (exact) luaform.BlockOptions : { schema?: any, required?: any, optional?: any, computed?: any, force_new?: any, min_items?: any, max_items?: any, element_state_func?: any, description?: any, deprecated?: any, [string]: nil }
---@field schema luaform.Schema the block's attributes and blocks
---@field required? boolean at least one block (a single block: the block must be there)
---@field optional? boolean the block may be left out (the default)
---@field computed? boolean (resources) left out, the provider fills it in and the state keeps it; Terraform 1.16 or later, protocol 6
---@field force_new? boolean any change inside replaces the resource
---@field min_items? integer fewest blocks (list and set blocks)
---@field max_items? integer most blocks (list and set blocks)
---@field element_state_func? fun(element: table, p: luaform.HookRequest): string|number|boolean (`tf.set_block`) the normal form of an element; equal forms are the same element
---@field description? luaform.Description documentation
---@field deprecated? string still works; using it warns with this message

--- A nested block declaration, as `tf.list_block { ... }` returns it.
---@class luaform.Block : luaform.BlockOptions
---@field kind "block"
---@field nesting "list"|"set"|"single"

--- The options of `tf.single_nested`, `tf.list_nested`, `tf.set_nested` and `tf.map_nested`
--- (protocol 6). Set one of `required`, `optional` and `computed`.
---@class (exact) luaform.NestedOptions : { schema?: any, required?: any, optional?: any, computed?: any, sensitive?: any, force_new?: any, element_state_func?: any, description?: any, deprecated?: any, [string]: nil }
---@field schema table<string, luaform.Attribute|luaform.NestedAttribute> attributes only, no blocks
---@field required? boolean the configuration must set it
---@field optional? boolean the configuration may set it
---@field computed? boolean the provider sets it (with `optional`: when the configuration does not)
---@field sensitive? boolean hidden in plans, logs and diagnostics
---@field force_new? boolean a change replaces the resource
---@field element_state_func? fun(element: table, p: luaform.HookRequest): string|number|boolean (`tf.set_nested`) the normal form of an element; equal forms are the same element
---@field description? luaform.Description documentation
---@field deprecated? string still works; using it warns with this message

--- A nested attribute declaration, as `tf.list_nested { ... }` returns it.
---@class luaform.NestedAttribute : luaform.NestedOptions
---@field kind "nested_attribute"
---@field nesting "single"|"list"|"set"|"map"

--- Attribute names (lowercase letters, digits and `_`) and what they are.
---@alias luaform.Schema table<string, luaform.Attribute|luaform.Block|luaform.NestedAttribute>

-------------------------------------------------------------------------------
-- ResourceData: the `d` every function of a resource, data source or ephemeral resource gets

--- The object one call works on. `key` is an attribute name or a dotted address
--- (`"tags.env"`, `"disk.0.size"`; list elements count from 0). `d` belongs to its call.
---@class (exact) luaform.ResourceData
local ResourceData = {}

--- The value: what the function set, else the plan, else the configuration, else the state.
--- Unset values read as their type's zero value (`""`, `0`, `false`, `{}`).
---@param key string
---@return any
function ResourceData:get(key) end

--- The value, and whether it is set to something other than the zero value.
---@param key string
---@return any value
---@return boolean ok
function ResourceData:get_ok(key) end

--- True when the value is unset (null), as opposed to a zero value that was set.
---@param key string
---@return boolean
function ResourceData:is_null(key) end

--- True when the value is not known yet (it depends on something not created yet).
---@param key string
---@return boolean
function ResourceData:is_unknown(key) end

--- Records a value for the new state, converted to the attribute's type; nil records null.
---@param key string
---@param value any
function ResourceData:set(key, value) end

--- The object's id (`""` when there is none).
---@return string
function ResourceData:id() end

--- Sets the id; `""` in `read` means the object is gone.
---@param id string|number
function ResourceData:set_id(id) end

--- Whether the plan changes the attribute (null and the zero value count as equal).
---@param key string
---@return boolean
function ResourceData:has_change(key) end

--- Whether the plan changes any of the attributes.
---@param ... string
---@return boolean
function ResourceData:has_changes(...) end

--- The stored and the planned value.
---@param key string
---@return any old
---@return any new
function ResourceData:get_change(key) end

--- True while the object is being created.
---@return boolean
function ResourceData:is_new_resource() end

--- In customize_diff: true when what `d:set_private` keeps comes back to the plan the CLI
--- makes again at apply (Terraform 1.16, protocol 6), so a value chosen here can be planned.
---@return boolean
function ResourceData:keeps_planned_private() end

--- In customize_diff, read, import, a data source's read or an ephemeral open: wait for a later run (where the
--- CLI allows deferred changes; an error elsewhere). Return right after it.
---@param reason? "absent_prereq"|"resource_config_unknown"|"provider_config_unknown"
function ResourceData:defer(reason) end

--- Seconds the operation may take: the user's `timeouts` block, else the declared ones.
---@param operation "create"|"read"|"update"|"delete"
---@return number
function ResourceData:timeout(operation) end

--- Partial state mode on or off (for updates made of several API calls).
---@param on boolean
function ResourceData:partial(on) end

--- In partial mode: marks a top-level attribute or block as saved.
---@param name string
function ResourceData:set_partial(name) end

--- Private data kept with the object for the script alone (nil when there is none).
---@param key string
---@return any
function ResourceData:private(key) end

--- Keeps a JSON-like value with the object for the script alone; nil removes the key.
---@param key string
---@param value any
function ResourceData:set_private(key, value) end

--- The object's identity (stored, or from an import block) with what was set on top, or nil.
---@return table<string, any>?
function ResourceData:identity() end

--- Sets identity attributes that no resource attribute of the same name gives.
---@param values table<string, any>
function ResourceData:set_identity(values) end

--- customize_diff only: a computed attribute the configuration leaves unset gets this value.
---@param key string
---@param value any
function ResourceData:set_new(key, value) end

--- customize_diff only: the attribute becomes "known after apply".
---@param key string
function ResourceData:set_new_computed(key) end

--- customize_diff only: a change of the attribute replaces the resource.
---@param key string
function ResourceData:force_new(key) end

--- Ephemeral resources' open and renew only: ask for a renew that many seconds from now.
---@param seconds number
function ResourceData:renew_in(seconds) end

-------------------------------------------------------------------------------
-- Definitions: what provider.lua, resource_X.lua, data_source_X.lua, ephemeral_X.lua and
-- function_X.lua return

--- `import = tf.import_by_id`: the import id is the object's id.
---@class luaform.Importer
---@field kind "importer"
---@field by "id"

--- How long each operation may take unless the user's `timeouts` block says otherwise.
---@class (exact) luaform.Timeouts : { create?: any, read?: any, update?: any, delete?: any, default?: any, [string]: nil }
---@field create? string
---@field read? string
---@field update? string
---@field delete? string
---@field default? string

--- An object stored under another resource type, as `move_state` receives it.
---@class luaform.MoveSource
---@field type string the old resource type
---@field provider string its provider's address
---@field version integer the schema version it was stored with
---@field state table<string, any> its stored attributes
---@field identity? table<string, any> its stored identity
---@field identity_version? integer the version of that identity

--- Upgrades of stored objects: `[v]` turns a version v object into version v + 1.
---@alias luaform.Upgrades table<integer, fun(raw: table<string, any>, client: luaform.Client?): table<string, any>>

--- A resource's identity: what names the remote object for its whole life.
---@class (exact) luaform.IdentityDefinition : { schema?: any, version?: any, upgrade?: any, mutable?: any, [string]: nil }
---@field schema table<string, luaform.Attribute> `tf.string { required_for_import = true }` and the like
---@field version? integer the identity's schema version
---@field upgrade? luaform.Upgrades how older identities become the current one
---@field mutable? boolean the remote object can be renamed in place

--- The time limits of the calls without timeouts of their own: durations such as "30s".
---@class (exact) luaform.HookTimeouts : { check?: any, plan?: any, hook?: any, [string]: nil }
---@field check? string validators, diff_suppress, state_func, element_state_func, provider-defined functions (10s)
---@field plan? string plan functions, requires_replace_if, customize_diff, plan_destroy, an action's plan (1m)
---@field hook? string configure, import, upgrades, move_state, ephemeral open/renew/close (5m)

--- What `tf.provider { ... }` takes.
---@class (exact) luaform.ProviderDefinition : { description?: any, schema?: any, configure?: any, hook_timeouts?: any, types?: any, notes?: any, [string]: nil }
---@field description? luaform.Description
---@field schema? luaform.Schema the provider block's arguments
---@field configure? fun(config: table<string, any>, unknown: table<string, boolean>): luaform.Client builds the client every function gets
---@field hook_timeouts? luaform.HookTimeouts
---@field types? luaform.DeclaredTypes types declared here rather than one file each
---@field notes? string[] lines `--check` prints about the provider

--- What `tf.provider`'s `types` takes: definitions by name, each served as PROVIDER_name.
---@class (exact) luaform.DeclaredTypes : { resources?: any, data_sources?: any, list_resources?: any, [string]: nil }
---@field resources? table<string, luaform.Definition> tf.resource { ... } by name
---@field data_sources? table<string, luaform.Definition> tf.data_source { ... } by name
---@field list_resources? table<string, luaform.Definition> tf.list_resource { ... } by name

--- What `tf.resource { ... }` takes.
---@class (exact) luaform.ResourceDefinition : { description?: any, deprecated?: any, schema?: any, create?: any, read?: any, update?: any, delete?: any, exists?: any, customize_diff?: any, plan_destroy?: any, import?: any, schema_version?: any, upgrade?: any, move_state?: any, timeouts?: any, identity?: any, [string]: nil }
---@field description? luaform.Description
---@field deprecated? string the type still works; each configuration of it warns with this message
---@field schema? luaform.Schema
---@field create fun(d: luaform.ResourceData, client: luaform.Client) creates the object; set its id first
---@field read fun(d: luaform.ResourceData, client: luaform.Client) refreshes the state; `d:set_id("")` when gone
---@field update? fun(d: luaform.ResourceData, client: luaform.Client) changes in place; without it every argument forces new
---@field delete fun(d: luaform.ResourceData, client: luaform.Client) removes the object
---@field exists? fun(d: luaform.ResourceData, client: luaform.Client): boolean asked before every refresh
---@field customize_diff? fun(d: luaform.ResourceData, client: luaform.Client) the resource's own say in each plan
---@field plan_destroy? fun(d: luaform.ResourceData, client: luaform.Client) checks a planned destroy of the stored object: `tf.warn` warns, an error refuses the plan
---@field import? luaform.Importer|fun(d: luaform.ResourceData, client: luaform.Client) `tf.import_by_id`, or a function
---@field schema_version? integer the version of the stored state
---@field upgrade? luaform.Upgrades how older stored states become the current one
---@field move_state? fun(source: luaform.MoveSource, client: luaform.Client?): table<string, any>? takes over an object of another type
---@field timeouts? luaform.Timeouts
---@field identity? luaform.IdentityDefinition

--- What `tf.data_source { ... }` takes.
---@class (exact) luaform.DataSourceDefinition : { description?: any, deprecated?: any, schema?: any, read?: any, timeouts?: any, [string]: nil }
---@field description? luaform.Description
---@field deprecated? string the type still works; each configuration of it warns with this message
---@field schema? luaform.Schema
---@field read fun(d: luaform.ResourceData, client: luaform.Client) sets the id and the computed values
---@field timeouts? luaform.Timeouts

--- What `tf.ephemeral { ... }` takes.
---@class (exact) luaform.EphemeralDefinition : { description?: any, schema?: any, open?: any, renew?: any, close?: any, [string]: nil }
---@field description? luaform.Description
---@field schema? luaform.Schema
---@field open fun(d: luaform.ResourceData, client: luaform.Client) sets the values for this run
---@field renew? fun(d: luaform.ResourceData, client: luaform.Client) extends what open made; sees only private data
---@field close? fun(d: luaform.ResourceData, client: luaform.Client) releases what open made; sees only private data

--- What `tf.action { ... }` takes.
---@class (exact) luaform.ActionDefinition : { description?: any, timeout?: any, schema?: any, plan?: any, invoke?: any, [string]: nil }
---@field description? luaform.Description
---@field timeout? string how long `invoke` may run ("20m" unless set)
---@field schema? luaform.Schema the `config { }` of an `action` block
---@field plan? fun(config: table<string, any>, client: luaform.Client) checks the configuration when a plan includes the action; an error fails the plan
---@field invoke fun(config: table<string, any>, progress: fun(message: string), client: luaform.Client) runs the action; `progress` shows a message in the CLI

--- What a state store's `lock` is given.
---@class (exact) luaform.LockInfo : { id?: any, operation?: any, [string]: nil }
---@field id string an id proposed for the lock (random, UUID-like); `lock` returns it, or its own
---@field operation string what the CLI is about to do ("OperationTypeApply", ...), for people reading who holds a lock

--- What `tf.state_store { ... }` takes.
---@class (exact) luaform.StateStoreDefinition : { description?: any, timeout?: any, chunk_size?: any, schema?: any, configure?: any, states?: any, read?: any, write?: any, delete?: any, lock?: any, unlock?: any, [string]: nil }
---@field description? luaform.Description
---@field timeout? string how long each operation may take ("5m" unless set)
---@field chunk_size? integer the bytes per message a state streams in (what the CLI proposes, 8 MiB, unless set)
---@field schema? luaform.Schema the arguments of the `state_store` block
---@field configure? fun(config: table<string, any>, client: luaform.Client) checks the configuration when the CLI starts using the store; an error stops it
---@field states fun(config: table<string, any>, client: luaform.Client): string[] the names of the states the store holds (the CLI's workspaces)
---@field read fun(config: table<string, any>, id: string, client: luaform.Client): string? the state named `id`, or nil when there is none
---@field write fun(config: table<string, any>, id: string, state: string, client: luaform.Client) stores the whole state `id`, replacing what was there
---@field delete fun(config: table<string, any>, id: string, client: luaform.Client) removes the state `id`
---@field lock? fun(config: table<string, any>, id: string, info: luaform.LockInfo, client: luaform.Client): string? takes the lock of state `id` (returning its id), or fails saying who holds it
---@field unlock? fun(config: table<string, any>, id: string, lock_id: string, client: luaform.Client) releases the lock `lock_id` of state `id`, or fails when another holds it

--- What a list resource's `list` is asked for.
---@class (exact) luaform.ListRequest : { config?: any, limit?: any, include_resource?: any, [string]: nil }
---@field config table<string, any> the list block's `config { }`, defaults applied (nil for what it leaves unset)
---@field limit integer how many objects the CLI takes at most (the block's `limit`, 100 by default)
---@field include_resource boolean the CLI wants whole objects (`include_resource = true`, or `-generate-config-out`)

--- One object a list resource found, as `emit` takes it.
---@class (exact) luaform.ListedObject : { identity?: any, display_name?: any, object?: any, [string]: nil }
---@field identity table<string, any> the resource's identity attributes
---@field display_name? string how `terraform query` shows the object
---@field object? table<string, any> the whole object (`id` included); without it the host imports and reads it by its identity when whole objects are asked for

--- Hands one object to the CLI; false once no more are wanted (the limit is reached).
---@alias luaform.ListEmit fun(object: luaform.ListedObject): boolean

--- What `tf.list_resource { ... }` takes.
---@class (exact) luaform.ListResourceDefinition : { description?: any, timeout?: any, schema?: any, list?: any, [string]: nil }
---@field description? luaform.Description
---@field timeout? string how long `list` may run ("20m" unless set)
---@field schema? luaform.Schema the `config { }` of a `list` block: its filters
---@field list fun(request: luaform.ListRequest, emit: luaform.ListEmit, client: luaform.Client) emits each object it finds; stop when `emit` returns false

--- A parameter of a provider-defined function.
---@class (exact) luaform.FunctionParameter : { name?: any, type?: any, description?: any, allow_null?: any, allow_unknown?: any, [string]: nil }
---@field name string lowercase letters, digits and `_`
---@field type luaform.Type `tf.string`, `tf.list(tf.number)`, `tf.dynamic`, ...
---@field description? luaform.Description
---@field allow_null? boolean the argument may be null (nil)
---@field allow_unknown? boolean `run` is called with unknown parts as `tf.unknown`

--- What `tf.func { ... }` takes.
---@class (exact) luaform.FunctionDefinition : { summary?: any, description?: any, deprecated?: any, params?: any, variadic?: any, returns?: any, run?: any, [string]: nil }
---@field summary? string
---@field description? luaform.Description
---@field deprecated? string
---@field params? luaform.FunctionParameter[] the parameters in order
---@field variadic? luaform.FunctionParameter one more parameter taking every further argument
---@field returns luaform.Type the result's type
---@field run fun(...: any): any computes the result from the arguments

--- A checked definition, tagged with its kind: what a script returns.
---@class luaform.Definition
---@field kind "provider"|"resource"|"data_source"|"ephemeral"|"function"|"list_resource"|"action"|"state_store"

--- A diagnostic for `tf.fail` and `tf.warn`.
---@class (exact) luaform.DiagnosticSpec : { summary?: any, detail?: any, path?: any, argument?: any, [string]: nil }
---@field summary? string
---@field detail? string
---@field path? string the attribute it is about, as `d:get` takes it (`"disk.0.size"`)
---@field argument? integer functions: which argument is at fault, counting from 1

-------------------------------------------------------------------------------
-- The module

--- The luaform SDK: `local tf = require("luaform")`.
---@class luaform
local tf = {}

--- A string attribute type.
---@type luaform.Type
tf.string = nil

--- A number attribute type (integers stay integers).
---@type luaform.Type
tf.number = nil

--- A bool attribute type.
---@type luaform.Type
tf.bool = nil

--- Any value, with its own type: for function parameters and results only.
---@type luaform.Type
tf.dynamic = nil

--- "Known after apply": what unknown parts of values read as, and what a plan function or a
--- function result returns for them.
---@type luaform.Unknown
tf.unknown = nil

--- A list of `element`.
---@param element luaform.Type
---@return luaform.Type
function tf.list(element) end

--- A set of `element`.
---@param element luaform.Type
---@return luaform.Type
function tf.set(element) end

--- A map of `element` by string keys.
---@param element luaform.Type
---@return luaform.Type
function tf.map(element) end

--- An object type with these attribute types, for structured (mostly computed) values.
---@param attributes table<string, luaform.Type>
---@return luaform.Type
function tf.object(attributes) end

--- Blocks written `name { ... }` any number of times, kept in order.
---@param options luaform.BlockOptions
---@return luaform.Block
function tf.list_block(options) end

--- Blocks written `name { ... }` any number of times, in no order.
---@param options luaform.BlockOptions
---@return luaform.Block
function tf.set_block(options) end

--- At most one block `name { ... }`.
---@param options luaform.BlockOptions
---@return luaform.Block
function tf.single_block(options) end

--- One object written as an attribute (protocol 6).
---@param options luaform.NestedOptions
---@return luaform.NestedAttribute
function tf.single_nested(options) end

--- A list of objects written as an attribute (protocol 6).
---@param options luaform.NestedOptions
---@return luaform.NestedAttribute
function tf.list_nested(options) end

--- A set of objects written as an attribute (protocol 6).
---@param options luaform.NestedOptions
---@return luaform.NestedAttribute
function tf.set_nested(options) end

--- A map of objects written as an attribute (protocol 6).
---@param options luaform.NestedOptions
---@return luaform.NestedAttribute
function tf.map_nested(options) end

--- Marks a description as markdown.
---@param text string
---@return luaform.Markdown
function tf.markdown(text) end

--- A default taken from the first of the environment variables that is set and not empty,
--- else `fallback`.
---@param names string|string[]
---@param fallback? any
---@return fun(): any
function tf.env(names, fallback) end

--- `import = tf.import_by_id`: `tofu import` sets the id, then `read` fills in the rest.
---@type luaform.Importer
tf.import_by_id = nil

--- The provider: its configuration and `configure`.
---@param definition luaform.ProviderDefinition
---@return luaform.Definition
function tf.provider(definition) end

--- A managed resource.
---@param definition luaform.ResourceDefinition
---@return luaform.Definition
function tf.resource(definition) end

--- A data source.
---@param definition luaform.DataSourceDefinition
---@return luaform.Definition
function tf.data_source(definition) end

--- An ephemeral resource: values for one run of the CLI, never stored.
---@param definition luaform.EphemeralDefinition
---@return luaform.Definition
function tf.ephemeral(definition) end

--- A provider-defined function, called as `provider::NAME::X(...)`.
---@param definition luaform.FunctionDefinition
---@return luaform.Definition
function tf.func(definition) end

--- An action (`action_X.lua`): an operation `terraform apply -invoke` or a resource's
--- action_trigger runs, which changes nothing in state.
---@param definition luaform.ActionDefinition
---@return luaform.Definition
function tf.action(definition) end

--- A state store (`state_store_X.lua`): where Terraform keeps its own state, named in a
--- `state_store "NAME_X"` block (Terraform 1.16's experiment; protocol 6).
---@param definition luaform.StateStoreDefinition
---@return luaform.Definition
function tf.state_store(definition) end

--- A list resource (`list_X.lua`): how `terraform query` finds the existing objects of resource
--- NAME_X, which must declare an identity.
---@param definition luaform.ListResourceDefinition
---@return luaform.Definition
function tf.list_resource(definition) end

--- Ends the operation with an error diagnostic (at an attribute with `path`, at a function's
--- argument with `argument`).
---@param diagnostic string|luaform.DiagnosticSpec
---@return never
function tf.fail(diagnostic) end

--- Adds a warning diagnostic and lets the operation go on.
---@param diagnostic string|luaform.DiagnosticSpec
function tf.warn(diagnostic) end

--- Validators for an attribute's `validate` option.
---@type luaform.validators
tf.v = nil

--- Ready-made `diff_suppress` functions.
---@type luaform.suppressors
tf.suppress = nil

--- JSON as the SDK reads and writes it.
---@type luaform.json
tf.json = nil

--- The HTTP client, and helpers for paths and pagination.
---@type luaform.http
tf.http = nil

--- A provider served from an OpenAPI description (see "From an OpenAPI description").
---@class luaform.openapi
tf.openapi = {}

--- The options of `api:call`.
---@class (exact) luaform.OpenApiCallOptions : { allow?: any, check?: any, poll?: any, [string]: nil }
---@field allow? integer[] statuses outside 2xx that return instead of raising
---@field check? boolean false: send the body without checking it against the description
---@field poll? luaform.OpenApiPoll|false where a 202's status is; false: a 202 ends the call

--- Where the status of work an operation answered 202 to is, and which states end it.
---@class (exact) luaform.OpenApiPoll : { link?: any, state?: any, done?: any, failed?: any, origins?: any, [string]: nil }
---@field link? string the field of the 202's body that links to the status
---@field state? string the field of the status that holds the state
---@field done? string[] the states that end the work
---@field failed? string[] the states that end it in failure
---@field origins? string[] origins besides the API's where a status may be asked ("https://jobs.example.com")

--- The client every hook of a provider served from a description gets.
---@class luaform.OpenApi
---@field http luaform.HttpClient the tf.http client, with the provider's credentials
local OpenApi = {}

--- Calls the operation `operation_id`, checked against the description first (parameters by
--- name, body fields and types); returns the decoded answer and the response.
---@param operation_id string the operationId, such as "patchZone"
---@param parameters? table<string, string|number|boolean> path, query and header parameters by name
---@param body? any sent as JSON
---@param options? luaform.OpenApiCallOptions
---@return any answer
---@return luaform.HttpResponse response
function OpenApi:call(operation_id, parameters, body, options) end

--- Per type, what the description cannot say.
---@class (exact) luaform.OpenApiTypeOptions : { attributes?: any, id?: any, gone?: any, depth?: any, create?: any, read?: any, update?: any, delete?: any, import?: any, timeouts?: any, read_after_write?: any, poll?: any, [string]: nil }
---@field attributes? table<string, table|false> options merged into each attribute's; false leaves one out
---@field id? string the field of the create's answer that holds the id
---@field gone? integer[] statuses of a read or delete that mean the object is gone ({ 404 })
---@field depth? integer how many $refs deep a property is followed before it is kept as JSON (8)
---@field create? fun(d: luaform.ResourceData, api: luaform.OpenApi) in place of the mapped create
---@field read? fun(d: luaform.ResourceData, api: luaform.OpenApi) in place of the mapped read
---@field update? fun(d: luaform.ResourceData, api: luaform.OpenApi) in place of the mapped update
---@field delete? fun(d: luaform.ResourceData, api: luaform.OpenApi) in place of the mapped delete
---@field import? fun(d: luaform.ResourceData, api: luaform.OpenApi)|luaform.Importer in place of the mapped import
---@field timeouts? table<string, luaform.Duration>
---@field read_after_write? boolean read the object back after a create or update even when the write answers with it
---@field poll? luaform.OpenApiPoll|false where a 202's status is (the provider's poll otherwise)

--- The options of `tf.openapi.provider`.
---@class (exact) luaform.OpenApiOptions : { document?: any, env_prefix?: any, resources?: any, data_sources?: any, description?: any, depth?: any, nesting?: any, poll?: any, http?: any, [string]: nil }
---@field document string the description's file, relative to the provider directory
---@field env_prefix? string the environment variables' prefix (the title's first word)
---@field resources? table<string, luaform.OpenApiTypeOptions|false> by type name; false leaves one out
---@field data_sources? table<string, luaform.OpenApiTypeOptions|false> by type name
---@field description? luaform.Description the provider's
---@field depth? integer the default of every type's depth
---@field nesting? integer how many levels of objects in objects are nested attributes (2; 0: JSON text)
---@field poll? luaform.OpenApiPoll|false where a 202's status is, for every type
---@field http? luaform.OpenApiHttpOptions the waits and retries of the client every hook shares

--- What a provider served from a description may set of its tf.http client.
---@class (exact) luaform.OpenApiHttpOptions : { timeout?: any, connect_timeout?: any, retries?: any, retry_wait_min?: any, retry_wait_max?: any, [string]: nil }
---@field timeout? luaform.Duration each attempt's (60 s)
---@field connect_timeout? luaform.Duration connecting's (10 s)
---@field retries? integer how often a connection error, timeout, 429 or 5xx but 501 is tried again (4)
---@field retry_wait_min? luaform.Duration the first wait, doubled at each retry (1 s)
---@field retry_wait_max? luaform.Duration the longest wait (30 s)

--- The provider, its types mapped from the description.
---@param options luaform.OpenApiOptions
---@return luaform.Definition
function tf.openapi.provider(options) end

--- Lines in the CLI's log, with secrets hidden.
---@type luaform.log
tf.log = nil

--- Sleeping, clocks, durations and RFC 3339 timestamps.
---@type luaform.time
tf.time = nil

--- File modes and directories.
---@type luaform.fs
tf.fs = nil

--- Programs run from an argument list.
---@type luaform.exec
tf.exec = nil

--- Standard base64 with padding.
---@class luaform.base64
tf.base64 = {}

--- Encodes bytes.
---@param bytes string
---@return string
function tf.base64.encode(bytes) end

--- Decodes text; an error when it is not base64.
---@param text string
---@return string
function tf.base64.decode(text) end

--- Digests as lower-case hex.
---@class luaform.hash
tf.hash = {}

---@param bytes string
---@return string
function tf.hash.sha256(bytes) end

---@param bytes string
---@return string
function tf.hash.sha1(bytes) end

---@param bytes string
---@return string
function tf.hash.sha512(bytes) end

---@param bytes string
---@return string
function tf.hash.md5(bytes) end

--- A random (version 4) UUID.
---@return string
function tf.uuid() end

--- Calls `refresh` until the state it gives is a `target`; returns the object and state.
---@param options luaform.WaitOptions
---@return any object
---@return any state
function tf.wait_for(options) end

--- Calls `fn` until it returns, again after each `tf.retryable` error, until the timeout.
---@generic R
---@param timeout luaform.Duration
---@param fn fun(): R
---@return R
function tf.retry(timeout, fn) end

--- An error for `tf.retry` to try again after: `error(tf.retryable(err))`.
---@param err any a message or any error value
---@return luaform.Retryable
function tf.retryable(err) end

return tf
