"""Plan modifiers in the framework's sense, through tests/e2e/providers/modifiers: a
requires_replace_if function decides per change whether the object is replaced (at the top or
per element of a block), a computed
attribute with use_state_for_unknown keeps its stored value in the plan of an update, and
refined unknowns (refine = { ... }) let the CLI decide expressions before apply."""
import pytest

from support.harness import (TEST_PROVIDERS_DIR, TofuError, assert_script_error, planned_actions,
                     planned_change, required_providers, resources, squash)


@pytest.fixture
def modifiers(make_tofu, test_provider):
    return make_tofu({"modifiers": test_provider("modifiers")})


def server(name: str = "web", size: int = 2, volumes: tuple[int, ...] = ()) -> str:
    volume_blocks = "".join(f"  volume {{\n    gb = {gb}\n  }}\n" for gb in volumes)
    return required_providers("modifiers") + f"""
resource "modifiers_server" "s" {{
  name = "{name}"
  size = {size}
{volume_blocks}}}
"""


def test_growing_updates_in_place_and_keeps_the_stored_value(modifiers):
    modifiers.write(server(size=2))
    modifiers.apply()
    before = resources(modifiers.state())["modifiers_server.s"]["values"]

    modifiers.write(server(size=4))
    code, plan = modifiers.plan()
    assert code == 2 and planned_actions(plan) == {"modifiers_server.s": ["update"]}
    change = planned_change(plan, "modifiers_server.s")
    assert change["after"]["created_at"] == before["created_at"]
    assert change["after_unknown"].get("updated_at") is True
    assert "created_at" not in change["after_unknown"]
    modifiers.apply()
    after = resources(modifiers.state())["modifiers_server.s"]["values"]
    assert after["id"] == before["id"] and after["created_at"] == before["created_at"]
    assert after["updated_at"] != before["updated_at"]


def test_shrinking_replaces_because_the_script_says_so(modifiers):
    modifiers.write(server(size=4))
    modifiers.apply()
    before = resources(modifiers.state())["modifiers_server.s"]["values"]

    modifiers.write(server(size=1))
    code, plan = modifiers.plan()
    assert code == 2
    assert planned_actions(plan) == {"modifiers_server.s": ["delete", "create"]}
    assert planned_change(plan, "modifiers_server.s")["replace_paths"] == [["size"]]
    modifiers.apply()
    after = resources(modifiers.state())["modifiers_server.s"]["values"]
    assert after["id"] != before["id"] and after["created_at"] != before["created_at"]
    assert modifiers.plan_exit_code() == 0


def test_requires_replace_if_inside_a_block_decides_per_element(modifiers):
    modifiers.write(server(volumes=(10, 20)))
    modifiers.apply()
    before = resources(modifiers.state())["modifiers_server.s"]["values"]

    # The second volume grows and a third is added: an update.
    modifiers.write(server(volumes=(10, 30, 5)))
    code, plan = modifiers.plan()
    assert code == 2 and planned_actions(plan) == {"modifiers_server.s": ["update"]}
    modifiers.apply()
    assert resources(modifiers.state())["modifiers_server.s"]["values"]["id"] == before["id"]

    # Each volume's label is planned by its own function from the element and the resource.
    labels = [v["label"] for v in planned_change(plan, "modifiers_server.s")["after"]["volume"]]
    assert labels == ["web-10gb", "web-30gb", "web-5gb"]

    # The second volume shrinks: the script replaces the server, at that volume's path.
    modifiers.write(server(volumes=(10, 5, 5)))
    code, plan = modifiers.plan()
    assert planned_actions(plan) == {"modifiers_server.s": ["delete", "create"]}
    assert planned_change(plan, "modifiers_server.s")["replace_paths"] == [["volume", 1, "gb"]]
    modifiers.apply()
    assert resources(modifiers.state())["modifiers_server.s"]["values"]["id"] != before["id"]
    assert modifiers.plan_exit_code() == 0


def test_a_failing_requires_replace_if_names_the_attribute_and_line(modifiers):
    modifiers.write(server())
    modifiers.apply()
    modifiers.write(server(name="boom"))
    with pytest.raises(TofuError) as failure:
        modifiers.plan()
    message = squash(str(failure.value))
    lines = (TEST_PROVIDERS_DIR / "modifiers" / "resource_server.lua").read_text().splitlines()
    line = next(n for n, text in enumerate(lines, 1) if "MARK: name check" in text)
    assert_script_error(message, "cannot tell whether boom needs a new server",
                        f"resource_server.lua:{line}")
    assert 'modifiers_server: requires_replace_if of "name" failed at' in message
    assert resources(modifiers.state())["modifiers_server.s"]["values"]["name"] == "web"


# The CLI compares against bounds as if they were exclusive, so `port > 1000` is decided by
# min = 1024 before apply where `port >= 1024` is not.
REFINED_OUTPUTS = """
output "arn_set" {
  value = modifiers_server.s.arn != null
}
output "arn_kind" {
  value = startswith(modifiers_server.s.arn, "arn:modifiers:")
}
output "port_unprivileged" {
  value = modifiers_server.s.port > 1000
}
output "ips_some" {
  value = length(modifiers_server.s.ips) > 0
}
"""


def test_refined_unknowns_let_the_cli_decide_before_apply(modifiers):
    modifiers.write(server() + REFINED_OUTPUTS)
    code, plan = modifiers.plan()
    assert code == 2
    change = planned_change(plan, "modifiers_server.s")
    assert change["after_unknown"]["arn"] is True
    planned = {name: o.get("value") for name, o in plan["planned_values"]["outputs"].items()}
    assert planned == {"arn_set": True, "arn_kind": True, "port_unprivileged": True,
                       "ips_some": True}
    modifiers.apply()
    assert modifiers.outputs() == {"arn_set": True, "arn_kind": True,
                                   "port_unprivileged": True, "ips_some": True}


def test_a_result_that_breaks_its_refinement_is_an_error_naming_it(modifiers):
    modifiers.write(server(name="liar"))
    with pytest.raises(TofuError) as failure:
        modifiers.apply()
    message = squash(str(failure.value))
    assert 'set "arn" to a value its refine option rules out' in message
    assert 'it does not start with "arn:modifiers:server/"' in message
    assert 'set "port" to a value its refine option rules out' in message
    assert "it is less than 1024" in message


def test_a_plan_function_makes_a_computed_value_known_before_apply(modifiers):
    modifiers.write(server(name="web") + 'output "fqdn" {\n  value = modifiers_server.s.fqdn\n}\n')
    code, plan = modifiers.plan()
    assert plan["planned_values"]["outputs"]["fqdn"]["value"] == "web.servers.internal"
    modifiers.apply()
    assert modifiers.outputs() == {"fqdn": "web.servers.internal"}

    # A rename plans the new name at once (an in-place update: name has no replace rule).
    modifiers.write(server(name="db") + 'output "fqdn" {\n  value = modifiers_server.s.fqdn\n}\n')
    code, plan = modifiers.plan()
    assert planned_actions(plan) == {"modifiers_server.s": ["update"]}
    assert planned_change(plan, "modifiers_server.s")["after"]["fqdn"] == "db.servers.internal"
    modifiers.apply()
    assert modifiers.outputs() == {"fqdn": "db.servers.internal"}
    assert modifiers.plan_exit_code() == 0
