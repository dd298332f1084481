-- tf.http.paginate(client, path, options): every item of every page of a listing, in order.
--
-- options:
--   query      query parameters of the first request
--   headers    headers of every request
--   items      where a page keeps its items: a field name ("data"), or function(body, response)
--              returning the list; default: the body itself is the list
--   next       function(body, response, page) returning the path or URL of the next page and
--              its query table, or nil after the last page; default: the Link header's
--              rel="next" target (RFC 8288), as GitHub-style APIs send it
--   max_pages  a bound against an API that never stops (default 1000)
--   each       function(item) called with each item as its page arrives; when it returns false,
--              no further item or page is read, and the items so far are returned (a listing
--              that stops at a limit reads only the pages it needs)

local function next_from_link(_, response)
  local link = response.headers.link
  if not link then
    return nil
  end
  for target, parameters in link:gmatch("<([^>]*)>([^,]*)") do
    if parameters:find('rel%s*=%s*"?next"?') then
      return target
    end
  end
  return nil
end

local function items_reader(items)
  if items == nil then
    return function(body)
      return body
    end
  end
  if type(items) == "string" then
    return function(body)
      return type(body) == "table" and body[items] or nil
    end
  end
  return items
end

return function(client, path, options)
  options = options or {}
  local items_of = items_reader(options.items)
  local next_of = options.next or next_from_link
  local max_pages = options.max_pages or 1000
  local all = {}
  local target, query = path, options.query
  local asked = {}
  for page = 1, max_pages do
    local body, response = client:get(target, { query = query, headers = options.headers })
    local items = items_of(body, response)
    if type(items) ~= "table" then
      error(("tf.http.paginate: page %d of %s holds no list of items (set options.items)")
        :format(page, path), 2)
    end
    for _, item in ipairs(items) do
      all[#all + 1] = item
      if options.each ~= nil and options.each(item) == false then
        return all
      end
    end
    local following, following_query = next_of(body, response, page)
    if following == nil or following == "" then
      return all
    end
    -- The same page asked for twice would loop forever.
    local key = following .. "?" .. require("luaform_json").encode(following_query or {})
    if asked[key] then
      error(("tf.http.paginate: the next page of page %d of %s is one already read (%s)")
        :format(page, path, following), 2)
    end
    asked[key] = true
    target, query = following, following_query
  end
  error(("tf.http.paginate: %s has more than %d pages (raise options.max_pages)")
    :format(path, max_pages), 2)
end
