-- What every hook of the herald provider does with the words it is given: words holding "warn"
-- make it tf.warn, the words "fail-HOOK" make HOOK tf.fail; either at the argument `path`,
-- with a summary and detail that name the hook.
local tf = require("luaform")

return function(hook, words, path)
  if words:find("warn", 1, true) then
    tf.warn { summary = hook .. " warns", detail = "a warning from " .. hook, path = path }
  end
  if words == "fail-" .. hook then
    local detail = "an error from " .. hook
    tf.fail { summary = hook .. " refuses", detail = detail, path = path } -- MARK: fail
  end
end
