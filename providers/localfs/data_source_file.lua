-- data "localfs_file": reads a file that exists already.
local tf = require("luaform")
local text_lines = require("lib.text")

return tf.data_source {
  description = "Reads a file from the local disk",
  schema = {
    path = tf.string {
      required = true,
      description = "Path of the file; relative paths start from the provider's root",
    },
    content = tf.string {
      computed = true,
      description = "The file's whole content as text; null when it is not UTF-8 (see "
        .. "content_base64)",
    },
    content_base64 = tf.string {
      computed = true,
      description = "The file's whole content, base64-encoded",
    },
    sha256 = tf.string { computed = true, description = "SHA-256 of the content, hex" },
    size = tf.number { computed = true, description = "Size of the content in bytes" },
    lines = tf.list(tf.string) {
      computed = true,
      description = "The content's lines; null when it is not UTF-8",
    },
  },

  read = function(d, client)
    local path = d:get("path")
    local content = client:read(path)
    if content == nil then
      error("file not found: " .. client:resolve(path))
    end
    d:set_id(path)
    -- Terraform strings are UTF-8: other bytes are only given as base64.
    local text = utf8.len(content) and content or nil
    d:set("content", text)
    d:set("content_base64", tf.base64.encode(content))
    d:set("sha256", tf.hash.sha256(content))
    d:set("size", #content)
    d:set("lines", text and text_lines.split_lines(text) or nil)
  end,
}
