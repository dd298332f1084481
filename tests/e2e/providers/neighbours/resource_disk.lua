-- resource "neighbours_disk": hooks of one attribute that look beyond their own value through
-- the request `p` every attribute hook gets. A part's `gb` is checked against the part's kind
-- (`p.object`) and the disk's tier (`p.resource`); shrinking `size` replaces the disk unless it
-- says it may shrink in place; a part's `label` is compared without regard to case when the
-- disk says so. Each hook also checks the address it is given. Nothing outside the state is
-- touched.
local tf = require("luaform")

local function expect_path(p, path)
  if p.path ~= path then
    error("the request's path is " .. tostring(p.path) .. ", not " .. path)
  end
end

return tf.resource {
  description = "A disk whose checks look at their neighbours",
  schema = {
    tier = tf.string { required = true },
    shrink_in_place = tf.bool { optional = true },
    case_blind = tf.bool { optional = true },
    size = tf.number { required = true,
      requires_replace_if = function(old, new, _, p)
        expect_path(p, "size")
        return new ~= tf.unknown and new < old and not p.resource.shrink_in_place
      end },
    part = tf.list_block { schema = {
      kind = tf.string { required = true },
      gb = tf.number { required = true,
        validate = function(gb, path, p)
          expect_path(p, path)
          if p.object.kind == "ssd" and gb > 8 and p.resource.tier ~= "large" then
            return path .. " asks for " .. gb .. " GB of ssd; the " .. p.resource.tier
              .. " tier gives at most 8"
          end
        end },
      label = tf.string { optional = true,
        diff_suppress = function(address, old, new, p)
          expect_path(p, address)
          return p.resource.case_blind == true and old:lower() == new:lower()
        end },
    } },
  },
  create = function(d)
    d:set_id(tf.uuid())
  end,
  read = function()
  end,
  update = function()
  end,
  delete = function()
  end,
}
