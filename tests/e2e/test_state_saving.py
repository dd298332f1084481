"""Terraform's state-saving rules when an operation fails part-way, with the real CLI: what the
provider confirmed is kept, nothing is lost, and the next apply converges. The faults test
provider fails an operation when a marker file exists in the working directory."""
from support.harness import faults_item, faults_pair, planned_actions, planned_change, resources, squash


def saved(tofu) -> dict:
    return resources(tofu.state())["faults_item.it"]


def arm(tofu, operation: str):
    (tofu.workdir / f"fail-{operation}").touch()


def disarm(tofu, operation: str):
    (tofu.workdir / f"fail-{operation}").unlink()


def test_a_create_that_fails_after_set_id_is_saved_tainted_and_replaced_next_time(faults):
    faults.write(faults_item("a"))
    arm(faults, "create")
    result = faults.run("apply", "-auto-approve", "-input=false", ok=(1,))
    assert "the service failed after creating one" in squash(result.stderr)
    assert saved(faults)["values"]["revision"] == 1
    assert saved(faults).get("tainted") is True

    disarm(faults, "create")
    code, plan = faults.plan()
    assert code == 2
    assert planned_actions(plan) == {"faults_item.it": ["delete", "create"]}
    faults.apply()
    assert saved(faults).get("tainted") is not True
    assert faults.plan_exit_code() == 0


def test_an_update_that_fails_saves_what_it_did(faults):
    faults.write(faults_item("a"))
    faults.apply()
    faults.write(faults_item("b"))
    arm(faults, "update")

    result = faults.run("apply", "-auto-approve", "-input=false", ok=(1,))

    assert "the service failed after updating one" in squash(result.stderr)
    values = saved(faults)["values"]
    assert values["value"] == "b"
    assert values["revision"] == 2
    assert (faults.workdir / "item-one.txt").read_text() == "b"
    disarm(faults, "update")
    assert faults.plan_exit_code() == 0


def test_an_update_that_fails_in_partial_mode_saves_only_what_it_confirmed(faults):
    faults.write(faults_pair("a", "a"))
    faults.apply()
    faults.write(faults_pair("b", "b"))
    arm(faults, "second")

    result = faults.run("apply", "-auto-approve", "-input=false", ok=(1,))

    assert "the service rejected the second change to p" in squash(result.stderr)
    item = resources(faults.state())["faults_pair.it"]
    assert item["values"]["first"] == "b"   # confirmed with d:set_partial
    assert item["values"]["second"] == "a"  # not confirmed: the prior state
    assert item.get("tainted") is not True  # a failed update never taints
    disarm(faults, "second")
    code, plan = faults.plan()
    assert code == 2
    change = planned_change(plan, "faults_pair.it")
    assert change["actions"] == ["update"]
    assert (change["before"]["first"], change["before"]["second"]) == ("b", "a")
    faults.apply()
    assert (faults.workdir / "pair-p-second.txt").read_text() == "b"
    assert faults.plan_exit_code() == 0


def test_a_delete_that_fails_keeps_the_object_in_state(faults):
    faults.write(faults_item("a"))
    faults.apply()
    arm(faults, "delete")

    result = faults.run("destroy", "-auto-approve", "-input=false", ok=(1,))

    assert "the service refused to delete one" in squash(result.stderr)
    assert saved(faults)["values"]["value"] == "a"
    assert (faults.workdir / "item-one.txt").exists()

    disarm(faults, "delete")
    faults.destroy()
    assert resources(faults.state()) == {}
    assert not (faults.workdir / "item-one.txt").exists()


def test_an_object_exists_reports_gone_is_dropped_by_refresh_and_created_again(faults):
    faults.write(faults_item("a"))
    faults.apply()
    (faults.workdir / "item-one.txt").unlink()

    code, plan = faults.plan()
    assert code == 2
    assert planned_actions(plan) == {"faults_item.it": ["create"]}
    faults.apply()
    assert (faults.workdir / "item-one.txt").read_text() == "a"
