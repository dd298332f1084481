"""tf.warn and tf.fail work the same in every kind of hook: configure, validate, diff_suppress,
requires_replace_if, a plan function, customize_diff and create. The CLI shows each warning, and
each error with its summary and detail, at the line of the argument the script's path names.
A warning from configure, a validator or a plan function once showed nothing, and tf.fail in a
plan function lost its summary and the argument's line.

tests/e2e/providers/herald's hooks speak when the note's name (the provider's `say`, for
configure) tells them to, each at an argument other than the one that told it: `note`, or the
provider's `region`.
"""
import json

import pytest

from support.harness import (CRASH_MARKERS, TEST_PROVIDERS_DIR, marked_line, required_providers,
                     resources, squash)

SPEAK = TEST_PROVIDERS_DIR / "herald" / "lib" / "speak.lua"
# The hooks that speak while a note is created, and those that speak only when its name changes.
ON_CREATE = ("validate", "plan", "customize_diff", "create")
ON_UPDATE = ("diff_suppress", "requires_replace_if")


def config(name: str, say: str = "") -> str:
    return required_providers("herald") + f"""
provider "herald" {{
  say    = "{say}"
  region = "eu-1"
}}

resource "herald_note" "it" {{
  name = "{name}"
  note = "the note"
}}
"""


def line_of(tofu, argument: str) -> int:
    """The line of main.tf that sets `argument`."""
    lines = (tofu.workdir / "main.tf").read_text().splitlines()
    return next(n for n, text in enumerate(lines, 1) if text.strip().startswith(argument + " "))


def apply_json(tofu, ok: tuple[int, ...] = (0,)) -> list[dict]:
    """The diagnostics of `apply -json`, without the CLI's own about dev_overrides."""
    result = tofu.run("apply", "-auto-approve", "-input=false", "-json", ok=ok)
    for marker in CRASH_MARKERS:
        assert marker not in result.stdout + result.stderr, result.stdout + result.stderr
    events = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    return [e["diagnostic"] for e in events if e.get("type") == "diagnostic" and
            "development overrides" not in e["diagnostic"]["summary"]]


def warned_hooks(diagnostics: list[dict]) -> set[str]:
    return {d["summary"].removesuffix(" warns") for d in diagnostics
            if d["severity"] == "warning" and d["summary"].endswith(" warns")}


def assert_warned_at(tofu, diagnostics: list[dict], hook: str, argument: str) -> None:
    """`hook`'s warning is shown, with its detail, at the line of `argument` in main.tf."""
    shown = [d for d in diagnostics if d["summary"] == f"{hook} warns"]
    assert shown, diagnostics
    for warning in shown:
        assert warning["severity"] == "warning", warning
        assert warning["detail"].startswith(f"a warning from {hook}"), warning
        assert warning["range"]["filename"] == "main.tf", warning
        assert warning["range"]["start"]["line"] == line_of(tofu, argument), warning


@pytest.fixture
def herald(make_tofu, test_provider):
    return make_tofu({"herald": test_provider("herald")})


def test_a_warning_from_every_hook_is_shown_at_its_argument(herald):
    herald.write(config("warn", say="warn"))

    created = apply_json(herald)

    assert warned_hooks(created) == {"configure", *ON_CREATE}, created
    assert_warned_at(herald, created, "configure", "region")
    for hook in ON_CREATE:
        assert_warned_at(herald, created, hook, "note")
    assert resources(herald.state())["herald_note.it"]["values"]["label"] == "label of warn"

    # A new name: the hooks that compare the stored name with it speak too; the update goes on.
    herald.write(config("warn again"))

    updated = apply_json(herald)

    assert warned_hooks(updated) == {"validate", "plan", "customize_diff", *ON_UPDATE}, updated
    for hook in ON_UPDATE:
        assert_warned_at(herald, updated, hook, "note")
    assert resources(herald.state())["herald_note.it"]["values"]["label"] == \
        "label of warn again"


@pytest.mark.parametrize("hook", ["configure", *ON_CREATE, *ON_UPDATE])
def test_a_failure_from_every_hook_is_shown_with_its_summary_at_its_argument(herald, hook):
    if hook in ON_UPDATE:
        herald.write(config("first"))
        herald.apply()
    argument = "region" if hook == "configure" else "note"
    herald.write(config("first", say="fail-configure") if hook == "configure" else
                 config(f"fail-{hook}"))

    result = herald.run("apply", "-auto-approve", "-input=false", ok=(1,))

    text = squash(result.stdout + result.stderr)
    for marker in CRASH_MARKERS:
        assert marker not in text, text
    assert text.count("Error: ") == 1, text
    assert f"Error: {hook} refuses" in text, text
    error = text[text.index(f"Error: {hook} refuses"):]
    line = line_of(herald, argument)
    assert f"on main.tf line {line}," in error, error
    assert f"{line}: {argument} = " in error, error
    assert f"an error from {hook}" in error, error
    assert f"lib/speak.lua:{marked_line(SPEAK, 'fail')}" in error, error
    # Nothing was applied: the note is as it was (none, or the first).
    saved = resources(herald.state())
    assert [r["values"]["name"] for r in saved.values()] == \
        (["first"] if hook in ON_UPDATE else []), saved
