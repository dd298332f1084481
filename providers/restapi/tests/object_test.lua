-- Tests of the restapi provider against a real JSON API: RESTAPI_URI names it, a json-server
-- with an empty `posts` collection (tests/e2e/test_testing_kit.py starts one on loopback):
--   RESTAPI_URI=http://127.0.0.1:3000 [TF_ACC=1] terraform-provider-restapi --test
local testing = require("luaform_testing")
local objects = require("lib.objects")

local test, equal = testing.test, testing.equal

local uri = os.getenv("RESTAPI_URI")
if not uri or uri == "" then
  error("these tests need a JSON API: set RESTAPI_URI to a json-server with a posts collection",
    0)
end

local function api()
  return testing.provider { uri = uri, retries = 0 }
end

test("lib.objects reads dotted fields and ids of any JSON type", function()
  equal(objects.field({ meta = { uid = "u1" } }, "meta.uid"), "u1")
  equal(objects.field({ meta = "flat" }, "meta.uid"), nil)
  equal(objects.id_text(42), "42")
  equal(objects.id_text("abc"), "abc")
  equal(objects.id_text({}), nil)
  equal(objects.with_id("/posts/{id}/publish", "7"), "/posts/7/publish")
end)

test("an object is created, updated in place, refreshed and deleted", function()
  local post = api():resource("restapi_object")
  local created = post:create { path = "/posts", data = '{"title": "one"}' }
  testing.no_errors(created)
  testing.truthy(created.state.id ~= nil and created.state.id ~= "", "the API gave an id")
  equal(created.state.api_data.title, "one")
  local updated = post:apply { prior = created,
    config = { path = "/posts", data = '{"title": "two"}' } }
  testing.no_errors(updated)
  equal(updated.replaced, false)
  equal(post:read(updated).state.api_data.title, "two")
  testing.no_errors(post:destroy(updated))
  equal(post:read(updated).state, nil, "a deleted object leaves the state")
end)

test("respelt JSON plans no change", function()
  local post = api():resource("restapi_object")
  local created = post:create { path = "/posts", data = '{"title": "x", "views": 1}' }
  local plan = post:plan { prior = created,
    config = { path = "/posts", data = '{ "views": 1,   "title": "x" }' } }
  testing.no_errors(plan)
  equal(plan.planned.data, created.state.data)
  post:destroy(created)
end)

test("data that is not a JSON object is refused, naming the attribute", function()
  local plan = api():resource("restapi_object"):plan { config = { path = "/posts",
    data = "[1, 2]" } }
  testing.has_error(plan, "must be a JSON object")
end)

test("the data source finds an object by a field", function()
  local provider = api()
  local post = provider:resource("restapi_object")
  local created = post:create { path = "/posts", data = '{"title": "findable"}' }
  local found = provider:data_source("restapi_object"):read { path = "/posts",
    search_key = "title", search_value = "findable" }
  testing.no_errors(found)
  equal(found.state.id, created.state.id)
  post:destroy(created)
end)

-- Three posts made through the resource, destroyed when the test ends.
local function three_posts(provider)
  local post = provider:resource("restapi_object")
  local made = {}
  testing.cleanup(function()
    for _, object in ipairs(made) do
      post:destroy(object)
    end
  end)
  for _, title in ipairs({ "first", "second", "third" }) do
    local created = post:create { path = "/posts", data = ('{"title": "%s"}'):format(title) }
    testing.no_errors(created)
    made[#made + 1] = created
  end
  return made
end

test("the list resource reads a collection page by page, up to the limit", function()
  local provider = api()
  local made = three_posts(provider)
  local posts = provider:list_resource("restapi_object")
  local listed = posts:list { limit = 2, config = { path = "/posts", display_field = "title",
    query = { _page = "1", _limit = "2" } } }
  testing.no_errors(listed)
  equal(#listed.events, 2)
  equal(listed.events[1].identity, { path = "/posts", id = made[1].state.id })
  equal(listed.events[1].display_name, "first")
  equal(listed.events[2].display_name, "second")
  equal(listed.events[1].object, nil)
  -- With include_resource each object is read as an import by its identity reads it.
  local whole = posts:list { limit = 1, include_resource = true, config = { path = "/posts" } }
  testing.no_errors(whole)
  equal(whole.events[1].display_name, "/posts/" .. made[1].state.id)
  equal(whole.events[1].object.api_data.title, "first")
  -- An import block's identity finds the same object.
  local imported = provider:resource("restapi_object"):import {
    identity = whole.events[1].identity }
  testing.no_errors(imported)
  equal(imported.state.id, made[1].state.id)
  -- The collection path is required.
  testing.has_error(posts:list { config = {} }, 'The argument "path" is required', "path")
end)

test("the request action checks its plan and reports the status as progress", function()
  local request = api():action("restapi_request")
  local invoked = request:invoke { method = "GET", path = "/posts" }
  testing.no_errors(invoked)
  equal(invoked.progress, { "GET /posts", "GET /posts: status 200" })
  -- A body on a GET is refused at plan time, and nothing is sent.
  testing.has_error(request:plan { method = "GET", path = "/posts", data = "{}" },
    "a GET request sends no body")
  local refused = request:invoke { method = "GET", path = "/posts", data = "{}" }
  equal(refused.progress, {})
  -- A status other than the expected one fails the invoke, after its first progress message.
  local missing = request:invoke { method = "GET", path = "/no-such-collection" }
  testing.has_error(missing, "GET /no-such-collection: status 404")
  equal(missing.progress, { "GET /no-such-collection" })
  testing.has_error(request:plan { path = "posts" }, "must start with /", "path")
end)

testing.acceptance("restapi_object lifecycle", function()
  local function config(title)
    return ([[
provider "restapi" {
  uri = %s
}

resource "restapi_object" "post" {
  path = "/posts"
  data = jsonencode({ title = %s })
}
]]):format(testing.hcl_string(uri), testing.hcl_string(title))
  end
  return {
    steps = {
      {
        config = config("hello"),
        check = function(state)
          equal(state.resources["restapi_object.post"].api_data.title, "hello")
        end,
      },
      { config = config("hello again") },
      {
        import = "restapi_object.post",
        id = function(state)
          return "/posts/" .. state.resources["restapi_object.post"].id
        end,
        verify = true,
      },
    },
  }
end)

-- Terraform 1.14 onwards (skipped with other CLIs): `terraform query` finds the object, and
-- `terraform apply -invoke` sends a request.
testing.acceptance("restapi_object found by a query, and a request invoked", function()
  local post = ([[
provider "restapi" {
  uri = %s
}

resource "restapi_object" "post" {
  path = "/posts"
  data = jsonencode({ title = "listed" })
}
]]):format(testing.hcl_string(uri))
  return {
    needs = { "query", "invoke" },
    steps = {
      { config = post },
      {
        query = [[
list "restapi_object" "posts" {
  provider         = restapi
  include_resource = true
  config {
    path          = "/posts"
    display_field = "title"
  }
}
]],
        check = function(results)
          local found = results["list.restapi_object.posts"]
          equal(#found, 1)
          equal(found[1].display_name, "listed")
          equal(found[1].object.api_data.title, "listed")
        end,
      },
      {
        invoke = "action.restapi_request.count",
        config = post .. [[

action "restapi_request" "count" {
  config {
    method = "GET"
    path   = "/posts"
  }
}
]],
        check = function(progress)
          equal(progress, { "GET /posts", "GET /posts: status 200" })
        end,
      },
    },
  }
end)
