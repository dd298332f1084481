-- list "shelf_book": the books on the shelf whose isbn starts with `prefix`. Marker files in the
-- working directory make it misbehave, for the scenarios:
--   odd-entry   one element whose identity does not fit (a list, not a string) comes first
--   fail-list   list raises an error after the first book
-- With include_resource it gives each book's whole object itself (no read).
local tf = require("luaform")
local books = require("lib.books")

local function present(marker)
  local file = io.open(marker)
  if file then
    file:close()
    return true
  end
  return false
end

return tf.list_resource {
  description = "The books on the shelf",
  schema = {
    prefix = tf.string { optional = true, default = "", description = "Start of the isbns" },
  },
  list = function(request, emit)
    if present("odd-entry") then
      emit { identity = { isbn = { "9", "7", "8" } }, display_name = "odd entry" }
    end
    for _, isbn in ipairs(books.isbns(tf)) do
      if isbn:sub(1, #request.config.prefix) == request.config.prefix then
        local object = nil
        if request.include_resource then
          object = { id = isbn, isbn = isbn, title = books.title(isbn) }
        end
        local title = books.title(isbn)
        if not emit { identity = { isbn = isbn }, display_name = title, object = object } then
          return
        end
        if present("fail-list") then
          error("the shelf fell over")
        end
      end
    end
  end,
}
