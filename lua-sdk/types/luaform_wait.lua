---@meta
-- luacheck: no unused, max comment line length 600
-- Type definitions of `require("luaform_wait")`, the module behind `tf.wait_for`, `tf.retry`
-- and `tf.retryable`.

--- The options of `tf.wait_for`.
---@class (exact) luaform.WaitOptions : { refresh?: any, pending?: any, target?: any, timeout?: any, delay?: any, min_timeout?: any, poll_interval?: any, not_found_checks?: any, continuous_target_occurence?: any, [string]: nil }
---@field refresh fun(): any, any returns the object (nil while it is not found) and its state
---@field pending? any[] states that mean "still working"
---@field target? any[] states to wait for; empty: wait until the object is gone
---@field timeout luaform.Duration how long to wait in all (`d:timeout("create")`)
---@field delay? luaform.Duration a wait before the first refresh
---@field min_timeout? luaform.Duration the least pause between refreshes
---@field poll_interval? luaform.Duration a fixed pause instead of the growing one
---@field not_found_checks? integer refreshes in a row that may find nothing (20)
---@field continuous_target_occurence? integer times in a row the target must be seen (1)

--- The error `tf.retryable` makes.
---@class luaform.Retryable
---@field message string the error as text
---@field cause any the error value it was made from

---@class luaform.wait
local wait = {}

--- Calls `refresh` until the state it gives is a `target`; returns the object and state.
---@param options luaform.WaitOptions
---@return any object
---@return any state
function wait.wait_for(options) end

--- Calls `fn` until it returns, again after each `tf.retryable` error, until the timeout.
---@generic R
---@param timeout luaform.Duration
---@param fn fun(): R
---@return R
function wait.retry(timeout, fn) end

--- An error for `tf.retry` to try again after.
---@param err any
---@return luaform.Retryable
function wait.retryable(err) end

return wait
