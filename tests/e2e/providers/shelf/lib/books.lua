-- Books kept as files in the working directory: book-ISBN.txt holds the title.
local M = {}

local function path(isbn)
  return "book-" .. isbn .. ".txt"
end

-- The title of the book, or nil when there is no such book.
function M.title(isbn)
  local file = io.open(path(isbn), "r")
  if file == nil then
    return nil
  end
  local title = file:read("a")
  file:close()
  return title
end

function M.write(isbn, title)
  local file = assert(io.open(path(isbn), "w"))
  file:write(title)
  file:close()
end

function M.remove(isbn)
  os.remove(path(isbn))
end

-- The isbns of the books on the shelf, sorted.
function M.isbns(tf)
  local found = {}
  for _, name in ipairs(tf.fs.list(".")) do
    local isbn = name:match("^book%-(.+)%.txt$")
    if isbn then
      found[#found + 1] = isbn
    end
  end
  return found
end

return M
