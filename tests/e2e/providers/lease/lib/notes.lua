-- The service's notes, which lease_note and lease_memo both manage: reading one back and
-- deleting one go the same way whatever the resource calls the note's text.
local M = {}

-- A read function: fetches the note, or marks it gone when the service has none;
-- `record(d, note)` keeps what the resource shows of it.
function M.reader(record)
  return function(d, client)
    local note, response = client:get("/notes/" .. d:id(), { allow = { 404 } })
    if response.status == 404 then
      d:set_id("")
      return
    end
    record(d, note)
  end
end

-- Deletes the note; one already gone is fine.
function M.delete(d, client)
  client:delete("/notes/" .. d:id(), { allow = { 404 } })
end

return M
