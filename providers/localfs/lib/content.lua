-- The four ways localfs_file's content can be given: as text (`content`), as base64
-- (`content_base64`), as text kept out of plan output (`sensitive_content`) or as the path of a
-- file to copy (`source`). Exactly one is set; the helpers here turn any of them into bytes and
-- decide which of them a file read from disk is recorded in.
local tf = require("luaform")

local M = {}

-- Every form, in the order they are looked at.
M.forms = { "content", "content_base64", "sensitive_content", "source" }

-- The form set in `object` (the planned resource of a plan function, or a table built from d),
-- or nil when none is.
function M.form_of(object)
  for _, form in ipairs(M.forms) do
    if object[form] ~= nil then
      return form
    end
  end
  return nil
end

-- A validate function for content_base64: the text must decode.
function M.validate_base64(value, path)
  local ok = pcall(tf.base64.decode, value)
  if not ok then
    return path .. " is not base64 (standard alphabet, with padding); base64encode() or "
      .. "filebase64() give text that is"
  end
  return nil
end

-- The bytes `object` asks to be written, read through `client` for `source`. nil when no form
-- is set, tf.unknown when the value is not known yet (or the source file does not exist yet).
function M.bytes(object, client)
  local form = M.form_of(object)
  if form == nil then
    return nil
  end
  local value = object[form]
  if value == tf.unknown then
    return tf.unknown
  end
  if form == "content_base64" then
    return tf.base64.decode(value)
  end
  if form == "source" then
    if client == nil then
      return tf.unknown  -- the provider's root is not known until apply
    end
    return client:read(value) or tf.unknown
  end
  return value
end

-- Which attribute a file read from disk is recorded in: the form the configuration used (kept
-- as private data by create and update), else, after an import, `content` for UTF-8 text and
-- `content_base64` for anything else (Terraform strings are UTF-8).
function M.recorded_form(d, bytes)
  local form = d:private("form")
  if form ~= nil then
    return form
  end
  return utf8.len(bytes) and "content" or "content_base64"
end

-- The value the recorded form holds for `bytes`; `source` records nothing but the digest.
function M.value_in(form, bytes)
  if form == "content_base64" then
    return tf.base64.encode(bytes)
  end
  if form == "source" then
    return nil
  end
  return bytes
end

return M
