-- luaform_validators: the validators behind `tf.v`, for an attribute's `validate` option.
--
-- A validator is a function(value, path, p) that returns nil when the value is fine, or a
-- message saying what is wrong. `path` is the attribute's address ("disk.0.size"), so messages
-- can say which value they are about; `p` is the request every attribute hook gets (the
-- configured object and resource around the value). The host calls validators only with known,
-- non-null values, during `validate` and `plan`.

local M = {}

-- Level for error(): the script line that called the constructor with bad arguments.
local CALLER = 2

local function check_number(name, value)
  if type(value) ~= "number" then
    error(string.format("tf.v.%s expects numbers, got %s", name, type(value)), CALLER + 1)
  end
end

-- How long a value is: characters for a string (UTF-8 aware), elements for a table.
local function length_of(value)
  if type(value) == "string" then
    return utf8.len(value) or #value
  end
  if type(value) == "table" then
    local n = 0
    for _ in pairs(value) do
      n = n + 1
    end
    return n
  end
  return nil
end

local function quoted(value)
  if type(value) == "string" then
    return string.format("%q", value)
  end
  return tostring(value)
end

-- A validator for numbers that `within(value)` accepts; `bounds` says which in messages.
local function number_range(within, bounds)
  return function(value, path)
    if type(value) ~= "number" or not within(value) then
      return string.format("expected %s to be %s, got %s", path, bounds, quoted(value))
    end
    return nil
  end
end

--- Numbers from `min` to `max`, both included.
function M.between(min, max)
  check_number("between", min)
  check_number("between", max)
  return number_range(function(v) return v >= min and v <= max end,
    string.format("between %s and %s", quoted(min), quoted(max)))
end

--- Numbers of at least `min`.
function M.at_least(min)
  check_number("at_least", min)
  return number_range(function(v) return v >= min end, "at least " .. quoted(min))
end

--- Numbers of at most `max`.
function M.at_most(max)
  check_number("at_most", max)
  return number_range(function(v) return v <= max end, "at most " .. quoted(max))
end

--- Whole numbers only.
function M.integer()
  return function(value, path)
    if math.type(value) ~= "integer" then
      return string.format("expected %s to be a whole number, got %s", path, quoted(value))
    end
    return nil
  end
end

--- Strings (or collections) whose length is from `min` to `max`.
function M.length_between(min, max)
  check_number("length_between", min)
  check_number("length_between", max)
  return function(value, path)
    local n = length_of(value)
    if n == nil or n < min or n > max then
      return string.format("expected the length of %s to be between %d and %d, got %s", path, min,
        max, tostring(n))
    end
    return nil
  end
end

--- Strings that are not empty.
function M.not_empty()
  return function(value, path)
    if value == "" then
      return string.format("expected %s not to be empty", path)
    end
    return nil
  end
end

--- One of the given values (compared exactly, or ignoring case when `options.ignore_case`).
function M.one_of(allowed, options)
  if type(allowed) ~= "table" or #allowed == 0 then
    error("tf.v.one_of expects a list of allowed values", CALLER)
  end
  local ignore_case = type(options) == "table" and options.ignore_case
  local names = {}
  for i, v in ipairs(allowed) do
    names[i] = quoted(v)
  end
  return function(value, path)
    for _, v in ipairs(allowed) do
      if v == value or (ignore_case and type(v) == "string" and type(value) == "string"
          and v:lower() == value:lower()) then
        return nil
      end
    end
    return string.format("expected %s to be one of %s, got %s", path, table.concat(names, ", "),
      quoted(value))
  end
end

--- Strings matching a Lua pattern (anchor it with ^ and $ to match the whole string).
function M.pattern(lua_pattern, message)
  if type(lua_pattern) ~= "string" then
    error("tf.v.pattern expects a Lua pattern string", CALLER)
  end
  -- A malformed pattern fails here, at load time, rather than during every validation.
  local ok, problem = pcall(string.find, "", lua_pattern)
  if not ok then
    error("tf.v.pattern: " .. tostring(problem), CALLER)
  end
  return function(value, path)
    if type(value) ~= "string" or not value:find(lua_pattern) then
      return message and string.format("%s: %s", path, message)
        or string.format("expected %s to match %s, got %s", path, quoted(lua_pattern),
          quoted(value))
    end
    return nil
  end
end

--- Every element of a list, set or map passes `validator`.
function M.each(validator)
  if type(validator) ~= "function" then
    error("tf.v.each expects a validator function", CALLER)
  end
  return function(value, path, p)
    if type(value) ~= "table" then
      return nil
    end
    local keys = {}
    for k in pairs(value) do
      keys[#keys + 1] = k
    end
    table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
    for _, k in ipairs(keys) do
      local where = math.type(k) == "integer" and string.format("%s.%d", path, k - 1)
        or string.format("%s.%s", path, k)
      local problem = validator(value[k], where, p)
      if problem then
        return problem
      end
    end
    return nil
  end
end

--- Passes when every validator passes (the first problem is reported).
function M.all(...)
  local validators = { ... }
  return function(value, path, p)
    for _, validator in ipairs(validators) do
      local problem = validator(value, path, p)
      if problem then
        return problem
      end
    end
    return nil
  end
end

--- Passes when any validator passes; otherwise reports every problem.
function M.any(...)
  local validators = { ... }
  return function(value, path, p)
    local problems = {}
    for _, validator in ipairs(validators) do
      local problem = validator(value, path, p)
      if not problem then
        return nil
      end
      problems[#problems + 1] = problem
    end
    return table.concat(problems, "; or ")
  end
end

return M
