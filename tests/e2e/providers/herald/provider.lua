-- A provider whose every hook speaks when told to (lib/speak.lua): configure by its own `say`,
-- each hook of herald_note by the note's `name`. Each warning and error points at an argument
-- other than the one that told it, so the CLI's line shows that the path was kept.
local tf = require("luaform")
local speak = require("lib.speak")

return tf.provider {
  description = "Warns and fails from every hook",
  schema = {
    say = tf.string { optional = true },
    region = tf.string { optional = true },
  },
  configure = function(config)
    speak("configure", config.say or "", "region")
    return {}
  end,
}
