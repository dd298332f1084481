"""Every call into a script has a deadline, so a hook that never ends fails the command soon
with a message that says what to change: a validator by `hook_timeouts.check` of provider.lua,
an action's invoke and a listing by their own `timeout` (Terraform 1.14 onwards; OpenTofu, which
has neither, checks a plan function's `hook_timeouts.plan` and configure's `hook_timeouts.hook`
instead). Each script of tests/e2e/providers/sloth loops in lib/spin.lua, which calls nothing
the host could end it in: only the deadline stops it.
"""
import time

import pytest

from support.harness import (CRASH_MARKERS, TEST_PROVIDERS_DIR, marked_line, required_providers,
                     resources, squash)

SPIN = f"lib/spin.lua:{marked_line(TEST_PROVIDERS_DIR / 'sloth' / 'lib' / 'spin.lua', 'spin')}"
# A command whose hook is ended after a limit of 1 to 3 s ends well before this, however loaded
# the machine; the defaults it would wait for otherwise are 10 s to 20 minutes.
PROMPT = 30


def is_terraform(tofu) -> bool:
    return "terraform" in tofu.binary.name


def config(name: str, stall: str = "") -> str:
    return required_providers("sloth") + f"""
provider "sloth" {{
  stall = "{stall}"
}}

resource "sloth_task" "it" {{
  name = "{name}"
}}
"""


@pytest.fixture
def sloth(make_tofu, test_provider):
    return make_tofu({"sloth": test_provider("sloth")})


def run_ended(tofu, *args: str) -> str:
    """Runs a command that a hook's deadline fails: it fails in time, without a crash. Returns
    its output, squashed."""
    started = time.monotonic()
    result = tofu.run(*args, ok=(1,))
    elapsed = time.monotonic() - started
    text = squash(result.stdout + result.stderr)
    assert elapsed < PROMPT, f"{elapsed:.1f} s: {text}"
    for marker in CRASH_MARKERS:
        assert marker not in text, text
    assert SPIN in text, text  # ended where the script was
    return text


def still_serves(tofu) -> None:
    """The same provider, with nothing that loops, applies a task."""
    tofu.write(config("fine"))
    tofu.apply()
    assert resources(tofu.state())["sloth_task.it"]["values"]["label"] == "task fine"


def test_a_validator_that_never_ends_is_ended_by_hook_timeouts_check(sloth):
    sloth.write(config("loop"))
    text = run_ended(sloth, "plan", "-input=false")
    assert ('validate of "name" did not finish within its timeout of 1s '
            "(hook_timeouts.check in provider.lua sets it)") in text, text
    still_serves(sloth)


def test_an_invoke_that_never_ends_is_ended_at_the_actions_timeout(sloth):
    if not is_terraform(sloth):
        sloth.write(config("plan-loop"))
        text = run_ended(sloth, "plan", "-input=false")
        assert ('plan of "label" did not finish within its timeout of 2s '
                "(hook_timeouts.plan in provider.lua sets it)") in text, text
        still_serves(sloth)
        return
    sloth.write(config("fine") + 'action "sloth_wait" "it" {}\n')
    text = run_ended(sloth, "apply", "-auto-approve", "-input=false",
                     "-invoke=action.sloth_wait.it")
    assert "action.sloth_wait.it (triggered by CLI): waiting" in text, text
    # Terraform 1.15 says "Error when invoking action"; 1.16 names the action that failed.
    assert ("Error when invoking action" in text
            or "Action failed: action.sloth_wait.it" in text), text
    assert "the invoke of sloth_wait did not finish within its timeout of 2s" in text, text
    still_serves(sloth)


def test_a_listing_that_never_ends_is_ended_at_the_list_resources_timeout(sloth):
    if not is_terraform(sloth):
        sloth.write(config("fine", stall="configure"))
        text = run_ended(sloth, "plan", "-input=false")
        assert ("configure did not finish within its timeout of 3s "
                "(hook_timeouts.hook in provider.lua sets it)") in text, text
        still_serves(sloth)
        return
    sloth.write(config("fine"))
    (sloth.workdir / "tasks.tfquery.hcl").write_text("""
list "sloth_task" "all" {
  provider = sloth
}
""")
    text = run_ended(sloth, "query")
    assert "the listing of sloth_task did not finish within its timeout of 2s" in text, text
    still_serves(sloth)
