"""The run's PowerDNS Authoritative server (support/powerdns_service.py), through plain HTTP: it
answers with the API key and refuses without it, and a TSIG key and a zone of this scenario's own
come and go. A smoke test of the fixture, before any provider is generated from its
description (tests/e2e/providers/powerdns)."""
import urllib.error
import urllib.request

from support.powerdns_service import powerdns  # noqa: F401  (the fixture)


def test_server_answers_with_the_key_only(powerdns):
    status, server = powerdns.request("GET", f"/servers/{powerdns.server_id}")
    assert status == 200, server
    assert server["daemon_type"] == "authoritative" and server["id"] == "localhost"
    try:
        urllib.request.urlopen(powerdns.server_url, timeout=10)
        raise AssertionError("answered without X-API-Key")
    except urllib.error.HTTPError as e:
        assert e.code == 401


def test_tsig_key_created_read_and_deleted(powerdns):
    name = powerdns.unique_zone("tsig").rstrip(".")  # a name no other scenario uses
    keys = f"/servers/{powerdns.server_id}/tsigkeys"
    status, created = powerdns.request("POST", keys, {"name": name, "algorithm": "hmac-sha256"})
    assert status == 201, created
    assert created["id"] == name + "." and created["key"]  # the server made the secret
    status, read = powerdns.request("GET", f"{keys}/{created['id']}")
    assert (status, read["key"], read["algorithm"]) == (200, created["key"], "hmac-sha256")
    status, listed = powerdns.request("GET", keys)
    assert status == 200 and created["id"] in {k["id"] for k in listed}
    assert powerdns.request("DELETE", f"{keys}/{created['id']}")[0] == 204
    assert powerdns.request("GET", f"{keys}/{created['id']}")[0] == 404


def test_zones_of_a_scenario_are_its_own(powerdns):
    zone = powerdns.unique_zone("smoke")
    assert zone != powerdns.unique_zone("smoke")
    zones = f"/servers/{powerdns.server_id}/zones"
    status, created = powerdns.request("POST", zones, {"name": zone, "kind": "Native",
                                                       "nameservers": [f"ns1.{zone}"]})
    assert status == 201, created
    assert created["id"] == zone
    assert powerdns.request("DELETE", f"{zones}/{zone}")[0] == 204
    assert powerdns.request("GET", f"{zones}/{zone}")[0] == 404
