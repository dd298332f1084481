"""A provider served from an OpenAPI description (tests/e2e/providers/objects, no Lua beyond
turning it on) against the JSON object API of tests/e2e/support/object_api.py, which records
every request: a write whose answer the description states with the object's own schema is
recorded from that answer, any other is read back, and `read_after_write` reads back always."""
import pytest

from support.harness import required_providers, resources
from support.object_api import ObjectApi, Served


@pytest.fixture
def api():
    served = Served(ObjectApi())
    yield served
    served.stop()


def config(url: str, size: int) -> str:
    return required_providers("objects") + f"""
provider "objects" {{
  base_url = "{url}"
}}

resource "objects_object" "o" {{
  name = "first"
  size = {size}
}}
"""


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
    script = provider / "provider.lua"
    script.write_text(script.read_text().replace(
        'env_prefix = "OBJECTS" }',
        'env_prefix = "OBJECTS", resources = { object = { read_after_write = true } } }'))
    tofu.write(config(api.url, 3))
    assert applied(tofu, api) == ["PUT /objects/1", "GET /objects/1"]
    assert revision(tofu) == 3
    assert tofu.plan_exit_code() == 0

    tofu.destroy()
    assert api.api.objects == {}
