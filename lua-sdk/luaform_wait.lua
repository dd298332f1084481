-- Waiting on asynchronous APIs: tf.wait_for (an object reaching a state) and tf.retry (an
-- operation that fails for a while). Both sleep with tf.time.sleep, so StopProvider and the
-- operation's timeout end them at once, and both raise their errors at the caller's line.

local time = require("luaform_time")

local M = {}

-- The first wait between two refreshes, doubled each time up to kMaxBackoff (seconds).
local kFirstBackoff = 0.1
local kMaxBackoff = 10

local function set_of(list, name)
  if list == nil then
    return {}
  end
  if type(list) ~= "table" then
    error(("tf.wait_for: %s must be a list of states"):format(name), 3)
  end
  local set = {}
  for _, state in ipairs(list) do
    set[state] = true
  end
  return set
end

local function quoted_list(list)
  local out = {}
  for i, state in ipairs(list or {}) do
    out[i] = ("%q"):format(state)
  end
  return table.concat(out, ", ")
end

local function known_options(options, known, what)
  for key in pairs(options) do
    if not known[key] then
      error(("%s: unknown option %q"):format(what, tostring(key)), 3)
    end
  end
end

local WAIT_OPTIONS = {
  pending = true, target = true, refresh = true, timeout = true, delay = true,
  min_timeout = true, poll_interval = true, not_found_checks = true,
  continuous_target_occurence = true,
}

-- tf.wait_for { pending, target, refresh, timeout, delay, min_timeout, poll_interval,
--               not_found_checks, continuous_target_occurence }
-- refresh() returns (object, state) with object nil while the object cannot be found. Returns
-- the object and state once the state is a target (with an empty target, once it is gone).
function M.wait_for(options)
  if type(options) ~= "table" then
    error("tf.wait_for expects a table of options", 2)
  end
  known_options(options, WAIT_OPTIONS, "tf.wait_for")
  if type(options.refresh) ~= "function" then
    error("tf.wait_for: refresh must be a function returning (object, state)", 2)
  end
  if options.timeout == nil then
    error("tf.wait_for: timeout is required (d:timeout(\"create\") gives the resource's)", 2)
  end
  local pending = set_of(options.pending, "pending")
  local target = set_of(options.target, "target")
  local wants_gone = next(target) == nil
  local timeout = time.seconds(options.timeout)
  local min_wait = options.min_timeout and time.seconds(options.min_timeout) or 0
  local interval = options.poll_interval and time.seconds(options.poll_interval)
  local not_found_checks = options.not_found_checks or 20
  local needed = options.continuous_target_occurence or 1
  local deadline = time.now() + timeout
  if options.delay then
    time.sleep(time.seconds(options.delay))
  end

  local backoff = kFirstBackoff
  local not_found, in_target, last_state = 0, 0, nil
  while true do
    local object, state = options.refresh()
    if object == nil then
      if wants_gone then
        return nil, state
      end
      not_found = not_found + 1
      in_target = 0
      if not_found > not_found_checks then
        error(("tf.wait_for: the object was not found %d times in a row (wanted %s)")
          :format(not_found, quoted_list(options.target)), 2)
      end
    else
      not_found = 0
      last_state = state
      if target[state] then
        in_target = in_target + 1
        if in_target >= needed then
          return object, state
        end
      elseif pending[state] then
        in_target = 0
      else
        error(("tf.wait_for: unexpected state %q, wanted %s (pending: %s)")
          :format(tostring(state), wants_gone and "it gone" or quoted_list(options.target),
            quoted_list(options.pending)), 2)
      end
    end

    local left = deadline - time.now()
    if left <= 0 then
      error(("tf.wait_for: timeout while waiting for state to become %s (last state: %s, " ..
        "timeout: %s)"):format(wants_gone and "gone" or quoted_list(options.target),
          last_state and ("%q"):format(last_state) or "none", time.format(timeout)), 2)
    end
    local pause = interval
    if pause == nil then
      pause = math.max(backoff, min_wait)
      backoff = math.min(backoff * 2, kMaxBackoff)
    end
    -- The last look happens at the deadline, not after it.
    time.sleep(math.min(pause, left))
  end
end

-- The error value tf.retryable(message) makes: raised inside tf.retry's function, it asks for
-- another attempt.
-- Sealed: getmetatable(err) gives the name, which is how tf.retry knows one.
local RETRYABLE = "luaform.retryable"
local Retryable = {
  __name = RETRYABLE,
  __metatable = RETRYABLE,
  __tostring = function(self)
    return self.message
  end,
}

-- tf.retryable(err): an error that tf.retry tries again after; err is a message or any error
-- value (an HTTP error from tf.http, say), kept as `cause`.
function M.retryable(err)
  return setmetatable({ message = tostring(err), cause = err }, Retryable)
end

-- tf.retry(timeout, fn): calls fn() until it returns, and returns what it returns. An error
-- made by tf.retryable is tried again (with a growing wait) until the timeout; any other error
-- ends the retry at once, unchanged.
function M.retry(timeout, fn)
  if type(fn) ~= "function" then
    error("tf.retry expects a timeout and a function", 2)
  end
  local seconds = time.seconds(timeout)
  local deadline = time.now() + seconds
  local backoff = kFirstBackoff * 5
  while true do
    local result = table.pack(pcall(fn))
    if result[1] then
      return table.unpack(result, 2, result.n)
    end
    local err = result[2]
    if getmetatable(err) ~= RETRYABLE then
      error(err, 0)
    end
    local left = deadline - time.now()
    if left <= 0 then
      error(("tf.retry: still failing after %s: %s"):format(time.format(seconds), err.message), 2)
    end
    time.sleep(math.min(backoff, left))
    backoff = math.min(backoff * 2, kMaxBackoff)
  end
end

return M
