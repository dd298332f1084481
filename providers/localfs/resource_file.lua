-- resource "localfs_file": a file whose whole content Terraform manages.
local tf = require("luaform")
local content = require("lib.content")
local by_path = require("lib.by_path")
local mode = require("lib.mode")

-- Records what is on disk now, so a change made outside Terraform shows up as drift: the bytes
-- in the form the configuration gives them, their digest and size, and the permission.
local function record(d, client, path, bytes)
  local form = content.recorded_form(d, bytes)
  if form ~= "source" then
    d:set(form, content.value_in(form, bytes))
  end
  d:set("sha256", tf.hash.sha256(bytes))
  d:set("size", #bytes)
  -- Windows has no permission bits: there the configured permission stays what it is.
  local permission = client:stat(path).mode
  if permission ~= nil then
    d:set("file_permission", permission)
  end
end

-- What d's plan asks to be written: the form in use and its bytes.
local function planned_bytes(d, client)
  local object = {}
  for _, form in ipairs(content.forms) do
    if not d:is_null(form) then
      object[form] = d:get(form)
    end
  end
  local bytes = content.bytes(object, client)
  if bytes == tf.unknown then
    -- Only a source file that disappeared after the plan gets here.
    error("the source file " .. client:resolve(object.source) .. " does not exist")
  end
  return content.form_of(object), bytes
end

-- Writes the file with its permission, creating missing directories above it.
local function write(d, client, path)
  local form, bytes = planned_bytes(d, client)
  local planned_sha256 = d:get("sha256")
  if planned_sha256 ~= "" and planned_sha256 ~= tf.hash.sha256(bytes) then
    -- The plan showed the digest of what the source held then; writing other bytes now would
    -- break that plan, so stop before touching the file.
    error("the source file " .. client:resolve(d:get("source"))
      .. " changed after the plan was made; plan again")
  end
  client:make_parents(path, d:get("directory_permission"))
  client:write(path, bytes)
  client:chmod(path, d:get("file_permission"))
  d:set_private("form", form)
  record(d, client, path, bytes)
end

-- sha256 and size are known in the plan whenever the content is, for other resources to use.
-- A source file is read too, but only to see whether it changed since the last apply: it may
-- change again before the apply copies it, and the CLI holds the apply to a known plan, so a
-- changed source plans both as "known after apply".
local function plan_sha256(p, client)
  local bytes = content.bytes(p.resource, client)
  if bytes == nil or bytes == tf.unknown then
    return bytes
  end
  local digest = tf.hash.sha256(bytes)
  if content.form_of(p.resource) == "source" and digest ~= p.state then
    return tf.unknown
  end
  return digest
end

-- Planned after sha256 (plan functions run in the order of the attributes' names), so a
-- changed source is already unknown there.
local function plan_size(p, client)
  if p.resource.sha256 == tf.unknown then
    return tf.unknown
  end
  local bytes = content.bytes(p.resource, client)
  return bytes ~= nil and #bytes or nil
end

return tf.resource {
  description = "A file on the local disk with content managed by Terraform. The content is "
    .. "given by exactly one of content, content_base64, sensitive_content and source",
  schema = {
    path = tf.string {
      required = true,
      force_new = true,
      description = "Path of the file; relative paths start from the provider's root",
    },
    content = tf.string {
      optional = true,
      exactly_one_of = content.forms,
      description = "The file's whole content, as text",
    },
    content_base64 = tf.string {
      optional = true,
      validate = content.validate_base64,
      description = "The file's whole content, base64-encoded: for bytes that are not UTF-8 "
        .. "text",
    },
    sensitive_content = tf.string {
      optional = true,
      sensitive = true,
      description = "The file's whole content, as text the CLI does not show",
    },
    source = tf.string {
      optional = true,
      validate = tf.v.not_empty(),
      description = "Path of a file whose content is copied; read when planning, so a change "
        .. "to it shows up in the next plan. Relative paths start from the provider's root",
    },
    sha256 = tf.string {
      computed = true,
      plan = plan_sha256,
      description = "SHA-256 of the content, hex",
    },
    size = tf.number {
      computed = true,
      plan = plan_size,
      description = "Size of the content in bytes",
    },
    file_permission = tf.string {
      optional = true,
      default = "0644",
      validate = mode.validate,
      state_func = mode.normal,
      description = "Permission bits of the file, in octal; set exactly, whatever the umask",
    },
    directory_permission = tf.string {
      optional = true,
      default = "0755",
      validate = mode.validate,
      state_func = mode.normal,
      description = "Permission bits of the directories created above the file when they are "
        .. "missing (directories already there are left alone)",
    },
  },

  create = function(d, client)
    local path = d:get("path")
    write(d, client, path)
    -- The id is the path as written in the configuration, which is also what import takes.
    d:set_id(path)
  end,

  read = function(d, client)
    local path = d:id()
    local bytes = client:read(path)
    if bytes == nil then
      d:set_id("")
      return
    end
    -- After an import only the id is known; the path is the id.
    d:set("path", path)
    record(d, client, path, bytes)
  end,

  update = function(d, client)
    write(d, client, d:get("path"))
  end,

  delete = function(d, client)
    client:remove(d:get("path"))
  end,

  -- The path is the id and the identity: import takes it either way.
  identity = by_path.identity("Path of the file"),
  import = by_path.import,
}
