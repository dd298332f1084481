"""element_state_func with the real CLIs (tests/e2e/providers/zone): a DNS API on loopback
(tests/e2e/support/object_api.py) lower-cases the members of a record set, as PowerDNS turns
"2001:DB8::1" into "2001:db8::1". Apply keeps the planned spelling, the plan after it is empty,
refresh shows no drift; an element added or removed, by the configuration or outside, still
shows."""
import pytest

from support.harness import planned_change, required_providers, resources
from support.object_api import ObjectApi, Served


def lower_case(obj: dict) -> dict:
    """The API's spelling: addresses and target hosts lower-cased; each target gets a weight."""
    targets = [dict(t, host=t["host"].lower(), weight=t.get("weight", 10))
               for t in obj.get("targets", [])]
    return dict(obj, records=[r.lower() for r in obj.get("records", [])], targets=targets)


@pytest.fixture
def api():
    served = Served(ObjectApi(normalise=lower_case))
    yield served
    served.stop()


@pytest.fixture
def zone(make_tofu, test_provider):
    return make_tofu({"zone": test_provider("zone")})


def config(url: str, records=("2001:DB8::1", "192.0.2.1"), host="Web.Example") -> str:
    listed = ", ".join(f'"{r}"' for r in records)
    return required_providers("zone") + f"""
provider "zone" {{
  url = "{url}"
}}

resource "zone_rrset" "www" {{
  name    = "www"
  records = [{listed}]
  target {{
    host = "{host}"
    port = 443
  }}
}}
"""


def values(zone) -> dict:
    return resources(zone.state())["zone_rrset.www"]["values"]


def refreshed_drift(zone) -> int:
    """Exit code of a refresh-only plan: 0 when the API holds what the state does."""
    return zone.run("plan", "-refresh-only", "-detailed-exitcode", "-input=false",
                    ok=(0, 2)).returncode


def test_the_api_spelling_of_set_members_is_no_change(zone, api):
    zone.write(config(api.url))
    zone.apply()
    # The API stored its own spelling ...
    stored = api.api.objects["1"]
    assert sorted(stored["records"]) == ["192.0.2.1", "2001:db8::1"]
    assert stored["targets"] == [{"host": "web.example", "port": 443, "weight": 10}]
    # ... while the state keeps the configured one, as the plan promised, with what the API
    # computed.
    state = values(zone)
    assert sorted(state["records"]) == ["192.0.2.1", "2001:DB8::1"]
    assert state["target"] == [{"host": "Web.Example", "port": 443, "weight": 10}]
    # Refresh reads the API's spelling back: no drift, no change.
    assert refreshed_drift(zone) == 0
    assert zone.plan_exit_code() == 0
    # A configuration respelt the same way is no change either.
    zone.write(config(api.url, records=("2001:db8::1", "192.0.2.1"), host="WEB.example"))
    assert zone.plan_exit_code() == 0


def test_a_member_added_or_removed_still_plans(zone, api):
    zone.write(config(api.url))
    zone.apply()
    zone.write(config(api.url, records=("2001:DB8::1", "192.0.2.1", "2001:DB8::2")))
    code, plan = zone.plan()
    assert code == 2
    change = planned_change(plan, "zone_rrset.www")
    assert change["actions"] == ["update"]
    assert sorted(change["after"]["records"]) == ["192.0.2.1", "2001:DB8::1", "2001:DB8::2"]
    # The target is unchanged: it keeps its spelling and weight.
    assert change["after"]["target"] == [{"host": "Web.Example", "port": 443, "weight": 10}]
    zone.apply()
    assert sorted(api.api.objects["1"]["records"]) == ["192.0.2.1", "2001:db8::1",
                                                       "2001:db8::2"]
    assert sorted(values(zone)["records"]) == ["192.0.2.1", "2001:DB8::1", "2001:DB8::2"]
    assert zone.plan_exit_code() == 0

    zone.write(config(api.url, records=("2001:DB8::1",), host="api.example"))
    code, plan = zone.plan()
    assert code == 2
    change = planned_change(plan, "zone_rrset.www")
    assert change["after"]["records"] == ["2001:DB8::1"]
    assert change["after"]["target"][0]["host"] == "api.example"
    zone.apply()
    assert zone.plan_exit_code() == 0


def test_respelt_outside_is_no_drift_and_a_member_gone_is(zone, api):
    zone.write(config(api.url))
    zone.apply()
    stored = api.api.objects["1"]
    # The API answers in yet another spelling of the same members.
    with api.api.lock:
        stored["records"] = ["2001:Db8::1", "192.0.2.1"]
        stored["targets"] = [{"host": "WEB.EXAMPLE", "port": 443, "weight": 10}]
    assert refreshed_drift(zone) == 0
    assert zone.plan_exit_code() == 0

    with api.api.lock:
        stored["records"] = ["2001:db8::1"]
    assert refreshed_drift(zone) == 2
    code, plan = zone.plan()
    assert code == 2
    change = planned_change(plan, "zone_rrset.www")
    assert change["actions"] == ["update"]
    # What was read keeps the stored spelling of the member still there.
    assert change["before"]["records"] == ["2001:DB8::1"]
    zone.apply()
    assert sorted(api.api.objects["1"]["records"]) == ["192.0.2.1", "2001:db8::1"]
    assert zone.plan_exit_code() == 0
