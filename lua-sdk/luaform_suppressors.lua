-- luaform_suppressors: ready-made `diff_suppress` functions, as `tf.suppress`.
--
-- A suppressor is a function(address, old, new) that returns true when `old` (stored) and `new`
-- (configured, or read back from the API) are the same value spelled differently. The host
-- asks only about known, non-null, unequal values, and keeps the stored spelling when the
-- answer is true, so the difference never shows as a change.

local json = require("luaform_json")

local M = {}

local function both_strings(old, new)
  return type(old) == "string" and type(new) == "string"
end

-- Linear in the length of `s`: each find below is anchored at one position. (gsub("%s+$", "")
-- tries every run of spaces inside the text from each of its positions: quadratic.)
local function trimmed(s)
  local first, last = 1, #s
  while first <= last and s:find("^%s", first) do
    first = first + 1
  end
  while last >= first and s:find("^%s", last) do
    last = last - 1
  end
  return s:sub(first, last)
end

-- "Web-01" and "web-01": names an API treats without regard to case.
function M.case_insensitive(_, old, new)
  return both_strings(old, new) and old:lower() == new:lower()
end

-- '{"a": 1, "b": [2]}' and '{"b":[2],"a":1}': JSON documents with the same content (key
-- order, spacing and number spelling aside). Text that is not JSON is never the same.
function M.equivalent_json(_, old, new)
  return both_strings(old, new) and json.equivalent(old, new)
end

-- "ssh-rsa AAAA\n" and "ssh-rsa AAAA": leading and trailing whitespace does not count.
function M.surrounding_space(_, old, new)
  return both_strings(old, new) and trimmed(old) == trimmed(new)
end

-- A suppressor that says "same" when any of the given ones does:
-- tf.suppress.any(tf.suppress.case_insensitive, tf.suppress.surrounding_space).
function M.any(...)
  local suppressors = { ... }
  for i, fn in ipairs(suppressors) do
    if type(fn) ~= "function" then
      error(string.format("tf.suppress.any: argument %d must be a function, got %s", i,
        type(fn)), 2)
    end
  end
  return function(address, old, new)
    for _, fn in ipairs(suppressors) do
      if fn(address, old, new) then
        return true
      end
    end
    return false
  end
end

return M
