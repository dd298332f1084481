"""Nested blocks (list, set and single) through plan, apply, drift, replacement and import,
with computed values inside the blocks. The inventory test provider keeps each server as a
record file in the working directory."""
import re

import pytest

from support.harness import (hcl_string, planned_actions, planned_change, required_providers,
                     resources, squash)


@pytest.fixture
def inventory(make_tofu, test_provider):
    return make_tofu({"inventory": test_provider("inventory")})


def server(disks=((10, None, None), (20, "hdd", None)), ports=(80, 443), image="debian-12",
           extra="") -> str:
    blocks = []
    for size, kind, label in disks:
        fields = [f"size = {size}"]
        if kind:
            fields.append(f"kind = {hcl_string(kind)}")
        if label:
            fields.append(f"label = {hcl_string(label)}")
        blocks.append("  disk {\n    " + "\n    ".join(fields) + "\n  }")
    for port in ports:
        if isinstance(port, tuple):  # (port, protocol)
            blocks.append(f"  rule {{\n    port = {port[0]}\n    protocol = \"{port[1]}\"\n  }}")
        else:
            blocks.append(f"  rule {{\n    port = {port}\n  }}")
    if image:
        blocks.append(f"  boot {{\n    image = {hcl_string(image)}\n  }}")
    return required_providers("inventory") + f"""
provider "inventory" {{
  root = "."
}}

resource "inventory_server" "web" {{
  name = "web"
{chr(10).join(blocks)}
}}
{extra}"""


def web(tofu) -> dict:
    return resources(tofu.state())["inventory_server.web"]["values"]


def record_path(tofu):
    return tofu.workdir / "server-web.rec"


def test_blocks_are_created_with_defaults_and_computed_values_and_plan_clean(inventory):
    inventory.write(server())
    inventory.apply()

    values = web(inventory)
    assert values["disk"] == [
        {"size": 10, "kind": "ssd", "label": None, "serial": "web-disk-0-10"},
        {"size": 20, "kind": "hdd", "label": None, "serial": "web-disk-1-20"},
    ]
    assert sorted(values["rule"], key=lambda r: r["port"]) == [
        {"port": 80, "protocol": "tcp", "note": None, "uid": "rule-80"},
        {"port": 443, "protocol": "tcp", "note": None, "uid": "rule-443"},
    ]
    assert values["boot"] == {"image": "debian-12"}
    assert record_path(inventory).exists()
    assert inventory.plan_exit_code() == 0


def test_changing_one_list_element_updates_in_place_and_recomputes_only_it(inventory):
    inventory.write(server())
    inventory.apply()
    inventory.write(server(disks=((10, None, None), (25, "hdd", None))))

    code, plan = inventory.plan()
    assert code == 2
    assert planned_actions(plan) == {"inventory_server.web": ["update"]}
    change = planned_change(plan, "inventory_server.web")
    assert change["after"]["disk"][0]["serial"] == "web-disk-0-10"
    assert change["after_unknown"]["disk"][1]["serial"] is True
    assert "serial" not in change["after_unknown"]["disk"][0]

    inventory.apply()
    assert web(inventory)["disk"][1]["serial"] == "web-disk-1-25"
    assert inventory.plan_exit_code() == 0


def test_adding_a_set_element_keeps_the_others_and_reordering_is_no_change(inventory):
    inventory.write(server(ports=(80, 443)))
    inventory.apply()
    inventory.write(server(ports=(8080, 443, 80)))

    code, plan = inventory.plan()
    assert code == 2
    assert planned_actions(plan) == {"inventory_server.web": ["update"]}
    inventory.apply()
    rules = {r["port"]: r["uid"] for r in web(inventory)["rule"]}
    assert rules == {80: "rule-80", 443: "rule-443", 8080: "rule-8080"}

    inventory.write(server(ports=(443, 8080, 80)))
    assert inventory.plan_exit_code() == 0


def test_a_force_new_attribute_inside_a_block_replaces_the_resource(inventory):
    inventory.write(server())
    inventory.apply()
    inventory.write(server(disks=((10, None, "boot"), (20, "hdd", None))))

    code, plan = inventory.plan()
    assert code == 2
    assert planned_actions(plan) == {"inventory_server.web": ["delete", "create"]}
    change = planned_change(plan, "inventory_server.web")
    assert ["disk", 0, "label"] in change["replace_paths"]

    inventory.apply()
    assert web(inventory)["disk"][0]["label"] == "boot"
    assert inventory.plan_exit_code() == 0


def test_a_nested_value_changed_outside_shows_as_drift_and_is_repaired(inventory):
    inventory.write(server())
    inventory.apply()
    path = record_path(inventory)
    path.write_text(path.read_text().replace('"debian-12"', '"hacked"'))

    code, plan = inventory.plan()
    assert code == 2
    change = planned_change(plan, "inventory_server.web")
    assert change["before"]["boot"] == {"image": "hacked"}
    assert change["after"]["boot"] == {"image": "debian-12"}

    inventory.apply()
    assert "debian-12" in path.read_text()
    assert inventory.plan_exit_code() == 0


def test_removing_a_single_block_plans_it_null(inventory):
    inventory.write(server())
    inventory.apply()
    inventory.write(server(image=None))

    code, plan = inventory.plan()
    assert code == 2
    assert planned_change(plan, "inventory_server.web")["after"]["boot"] is None
    inventory.apply()
    assert web(inventory)["boot"] is None
    assert inventory.plan_exit_code() == 0


def test_import_reads_every_block_and_matches_the_configuration(inventory):
    inventory.write(server())
    inventory.apply()
    applied = web(inventory)
    (inventory.workdir / "terraform.tfstate").unlink()  # forget it; the record stays

    inventory.run("import", "-input=false", "inventory_server.web", "web")

    assert web(inventory) == applied
    assert inventory.plan_exit_code() == 0


def test_more_blocks_than_max_items_is_an_error_naming_the_block(inventory):
    disks = ((1, None, None), (2, None, None), (3, None, None), (4, None, None))
    inventory.write(server(disks=disks))

    result = inventory.run("plan", "-input=false", ok=(1,))

    assert re.search(r"Too many disk blocks|at most 3", squash(result.stderr)), result.stderr


def test_a_data_source_returns_a_list_of_objects(inventory):
    data = """
data "inventory_server" "web" {
  name = inventory_server.web.name
}

output "disks" {
  value = data.inventory_server.web.disks
}

output "ports" {
  value = data.inventory_server.web.ports
}
"""
    inventory.write(server(extra=data))
    inventory.apply()

    assert inventory.outputs() == {
        "disks": [{"size": 10, "kind": "ssd", "serial": "web-disk-0-10"},
                  {"size": 20, "kind": "hdd", "serial": "web-disk-1-20"}],
        "ports": [80, 443],
    }
    assert inventory.plan_exit_code() == 0


def test_set_elements_that_differ_only_by_a_default_keep_their_own_values(inventory):
    inventory.write(server(ports=(53, (53, "udp"))))
    inventory.apply()

    rules = sorted((r["port"], r["protocol"]) for r in web(inventory)["rule"])
    assert rules == [(53, "tcp"), (53, "udp")]
    assert inventory.plan_exit_code() == 0
