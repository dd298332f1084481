---@meta
-- luacheck: no unused, max comment line length 600
-- Type definitions of the testing kit, `require("luaform_testing")`, for test files
-- (`tests/*_test.lua`) that `terraform-provider-NAME --test` runs.

--- A diagnostic an operation reported.
---@class luaform.testing.Diagnostic
---@field severity "error"|"warning"
---@field summary string
---@field detail string
---@field attribute? string the attribute it is about, as its address `disk.0.size`

--- A stored object: its state, private data and identity. Any result of `apply`, `create`,
--- `read` or `import` is one.
---@class luaform.testing.Stored
---@field state table<string, any> the attributes (nil once the object is gone)
---@field private? string the private data, as stored
---@field identity? table<string, any>

--- What the operations of the kit give back.
---@class luaform.testing.Result : luaform.testing.Stored
---@field diagnostics luaform.testing.Diagnostic[]

--- What `r:plan` gives.
---@class luaform.testing.PlanResult : luaform.testing.Result
---@field planned table<string, any> the planned object (unknown parts are `testing.unknown`)
---@field requires_replace string[] attribute paths whose change replaces the object

--- What `r:apply` and `r:create` give.
---@class luaform.testing.ApplyResult : luaform.testing.Result
---@field planned table<string, any> the plan that was applied
---@field replaced boolean whether the prior object was destroyed and a new one created

--- What `a:plan` gives.
---@class luaform.testing.Diagnosed
---@field diagnostics luaform.testing.Diagnostic[]

--- A result, or a list of diagnostics: what the assertions on errors take.
---@alias luaform.testing.Checked luaform.testing.Result|luaform.testing.Diagnosed|luaform.testing.ListResult|luaform.testing.InvokeResult|luaform.testing.StoreResult|luaform.testing.Diagnostic[]

--- What `r:plan` and `r:apply` take.
---@class (exact) luaform.testing.PlanArgs : { prior?: any, config?: any, [string]: nil }
---@field prior? luaform.testing.Stored an earlier result; nil for a new object
---@field config? table<string, any> the configuration; nil plans the destroy

--- A resource type of the provider under test, driven through the engine.
---@class luaform.testing.Resource
---@field type string
local Resource = {}

--- Validation and PlanResourceChange, with the proposed new state the CLI would send.
---@param args luaform.testing.PlanArgs
---@return luaform.testing.PlanResult
function Resource:plan(args) end

--- Plan and apply, as `tofu apply` does; a replacement destroys `prior` and creates anew.
---@param args luaform.testing.PlanArgs
---@return luaform.testing.ApplyResult
function Resource:apply(args) end

--- `apply` with no prior object.
---@param config table<string, any>
---@return luaform.testing.ApplyResult
function Resource:create(config) end

--- ReadResource (a refresh); `state` is nil once the object is gone.
---@param prior luaform.testing.Stored
---@return luaform.testing.Result
function Resource:read(prior) end

--- A destroy plan and apply.
---@param prior luaform.testing.Stored
---@return luaform.testing.Result
function Resource:destroy(prior) end

--- What `r:import` takes besides an id: an import block's identity (or the id again).
---@class (exact) luaform.testing.ImportArgs : { id?: any, identity?: any, [string]: nil }
---@field id? string the id, as `tofu import ADDRESS ID` gives it
---@field identity? table<string, any> the identity, as an import block's `identity = { ... }`

--- ImportResourceState, then a read, as `tofu import` does: by id, or by identity
--- (`r:import { identity = { path = "a.txt" } }`).
---@param what string|luaform.testing.ImportArgs
---@return luaform.testing.Result
function Resource:import(what) end

--- A data source type of the provider under test.
---@class luaform.testing.DataSource
---@field type string
local DataSource = {}

--- Validation and ReadDataSource.
---@param config table<string, any>
---@return luaform.testing.Result
function DataSource:read(config) end

--- One event of a listing, as the CLI receives it. An event without an identity only carries
--- diagnostics: a warning for an element left out, or the error that ended the listing.
---@class luaform.testing.ListEvent
---@field identity? table<string, any> the listed object's identity
---@field display_name? string what `terraform query` shows beside it
---@field object? table<string, any> the whole object, when `include_resource` asked for it
---@field diagnostics luaform.testing.Diagnostic[]

--- What `l:list` gives.
---@class luaform.testing.ListResult
---@field events luaform.testing.ListEvent[] in the order the listing emitted them
---@field diagnostics luaform.testing.Diagnostic[] the validation's and every event's

--- What `l:list` takes: a `list` block's settings.
---@class (exact) luaform.testing.ListArgs : { config?: any, limit?: any, include_resource?: any, [string]: nil }
---@field config? table<string, any> the block's `config { }`: the filters
---@field limit? integer how many objects the CLI takes (100 unless given)
---@field include_resource? boolean whether the CLI asks for whole objects

--- A list resource of the provider under test, driven through the engine.
---@class luaform.testing.ListResource
---@field type string
local ListResource = {}

--- Validation and ListResource, as `terraform query` runs a `list` block.
---@param args? luaform.testing.ListArgs
---@return luaform.testing.ListResult
function ListResource:list(args) end

--- What `a:invoke` gives.
---@class luaform.testing.InvokeResult
---@field progress string[] the progress messages, in order
---@field diagnostics luaform.testing.Diagnostic[]

--- An action of the provider under test, driven through the engine.
---@class luaform.testing.Action
---@field type string
local Action = {}

--- Validation and PlanAction, as a plan that includes the action block.
---@param config? table<string, any>
---@return luaform.testing.Diagnosed
function Action:plan(config) end

--- The plan, then (when it has no errors) InvokeAction, as `terraform apply -invoke` does.
---@param config? table<string, any>
---@return luaform.testing.InvokeResult
function Action:invoke(config) end

--- What a state store's calls give: what the call asked for, and the diagnostics.
---@class luaform.testing.StoreResult
---@field chunk_size? integer configure's: the size states stream in
---@field states? string[] states': the names of the states held
---@field state? string read's: the state, nil when there is none
---@field lock_id? string lock's: the id to unlock with
---@field diagnostics luaform.testing.Diagnostic[]

--- A state store of the provider under test, driven through the engine as the CLI drives it:
--- configure first, then the state calls; writes and reads stream in chunks.
---@class luaform.testing.StateStore
---@field type string
---@field chunk_size? integer what configure agreed
local StateStore = {}

--- Validation and ConfigureStateStore, as `terraform init` does with a state_store block.
---@param config? table<string, any>
---@return luaform.testing.StoreResult
function StateStore:configure(config) end

---@return luaform.testing.StoreResult
function StateStore:states() end

---@param id string
---@return luaform.testing.StoreResult
function StateStore:read(id) end

---@param id string
---@param state string
---@return luaform.testing.StoreResult
function StateStore:write(id, state) end

---@param id string
---@return luaform.testing.StoreResult
function StateStore:delete(id) end

---@param id string
---@param operation? string what the CLI is about to do ("OperationTypeApply")
---@return luaform.testing.StoreResult
function StateStore:lock(id, operation) end

---@param id string
---@param lock_id string
---@return luaform.testing.StoreResult
function StateStore:unlock(id, lock_id) end

--- The provider under test, loaded afresh, validated and configured.
---@class luaform.testing.Provider
---@field diagnostics luaform.testing.Diagnostic[] what loading and configuring reported
local Provider = {}

---@param type_name string the full type name, as `example_server`
---@return luaform.testing.Resource
function Provider:resource(type_name) end

---@param type_name string the full type name, as `example_image`
---@return luaform.testing.DataSource
function Provider:data_source(type_name) end

---@param type_name string the resource type it lists, as `example_server`
---@return luaform.testing.ListResource
function Provider:list_resource(type_name) end

---@param type_name string the full type name, as `example_reboot`
---@return luaform.testing.Action
function Provider:action(type_name) end

---@param type_name string the full type name, as `example_state`
---@return luaform.testing.StateStore
function Provider:state_store(type_name) end

--- The state an acceptance step sees after it applied.
---@class luaform.testing.State
---@field resources table<string, table<string, any>> attributes by resource address
---@field outputs table<string, any> output values by name

--- What each `list` block of a query step found, by its address (`list.TYPE.NAME`).
---@alias luaform.testing.QueryResults table<string, { identity: table<string, any>, display_name?: string, object?: table<string, any> }[]>

--- One step of an acceptance test: a `config` step (apply, check, then an empty plan), an
--- `import` step, a `query` step or an `invoke` step (the last two need Terraform 1.14 or
--- later).
---@class (exact) luaform.testing.Step : { config?: any, check?: any, expect_error?: any, expect_non_empty_plan?: any, plan_only?: any, refresh_only?: any, pre_config?: any, import?: any, id?: any, verify?: any, verify_ignore?: any, query?: any, invoke?: any, [string]: nil }
---@field config? string the configuration, in HCL (the kit adds `required_providers`); for query and invoke steps, the one they run with (default: the last applied)
---@field check? fun(state: any) config steps get a `luaform.testing.State`, import steps the imported attributes, query steps `luaform.testing.QueryResults`, invoke steps the progress messages (`string[]`)
---@field expect_error? string the step must fail saying this
---@field expect_non_empty_plan? boolean the plan after the step is not empty
---@field plan_only? boolean plan without applying
---@field refresh_only? boolean apply with `-refresh-only`
---@field pre_config? fun(last_state: luaform.testing.State?) runs first: change things behind Terraform's back
---@field import? string the address to import
---@field id? string|fun(state: luaform.testing.State?): string the import id
---@field verify? boolean the imported attributes must equal the applied ones, as a plan compares them (diff_suppress, state_func, zero values)
---@field verify_ignore? string[] attributes `verify` leaves out
---@field query? string `list` blocks (a `.tfquery.hcl` file) that `terraform query` runs
---@field invoke? string the action to run with `terraform apply -invoke`, as `action.TYPE.NAME`

--- An acceptance test.
---@class (exact) luaform.testing.AcceptanceSpec : { steps?: any, check_destroy?: any, needs?: any, [string]: nil }
---@field steps luaform.testing.Step[]
---@field check_destroy? fun(last_state: luaform.testing.State?) runs after the final destroy
---@field needs? ("query"|"invoke")[] the step kinds that need Terraform 1.14 or later: with another CLI the test is skipped (without `needs`, it fails)

---@class luaform.testing
local testing = {}

--- "Known after apply" in plans and function arguments (the same value as `tf.unknown`).
---@type luaform.Unknown
testing.unknown = nil

--- Registers a test; it fails by raising an error.
---@param name string
---@param fn fun()
function testing.test(name, fn) end

--- busted's spelling of `test`.
---@param name string
---@param fn fun()
function testing.it(name, fn) end

--- Groups the tests `fn` registers under `name`.
---@param name string
---@param fn fun()
function testing.describe(name, fn) end

--- Registers an acceptance test with the real CLI; it runs only when TF_ACC is set.
---@param name string
---@param spec luaform.testing.AcceptanceSpec|fun(): luaform.testing.AcceptanceSpec
function testing.acceptance(name, spec) end

--- A new directory, removed when the test passes (kept when it fails).
---@return string
function testing.temp_dir() end

--- Runs `fn` when the test ends, passed or failed (last registered first).
---@param fn fun()
function testing.cleanup(fn) end

--- Ends the running test as skipped, saying why.
---@param reason string
function testing.skip(reason) end

--- Deep equality; the message says where the two first differ.
---@param actual any
---@param expected any
---@param message? string
function testing.equal(actual, expected, message) end

--- `value` is neither nil nor false.
---@param value any
---@param message? string
function testing.truthy(value, message) end

--- `text` contains `part` (plain text).
---@param text any
---@param part string
---@param message? string
function testing.contains(text, part, message) end

--- The error diagnostics of a result.
---@param result luaform.testing.Checked
---@return luaform.testing.Diagnostic[]
function testing.errors(result) end

--- The result has no error diagnostics.
---@param result luaform.testing.Checked
---@param message? string
function testing.no_errors(result, message) end

--- The first error whose summary or detail contains `text` (about `attribute` when given).
---@param result luaform.testing.Checked
---@param text string
---@param attribute? string the attribute's address, `disk.0.size`
---@return luaform.testing.Diagnostic
function testing.has_error(result, text, attribute) end

--- Runs `fn`, which must raise an error (containing `text` when given); returns its message.
---@param fn fun()
---@param text? string
---@return string
function testing.raises(fn, text) end

--- A short readable form of any value, for messages.
---@param value any
---@return string
function testing.show(value) end

--- The provider configured with `config` (nil for none), as the CLI would configure it.
---@param config? table<string, any>
---@return luaform.testing.Provider
function testing.provider(config) end

--- A Lua string as an HCL string literal, for building configurations.
---@param text any
---@return string
function testing.hcl_string(text) end

return testing
