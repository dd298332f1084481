"""The timeouts block with the real CLI: a script declares default timeouts, the user overrides
them in a `timeouts` block, d:timeout() sees the result, changing them replaces nothing, and an
operation that runs past its timeout is ended."""
import time

from support.harness import faults_item, parse_json, planned_actions, resources, squash


def test_the_declared_timeout_applies_without_a_timeouts_block(faults):
    faults.write(faults_item())
    faults.apply()
    assert resources(faults.state())["faults_item.it"]["values"]["create_timeout"] == 60


def test_a_timeouts_block_overrides_it_and_changing_it_replaces_nothing(faults):
    faults.write(faults_item(body='  timeouts {\n    create = "90s"\n  }'))
    faults.apply()
    values = resources(faults.state())["faults_item.it"]["values"]
    assert values["create_timeout"] == 90
    assert values["timeouts"] == {"create": "90s", "default": None}

    faults.write(faults_item(body='  timeouts {\n    create = "2m"\n  }'))
    code, plan = faults.plan()
    assert code == 2
    assert planned_actions(plan) == {"faults_item.it": ["update"]}
    faults.apply()
    assert faults.plan_exit_code() == 0


def test_a_timeout_that_is_not_a_duration_is_an_error_at_its_line(faults):
    faults.write(faults_item(body='  timeouts {\n    create = "soon"\n  }'))
    result = faults.run("validate", "-json", ok=(1,))
    errors = [d for d in parse_json(result.stdout)["diagnostics"] if d["severity"] == "error"]
    assert [e["summary"] for e in errors] == ['Invalid duration "soon"']
    lines = (faults.workdir / "main.tf").read_text().splitlines()
    assert lines[errors[0]["range"]["start"]["line"] - 1].strip() == 'create = "soon"'


def test_a_create_that_runs_past_its_timeout_is_ended_and_saved_tainted(faults):
    faults.write(faults_item(body='  timeouts {\n    create = "2s"\n  }'))
    (faults.workdir / "hang-create").touch()

    started = time.monotonic()
    result = faults.run("apply", "-auto-approve", "-input=false", ok=(1,))
    assert time.monotonic() - started < 60

    stderr = squash(result.stderr)
    assert "faults_item: create failed" in stderr
    assert "create did not finish within its timeout of 2s" in stderr
    assert "resource_item.lua:" in stderr
    # The id was set before the loop: the object exists, so it is kept, tainted.
    saved = resources(faults.state())["faults_item.it"]
    assert saved["values"]["id"] == "one"
    assert saved.get("tainted") is True

    (faults.workdir / "hang-create").unlink()
    faults.apply()
    assert faults.plan_exit_code() == 0
