"""customize_diff with the real CLI: a computed value planned as a known value, and a
replacement the script asks for."""
from support.harness import faults_item, planned_actions, planned_change, resources


def test_a_computed_value_is_planned_known_and_kept_by_apply(faults):
    faults.write(faults_item("a"))
    faults.apply()
    faults.write(faults_item("b"))

    code, plan = faults.plan()
    assert code == 2
    change = planned_change(plan, "faults_item.it")
    assert change["actions"] == ["update"]
    assert change["after"]["revision"] == 2
    assert "revision" not in change["after_unknown"]

    faults.apply()
    assert resources(faults.state())["faults_item.it"]["values"]["revision"] == 2
    assert faults.plan_exit_code() == 0


def test_customize_diff_can_ask_for_a_replacement(faults):
    faults.write(faults_item("a"))
    faults.apply()
    faults.write(faults_item("!b"))

    code, plan = faults.plan()
    assert code == 2
    assert planned_actions(plan) == {"faults_item.it": ["delete", "create"]}
    assert ["value"] in planned_change(plan, "faults_item.it")["replace_paths"]
    faults.apply()
    assert faults.plan_exit_code() == 0
