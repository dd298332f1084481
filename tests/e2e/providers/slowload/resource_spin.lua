-- resource "slowload_spin": its top level never returns, so it never finishes loading; the
-- provider's other scripts must still serve, and the CLI must still be able to stop it.
local n = 0
while true do
  n = n + 1
end
