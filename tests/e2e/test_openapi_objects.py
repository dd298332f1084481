"""A provider served from an OpenAPI description (tests/e2e/providers/objects, no Lua beyond
turning it on) against the JSON object API of tests/e2e/support/object_api.py, which records
every request: a write whose answer the description states with the object's own schema is
recorded from that answer, any other is read back, and `read_after_write` reads back always;
an array the author declares a set settles against a server that keeps it in its own order."""
import json

import pytest

from support.harness import required_providers, resources
from support.object_api import ObjectApi, Served


@pytest.fixture
def api():
    served = Served(ObjectApi())
    yield served
    served.stop()


def config(url: str, size: int, tags: str = "[]") -> str:
    return required_providers("objects") + f"""
provider "objects" {{
  base_url = "{url}"
}}

resource "objects_object" "o" {{
  name = "first"
  size = {size}
  tags = {tags}
}}
"""


def mapping(provider, options: str) -> None:
    """Says `options` (Lua) for the object type in the provider's provider.lua."""
    script = provider / "provider.lua"
    text = script.read_text().split(" resources = ")[0].rstrip(", }\n")
    script.write_text(f"{text}, resources = {{ object = {options} }} }}\n")


def revision(tofu) -> int:
    return resources(tofu.state())["objects_object.o"]["values"]["revision"]


def requests_of(api, start: int) -> list[str]:
    return [f"{r.method} {r.path}" for r in api.api.seen()[start:]]


def applied(tofu, api) -> list[str]:
    """What one apply (planned from the state, not refreshed) sent to the API."""
    start = len(api.api.seen())
    tofu.apply("-refresh=false")
    return requests_of(api, start)


def test_writes_are_read_back_only_when_their_answer_is_not_the_object(make_tofu,
                                                                       test_provider, api):
    provider = test_provider("objects")
    tofu = make_tofu({"objects": provider})

    # The create answers 201 with a Receipt, a schema of its own: the object is read back.
    tofu.write(config(api.url, 1))
    created = applied(tofu, api)
    assert created == ["POST /objects", "GET /objects/1"]
    assert revision(tofu) == 1

    # The PUT answers 200 with the Object schema the GET answers with: its answer is recorded
    # (the revision the server moved to is in state) and nothing is read.
    tofu.write(config(api.url, 2))
    assert applied(tofu, api) == ["PUT /objects/1"]
    assert revision(tofu) == 2
    assert tofu.plan_exit_code() == 0

    # read_after_write = true reads back after every write, whatever the answer.
    mapping(provider, "{ read_after_write = true }")
    tofu.write(config(api.url, 3))
    assert applied(tofu, api) == ["PUT /objects/1", "GET /objects/1"]
    assert revision(tofu) == 3
    assert tofu.plan_exit_code() == 0

    tofu.destroy()
    assert api.api.objects == {}


def sorted_tags(obj: dict) -> dict:
    return dict(obj, tags=sorted(obj.get("tags") or []))


def test_an_array_declared_a_set_settles_in_the_order_the_server_keeps(make_tofu, test_provider):
    served = Served(ObjectApi(normalise=sorted_tags))
    try:
        provider = test_provider("objects")
        tofu = make_tofu({"objects": provider})
        tofu.write(config(served.url, 1, '["b", "a"]'))
        # As a list, the order the server keeps ("a", "b") is another value than the planned
        # one: the apply fails saying so, and keeps the object it made (tainted).
        failed = tofu.run("apply", "-auto-approve", "-input=false", ok=(1,))
        assert 'create set "tags" to a value other than the planned one' in failed.stderr
        assert list(served.api.objects) == ["1"]
        # As a set, it settles: the tainted object is replaced, and the plan after is empty.
        mapping(provider, "{ attributes = { tags = { set = true } } }")
        tofu.apply()
        assert tofu.plan_exit_code() == 0
        assert list(served.api.objects) == ["2"]
        assert served.api.objects["2"]["tags"] == ["a", "b"]
        # A tag added outside is still seen.
        served.api.objects["2"]["tags"].append("c")
        assert tofu.plan_exit_code() == 2
        tofu.destroy()
    finally:
        served.stop()


def with_port_state(obj: dict) -> dict:
    """The object API filling in each port what a server decides: its protocol when the body
    leaves it out, and its state, which only the server writes."""
    ports = {name: {"protocol": "tcp", **port, "state": "open"}
             for name, port in (obj.get("ports") or {}).items()}
    return dict(obj, ports=ports)


def ports_config(tofu, url: str, http_port: int) -> str:
    """A map of objects: nested attributes over protocol 6, their JSON over protocol 5 (which
    has no nested attributes, so the configuration states what the server fills too)."""
    if tofu.protocol == 6:
        ports = f"""{{
    http  = {{ port = {http_port} }}
    admin = {{ port = 8443, protocol = "udp" }}
  }}"""
    else:
        ports = f"""jsonencode({{
    http  = {{ port = {http_port}, protocol = "tcp", state = "open" }}
    admin = {{ port = 8443, protocol = "udp", state = "open" }}
  }})"""
    return required_providers("objects") + f"""
provider "objects" {{
  base_url = "{url}"
}}

resource "objects_object" "o" {{
  name  = "ports"
  ports = {ports}
}}
"""


def test_a_map_of_objects_settles_with_what_the_server_fills_in(make_tofu, test_provider):
    served = Served(ObjectApi(normalise=with_port_state))
    try:
        tofu = make_tofu({"objects": test_provider("objects")})
        tofu.write(ports_config(tofu, served.url, 80))
        tofu.apply()
        stored = served.api.objects["1"]["ports"]
        assert stored == {"http": {"port": 80, "protocol": "tcp", "state": "open"},
                          "admin": {"port": 8443, "protocol": "udp", "state": "open"}}
        ports = resources(tofu.state())["objects_object.o"]["values"]["ports"]
        if tofu.protocol == 6:
            # Typed: the protocol the server chose and the state it alone writes are kept.
            assert ports == stored
        else:
            assert json.loads(ports) == stored
        assert tofu.plan_exit_code() == 0

        # An element changed in place: one PUT, the same object.
        tofu.write(ports_config(tofu, served.url, 8080))
        assert applied(tofu, served) == ["PUT /objects/1"]
        assert served.api.objects["1"]["ports"]["http"]["port"] == 8080
        assert tofu.plan_exit_code() == 0

        # Drift made through the API is seen, in an element and as an element added.
        served.api.objects["1"]["ports"]["http"]["port"] = 9000
        assert tofu.plan_exit_code() == 2
        tofu.apply()
        assert served.api.objects["1"]["ports"]["http"]["port"] == 8080
        served.api.objects["1"]["ports"]["ssh"] = {"port": 22, "protocol": "tcp", "state": "open"}
        assert tofu.plan_exit_code() == 2
        tofu.apply()
        assert sorted(served.api.objects["1"]["ports"]) == ["admin", "http"]
        assert tofu.plan_exit_code() == 0
        tofu.destroy()
        assert served.api.objects == {}
    finally:
        served.stop()
