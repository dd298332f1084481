"""The run's Prefect server (support/prefect_service.py), through plain HTTP: it answers its
health check and serves the OpenAPI description that tests/e2e/providers/prefect keeps, and a
variable of this scenario's own comes and goes. A smoke test of the fixture, before any provider
is generated from that description."""
import json
from pathlib import Path

from support.prefect_service import VERSION, prefect  # noqa: F401  (the fixture)

SAVED_DESCRIPTION = Path(__file__).resolve().parent / "providers/prefect/prefect-openapi.json"


def test_server_is_healthy_and_describes_its_api(prefect):
    assert prefect.url.startswith("http://127.0.0.1:") and prefect.url.endswith("/api")
    assert prefect.request("GET", "/health") == (200, True)
    status, version = prefect.request("GET", "/admin/version")
    assert (status, version) == (200, VERSION)
    status, description = prefect.request("GET", "/openapi.json")
    assert status == 200 and description["servers"] == [{"url": "/api"}]  # paths are under url
    assert description == json.loads(SAVED_DESCRIPTION.read_text()), \
        f"the server's /api/openapi.json is not {SAVED_DESCRIPTION.name}: save it again"


def test_variable_created_read_and_deleted(prefect):
    name = prefect.unique("smoke")  # a name no other scenario uses
    assert name != prefect.unique("smoke")
    status, created = prefect.request("POST", "/variables/",
                                      {"name": name, "value": {"a": [1, 2]}, "tags": ["t"]})
    assert status == 201, created
    assert created["name"] == name and created["value"] == {"a": [1, 2]}
    assert created["id"] and created["created"] and created["updated"]  # the server's
    status, read = prefect.request("GET", f"/variables/{created['id']}")
    assert (status, read) == (200, created)
    status, by_name = prefect.request("GET", f"/variables/name/{name}")
    assert (status, by_name["id"]) == (200, created["id"])
    status, again = prefect.request("POST", "/variables/", {"name": name, "value": 1})
    assert status == 409, again  # names are unique: no upsert
    status, updated = prefect.request("PATCH", f"/variables/{created['id']}", {"value": "b"})
    assert (status, updated) == (204, None)
    assert prefect.request("GET", f"/variables/{created['id']}")[1]["value"] == "b"
    status, found = prefect.request("POST", "/variables/filter",
                                    {"variables": {"name": {"any_": [name]}}})
    assert status == 200 and [v["id"] for v in found] == [created["id"]]
    assert prefect.request("DELETE", f"/variables/{created['id']}") == (204, None)
    status, missing = prefect.request("GET", f"/variables/{created['id']}")
    assert status == 404, missing
    assert prefect.request("DELETE", f"/variables/{created['id']}")[0] == 404
