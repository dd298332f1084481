-- data "localfs_file": reads a file that exists already.
local tf = require("luaform")
local text = require("lib.text")

return tf.data_source {
  description = "Reads a file from the local disk",
  schema = {
    path = tf.string {
      required = true,
      description = "Path of the file; relative paths start from the provider's root",
    },
    content = tf.string { computed = true, description = "The file's whole content" },
    sha256 = tf.string { computed = true, description = "SHA-256 of the content, hex" },
    size = tf.number { computed = true, description = "Size of the content in bytes" },
    lines = tf.list(tf.string) { computed = true, description = "The content's lines" },
  },

  read = function(d, client)
    local path = d:get("path")
    local content = client:read(path)
    if content == nil then
      error("file not found: " .. client:resolve(path))
    end
    d:set_id(path)
    d:set("content", content)
    d:set("sha256", tf.hash.sha256(content))
    d:set("size", #content)
    d:set("lines", text.split_lines(content))
  end,
}
