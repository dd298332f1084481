"""Resource and attribute options not covered elsewhere, with the real CLI: a resource without
an update function is replaced by any change, at_least_one_of, and sensitive values kept out of
plan output while marked sensitive in state (tests/e2e/providers/checks, checks_alert)."""
from support.harness import planned_actions, planned_change, required_providers, resources, squash

SECRET = "hunter2-do-not-print"


def alert(body: str) -> str:
    return required_providers("checks") + f"""
resource "checks_alert" "it" {{
{body}
}}
"""


def test_without_an_update_function_any_change_replaces(checks):
    checks.write(alert('  email = "ops@example.com"'))
    checks.apply()
    assert resources(checks.state())["checks_alert.it"]["values"]["serial"] == 1

    checks.write(alert('  email = "noc@example.com"'))
    code, plan = checks.plan()
    assert code == 2
    assert planned_actions(plan) == {"checks_alert.it": ["delete", "create"]}
    assert ["email"] in planned_change(plan, "checks_alert.it")["replace_paths"]
    checks.apply()
    assert resources(checks.state())["checks_alert.it"]["values"]["serial"] == 2
    assert not (checks.workdir / "alert-1.txt").exists()
    assert checks.plan_exit_code() == 0


def test_at_least_one_of_a_group_must_be_set(checks):
    checks.write(alert('  secret = "s"'))
    result = checks.run("validate", "-no-color", ok=(1,))
    assert 'at least one of "email", "webhook" must be specified' in squash(result.stderr)

    checks.write(alert('  webhook = "https://example.com/hook"'))
    checks.run("validate")


def test_sensitive_values_stay_out_of_plan_output_and_are_marked_in_state(checks):
    checks.write(alert(f'  email = "ops@example.com"\n  secret = "{SECRET}"'))
    shown = checks.run("plan", "-input=false", "-no-color")
    assert SECRET not in shown.stdout
    assert "secret = (sensitive value)" in squash(shown.stdout)
    applied = checks.apply()
    assert SECRET not in applied.stdout + applied.stderr

    state = checks.state()
    item = resources(state)["checks_alert.it"]
    assert item["sensitive_values"] == {"secret": True}
    assert item["values"]["secret"] == SECRET  # state files hold secrets; output does not
