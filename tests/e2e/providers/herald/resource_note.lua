-- resource "herald_note": each of its hooks speaks (lib/speak.lua) at the argument `note` when
-- `name` tells it to: validate, diff_suppress and requires_replace_if of `name` (the last two
-- only when an update changes it), the plan function of `label`, customize_diff and create.
local tf = require("luaform")
local speak = require("lib.speak")

return tf.resource {
  description = "A note whose hooks warn and fail when its name says so",
  schema = {
    name = tf.string {
      required = true,
      validate = function(value)
        speak("validate", value, "note")
      end,
      diff_suppress = function(_, _, new)
        speak("diff_suppress", new, "note")
        return false
      end,
      requires_replace_if = function(_, new)
        speak("requires_replace_if", new, "note")
        return false
      end,
    },
    note = tf.string { optional = true },
    label = tf.string {
      computed = true,
      plan = function(p)
        speak("plan", p.resource.name, "note")
        return "label of " .. p.resource.name
      end,
    },
  },
  customize_diff = function(d)
    speak("customize_diff", d:get("name"), "note")
  end,
  create = function(d)
    speak("create", d:get("name"), "note")
    d:set_id(d:get("name"))
    d:set("label", "label of " .. d:get("name"))
  end,
  read = function() end,
  update = function(d)
    d:set("label", "label of " .. d:get("name"))
  end,
  delete = function() end,
}
