-- A loop that never ends and never calls into the host: only the call's deadline stops it.
return function()
  local turns = 0
  while true do
    turns = turns + 1 -- MARK: spin
  end
end
