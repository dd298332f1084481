-- resource "shelf_book": a book on the shelf (see lib/books.lua), named by its isbn.
local tf = require("luaform")
local books = require("lib.books")

return tf.resource {
  description = "A book on the shelf",
  schema = {
    isbn = tf.string { required = true, force_new = true },
    title = tf.string { required = true },
  },
  identity = { schema = { isbn = tf.string { required_for_import = true } } },
  create = function(d)
    books.write(d:get("isbn"), d:get("title"))
    d:set_id(d:get("isbn"))
  end,
  read = function(d)
    local title = books.title(d:id())
    if title == nil then
      d:set_id("")
      return
    end
    d:set("isbn", d:id())
    d:set("title", title)
  end,
  update = function(d)
    books.write(d:id(), d:get("title"))
  end,
  delete = function(d)
    books.remove(d:id())
  end,
  import = function(d)
    local identity = d:identity()
    if identity ~= nil then
      d:set_id(identity.isbn)
    end
  end,
}
