"""Protocol 6 nested attributes (single, list, set and map) through plan, apply, drift-free
re-plans, in-place updates and replacement, with computed values and defaults inside them. The
mesh test provider keeps each network as a record file. Protocol 5 cannot describe nested
attributes: there the provider says so instead."""
import json

import pytest

from support.harness import (SOURCE_PREFIX, parse_json, planned_actions, planned_change,
                     required_providers, resources, run_schema, squash)

SUBNETS = '[{ cidr = "10.0.1.0/24" }, { cidr = "10.0.2.0/24", dhcp = false }]'
PEERS = '[{ name = "a" }, { name = "b" }]'
LABELS = '{ env = { value = "prod" }, team = { value = "net", owner = "alice" } }'


def network(subnets=SUBNETS, peers=PEERS, labels=LABELS, extra="") -> str:
    return required_providers("mesh") + f"""
provider "mesh" {{
  root = "."
}}

resource "mesh_network" "it" {{
  name    = "core"
  subnets = {subnets}
  peers   = {peers}
  labels  = {labels}
{extra}
}}
"""


@pytest.fixture
def mesh(make_tofu, test_provider):
    return make_tofu({"mesh": test_provider("mesh")})


def refused_on_protocol_5(mesh) -> bool:
    """On protocol 5, checks the refusal and returns True (the scenario ends there)."""
    if mesh.protocol != 5:
        return False
    mesh.write(network())
    result = mesh.run("plan", "-input=false", ok=(1,))
    assert "This provider needs protocol 6" in squash(result.stderr)
    assert "nested attributes" in squash(result.stderr)
    return True


def test_nested_attributes_are_created_with_defaults_and_computed_values(mesh):
    if refused_on_protocol_5(mesh):
        return
    mesh.write(network())
    code, plan = mesh.plan()
    assert code == 2
    after = planned_change(plan, "mesh_network.it")["after"]
    assert [s["dhcp"] for s in after["subnets"]] == [True, False]  # the default, planned
    mesh.apply()

    values = resources(mesh.state())["mesh_network.it"]["values"]
    assert values["subnets"] == [
        {"cidr": "10.0.1.0/24", "dhcp": True, "gateway": "gw-10.0.1.0/24"},
        {"cidr": "10.0.2.0/24", "dhcp": False, "gateway": "gw-10.0.2.0/24"},
    ]
    assert sorted(values["peers"], key=lambda p: p["name"]) == [
        {"name": "a", "id": "peer-a"}, {"name": "b", "id": "peer-b"}]
    assert values["labels"] == {"env": {"value": "prod", "owner": "ops"},
                                "team": {"value": "net", "owner": "alice"}}
    assert values["dns"] == {"server": "10.0.0.53", "ttl": 300}  # computed when not configured
    assert mesh.plan_exit_code() == 0


def test_changes_inside_nested_attributes_update_or_replace_as_declared(mesh):
    if refused_on_protocol_5(mesh):
        return
    mesh.write(network())
    mesh.apply()

    # Reordering a set is no change.
    mesh.write(network(peers='[{ name = "b" }, { name = "a" }]'))
    assert mesh.plan_exit_code() == 0

    # A new map element and a configured single object: an in-place update.
    mesh.write(network(labels='{ env = { value = "prod" }, tier = { value = "gold" } }',
                       extra='  dns = { server = "1.1.1.1" }'))
    code, plan = mesh.plan()
    assert code == 2
    change = planned_change(plan, "mesh_network.it")
    assert change["actions"] == ["update"]
    assert change["after"]["dns"] == {"server": "1.1.1.1", "ttl": 300}
    mesh.apply()
    values = resources(mesh.state())["mesh_network.it"]["values"]
    assert values["labels"]["tier"] == {"value": "gold", "owner": "ops"}
    assert mesh.plan_exit_code() == 0

    # A force_new attribute inside a list element: a replacement, at that element's path.
    mesh.write(network(subnets='[{ cidr = "10.0.1.0/24" }, { cidr = "10.0.3.0/24" }]',
                       labels='{ env = { value = "prod" }, tier = { value = "gold" } }',
                       extra='  dns = { server = "1.1.1.1" }'))
    code, plan = mesh.plan()
    assert code == 2
    assert planned_actions(plan) == {"mesh_network.it": ["delete", "create"]}
    assert ["subnets", 1, "cidr"] in planned_change(plan, "mesh_network.it")["replace_paths"]
    mesh.apply()
    assert mesh.plan_exit_code() == 0


def test_schema_command_describes_nested_attributes_as_the_cli_does(mesh, test_provider):
    if refused_on_protocol_5(mesh):
        return
    result = run_schema(test_provider("mesh") / "terraform-provider-mesh")
    assert result.returncode == 0, result.stderr
    ours = json.loads(result.stdout)["provider_schemas"][SOURCE_PREFIX + "mesh"]
    mesh.write(required_providers("mesh"))
    cli = parse_json(mesh.run("providers", "schema", "-json", "-no-color").stdout)
    assert ours == cli["provider_schemas"][SOURCE_PREFIX + "mesh"]
    subnets = ours["resource_schemas"]["mesh_network"]["block"]["attributes"]["subnets"]
    assert subnets["nested_type"]["nesting_mode"] == "list"
    assert subnets["nested_type"]["attributes"]["gateway"] == {
        "type": "string", "description_kind": "plain", "computed": True}
