-- luaform: the authoring SDK that provider scripts `require("luaform")`.
--
-- It only builds plain, validated tables tagged with `kind`; the host reads those tables to
-- build the Terraform schema and calls the functions they hold. Every mistake is reported with
-- error(..., level) at the line of the script that made it, so `--check` and the CLI show
-- "resource_x.lua:12: ..." rather than a line of the SDK.
--
-- This file only assembles the public table, so that it lists every name scripts may use. The
-- parts live beside it, each internal to the SDK: luaform_check (what the checks share),
-- luaform_attribute_check and luaform_attributes (types and attributes), luaform_blocks
-- (schemas, blocks, nested attributes), luaform_definitions (tf.resource and the other tables
-- a script returns) and luaform_functions (tf.func). The rest are the modules behind tf.http,
-- tf.json and the like, native ones among them.

local check = require("luaform_check")
local attributes = require("luaform_attributes")
local blocks = require("luaform_blocks")
local definitions = require("luaform_definitions")
local functions = require("luaform_functions")

local M = {}

-- Declaring a schema: types, whose call with options declares an attribute, blocks and nested
-- attributes, and the values some options take.
M.string = attributes.string
M.number = attributes.number
M.bool = attributes.bool
-- Any value, with its own type: for function parameters and results only.
M.dynamic = attributes.dynamic
M.list = attributes.list
M.set = attributes.set
M.map = attributes.map
M.object = attributes.object
M.env = attributes.env
M.markdown = check.markdown
M.list_block = blocks.list_block
M.set_block = blocks.set_block
M.single_block = blocks.single_block
M.single_nested = blocks.single_nested
M.list_nested = blocks.list_nested
M.set_nested = blocks.set_nested
M.map_nested = blocks.map_nested

-- The tables a script returns.
M.provider = definitions.provider
M.resource = definitions.resource
M.data_source = definitions.data_source
M.ephemeral = definitions.ephemeral
M.list_resource = definitions.list_resource
M.action = definitions.action
M.state_store = definitions.state_store
M.import_by_id = definitions.import_by_id
M.func = functions.func

-- A value not known until apply: what a function declared with allow_unknown receives for
-- such arguments (at any depth), and may return (native).
M.unknown = require("luaform_values").unknown
-- Validators for an attribute's `validate` option: tf.v.between(1, 10), tf.v.one_of { ... }.
M.v = require("luaform_validators")
-- Suppressors for an attribute's `diff_suppress` option: tf.suppress.case_insensitive, ...
M.suppress = require("luaform_suppressors")
-- JSON: tf.json.decode, encode, array, null, equivalent (native, in the host).
M.json = require("luaform_json")
-- HTTP: tf.http.client { base_url = ... } (native, on libcurl), tf.http.paginate and
-- tf.http.crud.
-- (A table of its own: the native module's table, like every SDK module's, is read-only.)
do
  local http = {}
  for name, value in pairs(require("luaform_http")) do
    http[name] = value
  end
  http.paginate = require("luaform_pagination")
  http.crud = require("luaform_crud")
  local paths = require("luaform_paths")
  http.escape, http.unescape, http.path = paths.escape, paths.unescape, paths.path
  M.http = http
end
-- Diagnostics (native): tf.fail { summary =, detail =, path = } ends the operation with an error
-- shown at that attribute; tf.warn { ... } adds a warning.
local diagnostics = require("luaform_diagnostics")
M.fail = diagnostics.fail
M.warn = diagnostics.warn
-- Encodings and digests (native): tf.base64.encode/decode, tf.hash.sha256 (sha1, sha512, md5),
-- tf.uuid().
local encoding = require("luaform_encoding")
M.base64 = { encode = encoding.base64_encode, decode = encoding.base64_decode }
M.hash = { sha1 = encoding.sha1, sha256 = encoding.sha256, sha512 = encoding.sha512,
  md5 = encoding.md5 }
M.uuid = encoding.uuid
-- Logging to the CLI's log (TF_LOG): tf.log.info("message", { field = value }) (native).
M.log = require("luaform_log")
-- Time: tf.time.sleep, now, seconds, format (native); waiting on asynchronous APIs.
M.time = require("luaform_time")
-- Modes, directories and stat for providers of local files (see fs_module.h).
M.fs = require("luaform_fs")
-- Programs: tf.exec.run { "git", "status", dir = ... } and tf.exec.find (see exec_module.h).
M.exec = require("luaform_exec")
local wait = require("luaform_wait")
M.wait_for = wait.wait_for
M.retry = wait.retry
M.retryable = wait.retryable
-- A provider served from an OpenAPI description: tf.openapi.provider { document = ... }. The
-- mapping is a third of the SDK's text: required on first use, so that every other provider's
-- states do not compile it.
M.openapi = {
  provider = function(options)
    return require("luaform_openapi").provider(options)
  end,
}

return M
