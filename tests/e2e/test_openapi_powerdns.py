"""A provider served from an OpenAPI description: tests/e2e/providers/powerdns is PowerDNS's own
Swagger 2.0 description (YAML with anchors and merge keys), eleven lines of provider.lua and a
hand-written records type (resource_record.lua) that calls its operations by operationId,
applied against Debian's PowerDNS Authoritative on loopback (support/powerdns_service.py). Each
mapped type lives through create, an empty plan, an in-place update, a replacement, drift made
through the API, deletion outside, import and destroy, on both CLIs and both protocols."""
import json

from support.harness import planned_actions, required_providers, resources, squash
from support.powerdns_service import powerdns  # noqa: F401  (the fixture)


def config(powerdns, body: str) -> str:
    return required_providers("powerdns") + f"""
provider "powerdns" {{
  base_url       = "{powerdns.url}"
  api_key_header = "{powerdns.api_key}"
}}
""" + body


def zone_config(zone: str, account: str, kind: str = "Native") -> str:
    return f"""
resource "powerdns_zone" "z" {{
  server_id   = "localhost"
  name        = "{zone}"
  kind        = "{kind}"
  account     = "{account}"
  nameservers = ["ns1.{zone}", "ns2.{zone}"]
}}

resource "powerdns_metadata" "allow" {{
  server_id = "localhost"
  zone_id   = powerdns_zone.z.id
  kind      = "ALLOW-AXFR-FROM"
  metadata  = ["127.0.0.1"]
}}
"""


def values(tofu, address: str) -> dict:
    return resources(tofu.state())[address]["values"]


def test_a_zone_and_its_metadata_settle_drift_and_import(make_tofu, test_provider, powerdns):
    provider = test_provider("powerdns")
    tofu = make_tofu({"powerdns": provider})
    zone = powerdns.unique_zone("mapped")
    zones = f"/servers/{powerdns.server_id}/zones"

    tofu.write(config(powerdns, zone_config(zone, "team-a")))
    tofu.apply()
    status, served = powerdns.request("GET", f"{zones}/{zone}")
    assert status == 200 and served["account"] == "team-a" and served["kind"] == "Native"
    state = values(tofu, "powerdns_zone.z")
    assert state["id"] == zone and state["serial"] > 0
    # Read back after the create: what the server keeps (rrsets with its SOA and NS records),
    # as nested objects over protocol 6, as their JSON over protocol 5, which has no nested
    # attributes.
    rrsets = state["rrsets"] if tofu.protocol == 6 else json.loads(state["rrsets"])
    assert {"content": f"ns1.{zone}", "disabled": False} in \
        [record for rrset in rrsets for record in rrset["records"]], rrsets
    status, metadata = powerdns.request("GET", f"{zones}/{zone}/metadata/ALLOW-AXFR-FROM")
    assert status == 200 and metadata["metadata"] == ["127.0.0.1"]
    assert tofu.plan_exit_code() == 0  # settled: nothing the description states drifts

    # In place: PUT /zones/{zone_id}, which answers 204 with no body.
    tofu.write(config(powerdns, zone_config(zone, "team-b", kind="Master")))
    code, plan = tofu.plan()
    assert planned_actions(plan) == {"powerdns_zone.z": ["update"]}
    tofu.apply()
    status, served = powerdns.request("GET", f"{zones}/{zone}")
    assert (served["account"], served["kind"]) == ("team-b", "Master")
    assert tofu.plan_exit_code() == 0

    # Drift made through the API is seen and put back.
    assert powerdns.request("PUT", f"{zones}/{zone}", {"account": "outside"})[0] == 204
    code, plan = tofu.plan()
    assert planned_actions(plan) == {"powerdns_zone.z": ["update"]}
    tofu.apply()
    assert powerdns.request("GET", f"{zones}/{zone}")[1]["account"] == "team-b"

    # Metadata changed outside (PUT, which answers 200 with the object) is put back.
    metadata_path = f"{zones}/{zone}/metadata/ALLOW-AXFR-FROM"
    assert powerdns.request("PUT", metadata_path, {"metadata": ["10.0.0.1"]})[0] == 200
    code, plan = tofu.plan()
    assert planned_actions(plan) == {"powerdns_metadata.allow": ["update"]}
    tofu.apply()
    assert powerdns.request("GET", metadata_path)[1]["metadata"] == ["127.0.0.1"]

    # Deleted outside (404 on read): the plan creates the zone again, and its metadata with it.
    assert powerdns.request("DELETE", f"{zones}/{zone}")[0] == 204
    code, plan = tofu.plan()
    assert planned_actions(plan) == {"powerdns_zone.z": ["create"],
                                     "powerdns_metadata.allow": ["create"]}
    tofu.apply()
    assert tofu.plan_exit_code() == 0

    # Imported by its parents and id, it plans nothing.
    other = make_tofu({"powerdns": provider}, name="imported")
    other.write(config(powerdns, zone_config(zone, "team-b", kind="Master")))
    other.run("import", "powerdns_zone.z", f"localhost/{zone}")
    other.run("import", "powerdns_metadata.allow", f"localhost/{zone}/ALLOW-AXFR-FROM")
    imported = values(other, "powerdns_zone.z")
    assert (imported["name"], imported["account"]) == (zone, "team-b")
    # The nameservers are sent on create and never read back (the description says the server
    # MUST NOT send them): an imported zone cannot know them, and setting a value never known
    # replaces nothing; the update sends them, the server ignores them, and all is settled.
    code, plan = other.plan()
    assert planned_actions(plan) == {"powerdns_zone.z": ["update"]}
    other.apply()
    assert other.plan_exit_code() == 0
    result = other.run("import", "powerdns_zone.z", "no-parent", ok=(1,))
    assert "expected an import id of the form SERVER_ID/ID" in squash(result.stderr)

    tofu.destroy()
    assert powerdns.request("GET", f"{zones}/{zone}")[0] == 404


def test_a_tsig_key_is_replaced_when_renamed_and_its_secret_kept(make_tofu, test_provider,
                                                                 powerdns):
    tofu = make_tofu({"powerdns": test_provider("powerdns")})
    name = powerdns.unique_zone("key").rstrip(".")
    keys = f"/servers/{powerdns.server_id}/tsigkeys"
    body = """
resource "powerdns_tsig_key" "k" {{
  server_id = "localhost"
  name      = "{name}"
  algorithm = "hmac-sha256"
}}

output "secret" {{
  value     = powerdns_tsig_key.k.key
  sensitive = true
}}
"""
    tofu.write(config(powerdns, body.format(name=name)))
    result = tofu.apply()
    key_id = values(tofu, "powerdns_tsig_key.k")["id"]
    status, served = powerdns.request("GET", f"{keys}/{key_id}")
    assert status == 200 and served["algorithm"] == "hmac-sha256"
    # The server made the secret; it is in state, marked sensitive, and never printed.
    assert values(tofu, "powerdns_tsig_key.k")["key"] == served["key"]
    assert served["key"] not in result.stdout + result.stderr
    assert tofu.plan_exit_code() == 0

    tofu.write(config(powerdns, body.format(name=name + "-2")))
    code, plan = tofu.plan()
    assert planned_actions(plan) == {"powerdns_tsig_key.k": ["delete", "create"]}
    tofu.apply()
    assert powerdns.request("GET", f"{keys}/{key_id}")[0] == 404
    new_id = values(tofu, "powerdns_tsig_key.k")["id"]
    assert new_id == name + "-2." and tofu.plan_exit_code() == 0

    tofu.destroy()
    assert powerdns.request("GET", f"{keys}/{new_id}")[0] == 404


def test_an_api_error_names_the_operation_and_loses_no_state(make_tofu, test_provider,
                                                             powerdns):
    tofu = make_tofu({"powerdns": test_provider("powerdns")})
    zone = powerdns.unique_zone("bad")
    tofu.write(config(powerdns, f"""
resource "powerdns_zone" "z" {{
  server_id = "localhost"
  name      = "{zone}"
  kind      = "Native"
}}

resource "powerdns_metadata" "bad" {{
  server_id = "localhost"
  zone_id   = powerdns_zone.z.id
  kind      = "NO-SUCH-KIND"
  metadata  = ["x"]
}}
"""))
    result = tofu.run("apply", "-auto-approve", "-input=false", ok=(1,))
    text = squash(result.stderr)
    assert "POST /servers/{server_id}/zones/{zone_id}/metadata (createMetadata) answered 422" \
        in text
    assert "powerdns_zone.z" in resources(tofu.state())  # the zone made before is kept
    tofu.write(config(powerdns, f"""
resource "powerdns_zone" "z" {{
  server_id = "localhost"
  name      = "{zone}"
  kind      = "Native"
}}
"""))
    tofu.destroy()


def test_zones_are_listed_and_imported_from_what_terraform_query_generates(make_tofu,
                                                                           test_provider,
                                                                           powerdns):
    """The list resource comes from the collection's GET; each zone is named by its identity
    (server_id and id), and the configuration `terraform query` generates imports with nothing
    to change. OpenTofu has no `query`: there the provider is used as before."""
    tofu = make_tofu({"powerdns": test_provider("powerdns")})
    if "terraform" not in tofu.binary.name:
        return
    zone = powerdns.unique_zone("listed")
    zones = f"/servers/{powerdns.server_id}/zones"
    status, created = powerdns.request("POST", zones, {"name": zone, "kind": "Native",
                                                       "account": "listed"})
    assert status == 201, created
    tofu.write(config(powerdns, ""))
    (tofu.workdir / "main.tfquery.hcl").write_text("""
list "powerdns_zone" "all" {
  provider = powerdns
  limit    = 1000
  config {
    server_id = "localhost"
  }
}
""")
    result = tofu.run("query")
    listed = [line.split() for line in result.stdout.splitlines()
              if line.startswith("list.powerdns_zone.all ")]
    assert [f"id={zone},server_id=localhost", zone] in [line[1:] for line in listed], \
        result.stdout

    tofu.run("query", "-generate-config-out=generated.tf")
    generated = (tofu.workdir / "generated.tf").read_text()
    # Keep only the scenario's own zone: the shared server holds other scenarios' zones.
    blocks = generated.split("\n\n")
    mine = [b for b in blocks if zone in b]
    (tofu.workdir / "generated.tf").write_text("\n\n".join(mine) + "\n")
    _, plan = tofu.plan()
    changes = [rc for rc in plan["resource_changes"] if rc["change"].get("importing")]
    assert len(changes) == 1 and changes[0]["change"]["actions"] == ["no-op"], generated
    assert powerdns.request("DELETE", f"{zones}/{zone}")[0] == 204


def record_config(zone: str, ttl: int, addresses: list[str]) -> str:
    listed = ", ".join(f'"{a}"' for a in addresses)
    return f"""
resource "powerdns_zone" "z" {{
  server_id   = "localhost"
  name        = "{zone}"
  kind        = "Native"
  nameservers = ["ns1.{zone}"]
}}

resource "powerdns_record" "www" {{
  server_id = "localhost"
  zone      = powerdns_zone.z.id
  name      = "www.{zone}"
  type      = "A"
  ttl       = {ttl}
  records   = [{listed}]
}}
"""


def test_records_written_by_hand_call_the_description_s_operations(make_tofu, test_provider,
                                                                    powerdns):
    """powerdns_record is a script of its own (resource_record.lua) beside the mapped types: it
    changes RRsets through the zone's PATCH (changetype REPLACE or DELETE) and reads them from
    the zone's GET, calling both by operationId. It lives through create, an empty plan, an
    update in place, drift and deletion made through the API, import and destroy."""
    provider = test_provider("powerdns")
    tofu = make_tofu({"powerdns": provider})
    zone = powerdns.unique_zone("records")
    path = f"/servers/{powerdns.server_id}/zones/{zone}"

    def served() -> dict:
        status, found = powerdns.request("GET", path)
        assert status == 200, found
        return {(r["name"], r["type"]): (r["ttl"], sorted(x["content"] for x in r["records"]))
                for r in found["rrsets"]}

    def patch(rrset: dict) -> None:
        status, answer = powerdns.request("PATCH", path, {"rrsets": [rrset]})
        assert status == 204, answer

    www = (f"www.{zone}", "A")
    tofu.write(config(powerdns, record_config(zone, 300, ["192.0.2.1", "192.0.2.2"])))
    tofu.apply()
    assert served()[www] == (300, ["192.0.2.1", "192.0.2.2"])
    assert values(tofu, "powerdns_record.www")["id"] == f"localhost/{zone}/www.{zone}/A"
    assert tofu.plan_exit_code() == 0

    # In place: a new TTL and one address changed, sent as one REPLACE.
    tofu.write(config(powerdns, record_config(zone, 600, ["192.0.2.1", "192.0.2.3"])))
    code, plan = tofu.plan()
    assert planned_actions(plan) == {"powerdns_record.www": ["update"]}
    tofu.apply()
    assert served()[www] == (600, ["192.0.2.1", "192.0.2.3"])
    assert tofu.plan_exit_code() == 0

    # Drift made through the API is put back.
    patch({"name": www[0], "type": "A", "ttl": 60, "changetype": "REPLACE",
           "records": [{"content": "192.0.2.9", "disabled": False}]})
    code, plan = tofu.plan()
    assert planned_actions(plan) == {"powerdns_record.www": ["update"]}
    tofu.apply()
    assert served()[www] == (600, ["192.0.2.1", "192.0.2.3"])

    # Deleted outside: created again.
    patch({"name": www[0], "type": "A", "changetype": "DELETE", "records": []})
    assert www not in served()
    code, plan = tofu.plan()
    assert planned_actions(plan) == {"powerdns_record.www": ["create"]}
    tofu.apply()
    assert served()[www] == (600, ["192.0.2.1", "192.0.2.3"])

    # Imported by SERVER/ZONE/NAME/TYPE into a configuration that names the zone by its id.
    other = make_tofu({"powerdns": provider}, name="imported")
    other.write(config(powerdns, f"""
resource "powerdns_record" "www" {{
  server_id = "localhost"
  zone      = "{zone}"
  name      = "www.{zone}"
  type      = "A"
  ttl       = 600
  records   = ["192.0.2.3", "192.0.2.1"]
}}
"""))
    result = other.run("import", "powerdns_record.www", "www", ok=(1,))
    assert "expected an import id SERVER/ZONE/NAME/TYPE" in squash(result.stderr)
    other.run("import", "powerdns_record.www", f"localhost/{zone}/www.{zone}/A")
    assert other.plan_exit_code() == 0

    tofu.destroy()
    assert powerdns.request("GET", path)[0] == 404
