"""What the host lends a script for one call (an action's `progress`, a listing's `emit`, a
resource's `d`) expires when that call returns. A script that keeps it in a module and calls it
from a later call gets the error "NAME is no longer usable" at that line: the provider does not
crash, and an object the later create had made (its id set) is saved, tainted. The host once
called a kept progress or emit into memory that was gone: the provider died ("Plugin did not
respond") and the created object was missing from state.

tests/e2e/providers/keeper keeps each of them in lib/kept.lua. Actions and `terraform query` are
Terraform's (1.14 onwards); OpenTofu has neither, and there the same rule is checked with a kept
`d`. Each apply runs with -parallelism=1, so that every call borrows the provider's one Lua
state (module tables are per state) and the kept object is there for the later call.
"""
import signal
import subprocess

from support.debug_mode import start_debug
from support.harness import (CRASH_MARKERS, TEST_PROVIDERS_DIR, marked_line, required_providers,
                     resources, squash)

SCRIPT = TEST_PROVIDERS_DIR / "keeper" / "resource_item.lua"
NO_LONGER_USABLE = "is no longer usable: the call it was passed to has returned"


def is_terraform(tofu) -> bool:
    return "terraform" in tofu.binary.name


def item(name: str, body: str = "") -> str:
    return f"""
resource "keeper_item" "{name}" {{
  name = "{name}"
{body}
}}
"""


def late_users(kept: str, after: str) -> str:
    """Two items created after `after`, which call what was kept as `kept`: "late" lets the
    error end its create, "careful" catches it."""
    return (item("late", f'  use = "{kept}"\n  depends_on = [{after}]') +
            item("careful", f'  use = "{kept}"\n  catch = true\n  depends_on = [{after}]'))


def assert_kept_use_failed(result, state: dict, kept: str) -> None:
    """The later create that used the kept `kept` failed at its line, without a crash; the
    object it had made is saved, tainted; the one that caught the error was created."""
    text = squash(result.stdout + result.stderr)
    for marker in CRASH_MARKERS:
        assert marker not in text, text
    assert f"Error: {kept} {NO_LONGER_USABLE}" in text, text
    assert f"keeper_item: create failed at resource_item.lua:{marked_line(SCRIPT, kept)}" in \
        text, text
    saved = resources(state)
    assert saved["keeper_item.late"]["values"]["id"] == "late", saved
    assert saved["keeper_item.late"].get("tainted") is True, saved
    careful = saved["keeper_item.careful"]
    assert not careful.get("tainted"), careful
    assert f"{kept} {NO_LONGER_USABLE}" in careful["values"]["outcome"], careful


def test_a_kept_progress_called_by_a_later_create_is_an_error_there(make_tofu, test_provider):
    tofu = make_tofu({"keeper": test_provider("keeper")})
    if not is_terraform(tofu):
        # No actions: the first create keeps its own `d`, the later ones use it.
        tofu.write(required_providers("keeper") + item("first", "  keep = true") +
                   late_users("d", "keeper_item.first"))
        result = tofu.run("apply", "-auto-approve", "-input=false", "-parallelism=1", ok=(1,))
        assert_kept_use_failed(result, tofu.state(), "d")
        assert "keeper_item.first" in resources(tofu.state())
        return
    # The action runs before each of "late" and "careful" is created (a trigger after a create
    # does not hold back what depends on the resource) and keeps its progress, which their
    # creates then call, in the same provider process.
    trigger = """
  lifecycle {
    action_trigger {
      events  = [before_create]
      actions = [action.keeper_note.hello]
    }
  }"""
    tofu.write(required_providers("keeper") + """
action "keeper_note" "hello" {
  config {
    message = "hello from the action"
  }
}
""" + item("late", '  use = "progress"' + trigger) +
               item("careful", '  use = "progress"\n  catch = true' + trigger))

    result = tofu.run("apply", "-auto-approve", "-input=false", "-parallelism=1", ok=(1,))

    shown = squash(result.stdout)
    assert "(triggered by keeper_item.late): hello from the action" in shown, shown
    assert "late word" not in shown, shown  # the kept progress showed nothing
    assert_kept_use_failed(result, tofu.state(), "progress")


def test_a_kept_emit_called_by_an_apply_after_the_query_is_an_error_there(make_tofu,
                                                                         test_provider):
    """The provider in debug mode serves the CLI's commands one after the other, so what the
    listing kept is still in its module when the apply's create runs."""
    tofu = make_tofu({})
    binary = test_provider("keeper") / "terraform-provider-keeper"
    env = {k: v for k, v in tofu.env().items() if not k.startswith(("TF_", "PLUGIN_"))}
    process, reattach = start_debug([str(binary), "--debug"], env)
    try:
        tofu.extra_env["TF_REATTACH_PROVIDERS"] = reattach
        if is_terraform(tofu):
            kept = "emit"
            (tofu.workdir / "items.tfquery.hcl").write_text("""
list "keeper_item" "found" {
  provider = keeper
  config {
    names = ["one", "two"]
  }
}
""")
            tofu.write(required_providers("keeper"))
            listed = tofu.run("query")
            assert [line.split()[-1] for line in listed.stdout.splitlines()
                    if line.startswith("list.keeper_item.found ")] == ["one", "two"], \
                listed.stdout
            tofu.write(required_providers("keeper") + late_users("emit", "terraform_data.x") +
                       'resource "terraform_data" "x" {}\n')
        else:
            # No query: an apply keeps a create's `d`, the next apply uses it.
            kept = "d"
            tofu.write(required_providers("keeper") + item("first", "  keep = true"))
            tofu.apply()
            tofu.write(required_providers("keeper") + item("first", "  keep = true") +
                       late_users("d", "terraform_data.x") + 'resource "terraform_data" "x" {}\n')
        result = tofu.run("apply", "-auto-approve", "-input=false", "-parallelism=1", ok=(1,))
        assert_kept_use_failed(result, tofu.state(), kept)
        assert process.poll() is None, "the provider must still serve"
        # It does: the tainted object is replaced by a create that keeps nothing.
        tofu.write(required_providers("keeper") + item("late"))
        tofu.apply()
        assert set(resources(tofu.state())) == {"keeper_item.late"}
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
