-- luaform_openapi_async: an operation answered 202 Accepted, followed until the work it
-- started is done. Internal to the SDK: luaform_openapi_api calls it for every 202.
--
-- Where the work's status is: the answer's Operation-Location or Azure-AsyncOperation header,
-- else a field of its body that links to it (`task`, `task_href`, `status_url`, `monitor`,
-- `operation`, `href`, or `links.status`), else its Location header. With none, the answer
-- is returned as it is (the mapping then reads the object back).
--
-- The link is asked (GET, with the client's credentials; a redirect, such as a 303 to what the
-- work made, is followed) until its answer says the work is done: a state field (`state`,
-- `status`, `provisioningState`, `phase`, or `status.state`) whose value is one of DONE, or an
-- answer of 200, 201 or 204 with no state field. A value in FAILED is an error quoting the
-- answer; a 202 or any other state is asked again after a wait that doubles from 0.1 s up to
-- 2 s, or what Retry-After asks (at most 30 s). tf.time.sleep ends the waits at the
-- operation's timeout and at StopProvider.
--
-- What the work made, when the status answer says (`created_resources[1]`,
-- `resource_location`, `resourceLocation`, `resource_href`), is returned as `created`: a
-- create takes the new object's id from its last segment before any id of the 202's body
-- (which may be the task's).
--
-- The author may say where the status is per provider or per type: `poll = { link = "job",
-- state = "phase", done = { "Ready" }, failed = { "Broken" } }`, or `poll = false` to take a
-- 202 as the end of the work.
--
-- A status link is asked only on the API's own origin (scheme, host and port of base_url) or
-- on one the author names in `poll.origins`: the request carries the client's credentials, and
-- the conventional fields (`href`, `monitor`) may hold what a user stored in the object, so a
-- link elsewhere is an error naming it, not a request that hands the credential to its host.

local paths = require("luaform_paths")
local time = require("luaform_time")
local json = require("luaform_json")

local M = {}

local LINK_HEADERS = { "operation-location", "azure-asyncoperation" }
local LINK_FIELDS = { "task", "task_href", "status_url", "statusUrl", "monitor", "operation",
  "href" }
local STATE_FIELDS = { "state", "status", "provisioningState", "phase" }
local CREATED_FIELDS = { "resource_location", "resourceLocation", "resource_href" }
local DONE = { "completed", "complete", "succeeded", "success", "successful", "done",
  "finished", "ready" }
local FAILED = { "failed", "failure", "error", "errored", "canceled", "cancelled", "aborted" }

local FIRST_WAIT, LONGEST_WAIT, LONGEST_ASKED = 0.1, 2, 30

local function lowered_set(list)
  local set = {}
  for _, value in ipairs(list) do
    set[tostring(value):lower()] = true
  end
  return set
end

local DONE_SET, FAILED_SET = lowered_set(DONE), lowered_set(FAILED)

local function text(value)
  return type(value) == "string" and value ~= "" and value or nil
end

-- The status link of a 202 `response` whose body is `object`, or nil.
local function link_of(response, object, poll)
  if poll.link then
    return type(object) == "table" and text(object[poll.link]) or nil
  end
  for _, header in ipairs(LINK_HEADERS) do
    if text(response.headers[header]) then
      return response.headers[header]
    end
  end
  if type(object) == "table" then
    for _, field in ipairs(LINK_FIELDS) do
      if text(object[field]) then
        return object[field]
      end
    end
    if type(object.links) == "table" and text(object.links.status) then
      return object.links.status
    end
  end
  return text(response.headers.location)
end

-- The state a status answer gives (a string), or nil when it gives none.
local function state_of(answer, poll)
  if type(answer) ~= "table" then
    return nil
  end
  if poll.state then
    return answer[poll.state] ~= nil and tostring(answer[poll.state]) or nil
  end
  for _, field in ipairs(STATE_FIELDS) do
    local value = answer[field]
    if type(value) == "table" then
      value = value.state
    end
    if type(value) == "string" then
      return value
    end
  end
  return nil
end

-- What the finished work made, by the status answer, or nil.
local function created_by(answer)
  if type(answer) ~= "table" then
    return nil
  end
  if type(answer.created_resources) == "table" and text(answer.created_resources[1]) then
    return answer.created_resources[1]
  end
  for _, field in ipairs(CREATED_FIELDS) do
    if text(answer[field]) then
      return answer[field]
    end
  end
  return nil
end

-- The origins a status may be asked at: the API's own and those of poll.origins, by lowered
-- text ("https://jobs.example.com:8443").
local function trusted_origins(own, poll)
  local trusted = { [own] = true }
  for _, origin in ipairs(poll.origins or {}) do
    trusted[(origin:gsub("/+$", "")):lower()] = true
  end
  return trusted
end

local function excerpt(response)
  local body = response.body or ""
  return #body > 512 and body:sub(1, 512) .. "..." or body
end

-- Follows the work a 202 `response` (its body `object`) to `op` started, through `client`
-- (luaform_openapi_api's); returns the status answer and its response, with `created` set
-- on the response when the work says what it made. `poll`: the author's options (or {}).
function M.finished(client, op, response, object, poll)
  local link = link_of(response, object, poll)
  if link == nil then
    return nil
  end
  local done = poll.done and lowered_set(poll.done) or DONE_SET
  local failed = poll.failed and lowered_set(poll.failed) or FAILED_SET
  local url = paths.resolve(link, client.base_url)
  local started = string.format("%s %s (%s) answered 202", op.method:upper(), op.path,
    op.id or op.where)
  local own = (paths.origin(client.base_url) or ""):lower()
  local trusted = trusted_origins(own, poll)
  local wait = FIRST_WAIT
  while true do
    local origin = paths.origin(url)
    if not (origin and trusted[origin:lower()]) then
      error(string.format("%s, and its status link %s is not on the API's origin (%s): it is "
        .. "not asked with the provider's credentials; name its origin in the poll option's "
        .. "origins to follow it", started, url, own), 0)
    end
    -- An API key the client sends in the query goes to the API's own origin only.
    local query = origin:lower() == own and client.query or nil
    local answered = client.http:request { method = "GET", url = url, query = query }
    local answer = answered.json
    if answer == json.null then
      answer = nil
    end
    local state = state_of(answer, poll)
    if (state and done[state:lower()])
      or (not state and (answered.status == 200 or answered.status == 201
        or answered.status == 204)) then
      answered.created = created_by(answer)
      return answer, answered
    end
    if answered.status ~= 202 and (answered.status < 200 or answered.status > 299) then
      error(string.format("%s, and its status at %s answered %d: %s", started, url,
        answered.status, excerpt(answered)), 0)
    end
    if state and failed[state:lower()] then
      error(string.format("%s, and its work ended %s (%s): %s", started, state, url,
        excerpt(answered)), 0)
    end
    -- A 202 may move the status elsewhere.
    if answered.status == 202 and text(answered.headers.location) and not poll.link then
      url = paths.resolve(answered.headers.location, url)
    end
    local asked = tonumber(answered.headers["retry-after"] or "")
    time.sleep(asked and math.min(math.max(asked, 0), LONGEST_ASKED) or wait)
    wait = math.min(wait * 2, LONGEST_WAIT)
  end
end

-- The poll option's problem, or nil: false, or a table of link, state, done, failed and
-- origins.
function M.option_problem(poll)
  if poll == nil or poll == false then
    return nil
  end
  if type(poll) ~= "table" then
    return "poll must be false or a table such as { link = \"task\", state = \"state\" }"
  end
  for key, value in pairs(poll) do
    if key == "link" or key == "state" then
      if type(value) ~= "string" then
        return "poll." .. tostring(key) .. " must be a field name"
      end
    elseif key == "done" or key == "failed" then
      if type(value) ~= "table" then
        return "poll." .. key .. " must be a list of states"
      end
    elseif key == "origins" then
      if type(value) ~= "table" then
        return "poll.origins must be a list of origins such as \"https://jobs.example.com\""
      end
      for _, origin in ipairs(value) do
        if type(origin) ~= "string" or not origin:match("^https?://[^/?#]+/*$") then
          return "poll.origins: " .. string.format("%q", tostring(origin))
            .. " is not an origin (a scheme and a host, such as \"https://jobs.example.com\")"
        end
      end
    else
      return "poll has no option " .. string.format("%q", tostring(key))
        .. " (its options: done, failed, link, origins, state)"
    end
  end
  return nil
end

return M
