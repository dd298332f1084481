"""helper/schema's contract where scripts are written the usual way, with the real CLIs: zero
values read back for unset arguments are no change, an update keeps what it did not touch, a
write-only argument alone plans nothing, and configure can tell an unknown value from an unset
one. The people provider talks to tests/e2e/support/object_api.py over HTTP on loopback."""
import itertools
import json

import pytest

from support.harness import planned_actions, planned_change, required_providers, resources
from support.object_api import ObjectApi, Served

ADDRESSES = itertools.count(7)


def assign(obj: dict) -> dict:
    """What the API assigns to a new object: an address, a creation time, a default region."""
    return {"ip": f"10.0.0.{next(ADDRESSES)}", "created_at": "2026-11-25T10:00:00Z",
            "region": obj.get("region") or "eu"}


@pytest.fixture
def api():
    served = Served(ObjectApi(on_create=assign))
    yield served
    served.stop()


@pytest.fixture
def people(make_tofu, test_provider):
    return make_tofu({"people": test_provider("people")})


def config(url: str, body: str) -> str:
    return required_providers("people") + f"""
provider "people" {{
  url = "{url}"
}}
""" + body


def values(tofu, address: str) -> dict:
    return resources(tofu.state())[address]["values"]


def test_zero_values_read_back_for_unset_arguments_plan_no_change(people, api):
    people.write(config(api.url, """
resource "people_user" "ann" {
  name = "ann"
  contact {
    email = "ann@example.com"
  }
}
"""))
    people.apply()
    stored = api.api.objects["1"]
    # The script sent the zero values, and the API answers with them.
    assert (stored["nickname"], stored["age"], stored["admin"]) == ("", 0, False)
    assert stored["contact"] == [{"email": "ann@example.com", "phone": ""}]

    assert people.plan_exit_code() == 0
    saved = values(people, "people_user.ann")
    assert saved["nickname"] is None and saved["age"] is None and saved["groups"] is None
    assert saved["contact"] == [{"email": "ann@example.com", "phone": None}]
    people.run("plan", "-refresh-only", "-detailed-exitcode", "-input=false")


def test_a_configured_zero_value_is_kept_and_a_real_change_still_shows(people, api):
    body = """
resource "people_user" "bob" {
  name     = "bob"
  nickname = NICK
  groups   = []
  labels   = {}
  admin    = false
}
"""
    people.write(config(api.url, body.replace("NICK", '""')))
    people.apply()
    saved = values(people, "people_user.bob")
    assert (saved["nickname"], saved["groups"], saved["labels"], saved["admin"]) == \
        ("", [], {}, False)
    assert people.plan_exit_code() == 0

    # From the zero value to a real one: nickname forces a new user.
    people.write(config(api.url, body.replace("NICK", '"bobby"')))
    code, plan = people.plan()
    assert code == 2
    assert planned_actions(plan) == {"people_user.bob": ["delete", "create"]}
    people.apply()
    assert values(people, "people_user.bob")["nickname"] == "bobby"
    assert people.plan_exit_code() == 0


def test_an_update_keeps_every_computed_value_it_did_not_touch(people, api):
    body = """
resource "people_server" "web" {
  name = "web"
  size = SIZE
}

output "ip" {
  value = people_server.web.ip
}

output "region" {
  value = people_server.web.region
}
"""
    people.write(config(api.url, body.replace("SIZE", "1")))
    people.apply()
    created = values(people, "people_server.web")
    assert created["ip"].startswith("10.0.0.") and created["region"] == "eu"
    outputs = people.outputs()

    people.write(config(api.url, body.replace("SIZE", "2")))
    code, plan = people.plan()
    assert code == 2
    change = planned_change(plan, "people_server.web")
    assert change["actions"] == ["update"]
    # helper/schema's plan: the computed values stay as they are, none "known after apply".
    assert not any(change["after_unknown"].values()), change["after_unknown"]
    assert change["after"]["ip"] == created["ip"]
    people.apply()

    updated = values(people, "people_server.web")
    assert updated["size"] == 2
    for name in ("ip", "created_at", "region"):
        assert updated[name] == created[name], name
    assert people.outputs() == outputs
    assert api.api.seen("PATCH")[0].body == json.dumps({"size": 2}, separators=(",", ":"))
    assert people.plan_exit_code() == 0
    people.run("plan", "-refresh-only", "-detailed-exitcode", "-input=false")


def test_a_write_only_argument_alone_plans_nothing(people, api):
    body = """
resource "people_login" "ops" {
  user             = "ops"
  password         = "PASSWORD"
  password_version = VERSION
}
"""
    people.write(config(api.url, body.replace("PASSWORD", "first-secret").replace("VERSION", "1")))
    people.apply()
    assert api.api.objects["1"]["password"] == "first-secret"
    set_at = values(people, "people_login.ops")["password_set_at"]
    assert people.plan_exit_code() == 0

    # A new password alone: nothing to compare it with, so nothing is planned or sent.
    people.write(config(api.url, body.replace("PASSWORD", "second-secret").replace("VERSION", "1")))
    assert people.plan_exit_code() == 0

    # Bumping the version sends it.
    people.write(config(api.url, body.replace("PASSWORD", "second-secret").replace("VERSION", "2")))
    code, plan = people.plan()
    assert code == 2 and planned_actions(plan) == {"people_login.ops": ["update"]}
    people.apply()
    assert api.api.objects["1"]["password"] == "second-secret"
    saved = values(people, "people_login.ops")
    assert saved["password"] is None and saved["password_set_at"] > set_at
    assert people.plan_exit_code() == 0


def test_configure_can_tell_a_value_not_known_yet_from_an_unset_one(people, api):
    people.write(config(api.url, """
resource "people_server" "vault" {
  name = "vault"
}

provider "people" {
  alias = "later"
  url   = "URL"
  token = people_server.vault.ip
}

resource "people_user" "cy" {
  provider = people.later
  name     = "cy"
}
""".replace("URL", api.url)))
    people.apply()

    log = people.log.read_text(errors="replace")
    assert "configure: the token or url is not known yet" in log
    vault_ip = values(people, "people_server.vault")["ip"]
    posts = {json.loads(r.body)["name"]: r for r in api.api.seen("POST")}
    assert posts["cy"].headers.get("Authorization") == f"Bearer {vault_ip}"
    assert "Authorization" not in posts["vault"].headers
    assert people.plan_exit_code() == 0
