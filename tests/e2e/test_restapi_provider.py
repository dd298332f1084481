"""providers/restapi against json-server (a real REST API from npm, on loopback): the object
lifecycle with plan-empty-after-apply, drift on the managed fields only, import-verify, the data
source over paged listings, and error paths that lose no state."""
import json

from support.harness import planned_actions, required_providers, resources, squash

POST = """
resource "restapi_object" "post" {
  path = "/posts"
  data = jsonencode({ title = "%s", views = 1, tags = ["a", "b"] })
}
"""


def config(url: str, body: str) -> str:
    return required_providers("restapi") + f"""
provider "restapi" {{
  uri     = "{url}"
  retries = 1
  retry_wait_min = "50ms"
}}
""" + body


def values(tofu, address="restapi_object.post") -> dict:
    return resources(tofu.state())[address]["values"]


def test_an_object_goes_through_its_lifecycle_and_drift_is_seen_on_managed_fields(
        make_tofu, restapi_dir, json_server):
    tofu = make_tofu({"restapi": restapi_dir})
    tofu.write(config(json_server.url, POST % "hello"))
    tofu.apply()
    state = values(tofu)
    status, post = json_server.request("GET", "/posts/" + state["id"])
    assert status == 200 and post["title"] == "hello" and post["tags"] == ["a", "b"]
    assert json.loads(state["api_response"]) == post
    assert state["api_data"]["title"] == "hello" and state["api_data"]["tags"] == '["a","b"]'
    assert tofu.plan_exit_code() == 0  # plan is empty after apply
    # Each request is a debug line in the CLI's log (TF_LOG=trace here).
    requests = [line for line in tofu.log.read_text(errors="replace").splitlines()
                if "provider.terraform-provider-restapi" in line and "POST /posts: 201" in line]
    assert requests and "[DEBUG]" in requests[0] and "status=201" in requests[0], requests

    # A field the server adds is not drift; a managed field changed outside is.
    json_server.request("PATCH", "/posts/" + state["id"], {"likes": 7})
    assert tofu.plan_exit_code() == 0
    json_server.request("PATCH", "/posts/" + state["id"], {"title": "changed outside"})
    code, plan = tofu.plan()
    assert code == 2 and planned_actions(plan) == {"restapi_object.post": ["update"]}
    tofu.apply()
    assert json_server.request("GET", "/posts/" + state["id"])[1]["title"] == "hello"
    assert tofu.plan_exit_code() == 0

    # Respelling the JSON (order, spacing) is no change.
    tofu.write(config(json_server.url, """
resource "restapi_object" "post" {
  path = "/posts"
  data = "{\\"views\\": 1, \\"tags\\": [\\"a\\", \\"b\\"],   \\"title\\": \\"hello\\"}"
}
"""))
    assert tofu.plan_exit_code() == 0

    # A change in the configuration is an in-place update with a new answer from the server.
    tofu.write(config(json_server.url, POST % "second title"))
    code, plan = tofu.plan()
    assert planned_actions(plan) == {"restapi_object.post": ["update"]}
    tofu.apply()
    assert values(tofu)["api_data"]["title"] == "second title"

    # Deleted outside: the next plan creates it again.
    json_server.request("DELETE", "/posts/" + state["id"])
    code, plan = tofu.plan()
    assert planned_actions(plan) == {"restapi_object.post": ["create"]}
    tofu.apply()

    tofu.destroy()
    assert json_server.request("GET", "/posts")[1] == []


def test_import_gives_the_state_apply_gave(make_tofu, restapi_dir, json_server):
    applied = make_tofu({"restapi": restapi_dir}, name="applied")
    applied.write(config(json_server.url, POST % "imported"))
    applied.apply()
    original = values(applied)

    other = make_tofu({"restapi": restapi_dir}, name="other")
    other.write(config(json_server.url, POST % "imported"))
    other.run("import", "restapi_object.post", "/posts/" + original["id"])
    imported = values(other)
    assert imported["id"] == original["id"] and imported["path"] == "/posts"
    assert json.loads(imported["data"]) == json.loads(original["data"])
    assert imported["api_response"] == original["api_response"]
    assert other.plan_exit_code() == 0  # the imported object matches its configuration

    result = other.run("import", "restapi_object.post", "no-slash", ok=(1,))
    assert 'import id "no-slash" is not PATH/ID' in squash(result.stderr)


def test_the_data_source_finds_an_object_across_pages(make_tofu, restapi_dir, json_server):
    for title in ["one", "two", "three", "four"]:
        json_server.request("POST", "/posts", {"title": title})
    tofu = make_tofu({"restapi": restapi_dir})
    tofu.write(config(json_server.url, """
data "restapi_object" "found" {
  path         = "/posts"
  query        = { _page = "1", _limit = "1" }
  search_key   = "title"
  search_value = "three"
}

output "id" {
  value = data.restapi_object.found.id
}

output "title" {
  value = data.restapi_object.found.api_data.title
}
"""))
    tofu.apply()
    assert tofu.outputs() == {"id": "3", "title": "three"}

    tofu.write(config(json_server.url, """
data "restapi_object" "found" {
  path         = "/posts"
  search_key   = "title"
  search_value = "five"
}
"""))
    result = tofu.run("plan", "-input=false", ok=(1,))
    assert 'no object in /posts has title = "five" (4 looked at)' in squash(result.stderr)


def test_errors_are_clear_and_lose_no_state(make_tofu, restapi_dir, own_json_server):
    tofu = make_tofu({"restapi": restapi_dir})

    # Not a JSON object: a validation error at the attribute, before anything is sent.
    tofu.write(config(own_json_server.url, """
resource "restapi_object" "post" {
  path = "/posts"
  data = "[1, 2]"
}
"""))
    result = tofu.run("plan", "-input=false", ok=(1,))
    assert "must be a JSON object" in squash(result.stderr)

    # A path the API does not have: the status and the request, at the script's line.
    tofu.write(config(own_json_server.url, POST.replace("/posts", "/nothing-here") % "x"))
    result = tofu.run("apply", "-auto-approve", "-input=false", ok=(1,))
    text = squash(result.stderr)
    assert "restapi_object: create failed" in text
    assert "resource_object.lua:" in text and "POST /nothing-here: status 404" in text, text
    assert resources(tofu.state()) == {}

    # The service goes down: refresh fails with the connection error; the state keeps the object.
    tofu.write(config(own_json_server.url, POST % "kept"))
    tofu.apply()
    kept = values(tofu)
    own_json_server.server.stop()
    result = tofu.run("plan", "-input=false", ok=(1,))
    text = squash(result.stderr)
    assert "(2 attempts)" in text and "connect" in text.lower(), text
    assert values(tofu) == kept
    own_json_server.server.start()
    assert tofu.plan_exit_code() == 0
