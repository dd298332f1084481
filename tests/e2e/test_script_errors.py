"""A broken script is a diagnostic naming the script and line, never a crash of the provider.

The scripts live in tests/e2e/providers; each failing line carries a `MARK: <name>` comment so
the tests can find its line number.
"""
import json

import pytest

from support.harness import (CRASH_MARKERS, TEST_PROVIDERS_DIR, marked_line, required_providers,
                     resources, squash)


def assert_diagnostic_without_crash(result, script: str, line: int, message: str) -> None:
    # The error, and where it comes from: in the error itself, or (a script that does not load)
    # in the warning beside the CLI's error, which the CLI prints on stdout.
    stderr = squash(result.stderr)
    shown = squash(result.stdout + result.stderr)
    assert "Error:" in stderr, result.stderr
    assert f"{script}:{line}" in shown, result.stdout + result.stderr
    assert message in shown, result.stdout + result.stderr
    for marker in CRASH_MARKERS:
        assert marker not in result.stderr + result.stdout, result.stderr


def one_resource(kind: str) -> str:
    return required_providers("broken") + f"""
resource "broken_{kind}" "it" {{
  name = "first"
}}
"""


@pytest.mark.parametrize("kind, mark, message", [
    ("boom", "boom", "create refused for first"),
    ("crash", "crash", "attempt to index a nil value"),
])
def test_error_in_create_is_a_diagnostic_with_script_and_line(
        make_tofu, test_provider, kind, mark, message):
    tofu = make_tofu({"broken": test_provider("broken")})
    tofu.write(one_resource(kind))

    result = tofu.run("apply", "-auto-approve", "-input=false", ok=(1,))

    script = f"resource_{kind}.lua"
    line = marked_line(TEST_PROVIDERS_DIR / "broken" / script, mark)
    assert_diagnostic_without_crash(result, script, line, message)
    # Create failed before d:set_id: nothing was saved.
    assert resources(tofu.state()) == {}


def test_create_failing_after_set_id_saves_a_tainted_object(make_tofu, test_provider):
    tofu = make_tofu({"broken": test_provider("broken")})
    tofu.write(one_resource("half"))

    result = tofu.run("apply", "-auto-approve", "-input=false", ok=(1,))

    line = marked_line(TEST_PROVIDERS_DIR / "broken" / "resource_half.lua", "half")
    assert_diagnostic_without_crash(result, "resource_half.lua", line,
                                    "failed after the id was set")
    saved = resources(tofu.state())["broken_half.it"]
    assert saved["values"]["id"] == "first"
    assert saved.get("tainted") is True
    # The provider is still usable afterwards: the tainted object can be destroyed.
    tofu.destroy()
    assert resources(tofu.state()) == {}


def test_a_script_holding_too_much_memory_is_ended_at_its_line(make_tofu, test_provider):
    tofu = make_tofu({"broken": test_provider("broken")})
    tofu.extra_env["LUAFORM_MEMORY_LIMIT_MB"] = "64"
    tofu.write(one_resource("hog"))

    result = tofu.run("apply", "-auto-approve", "-input=false", ok=(1,))

    line = marked_line(TEST_PROVIDERS_DIR / "broken" / "resource_hog.lua", "hog")
    assert_diagnostic_without_crash(result, "resource_hog.lua", line,
                                    "the script holds more than 64 MiB of memory")
    # The id was set before: the object is kept, tainted, and the provider still serves the
    # destroy that follows.
    assert resources(tofu.state())["broken_hog.it"].get("tainted") is True
    tofu.destroy()
    assert resources(tofu.state()) == {}


def test_diagnostics_never_show_the_sensitive_values_a_script_quotes(make_tofu, test_provider):
    tofu = make_tofu({"broken": test_provider("broken")})
    weak, strong = "weak-hunter2", "Str0ng-S3cret-991"

    def config(password: str) -> str:
        return required_providers("broken") + f"""
resource "broken_leaky" "it" {{
  name     = "first"
  password = "{password}"
}}
"""

    # A validator's message quoting the value it refused.
    tofu.write(config(weak))
    result = tofu.run("plan", "-input=false", ok=(1,))
    assert "password *** is too weak" in squash(result.stderr), result.stderr
    # An error raised by create quoting what it was given.
    tofu.write(config(strong))
    result = tofu.run("apply", "-auto-approve", "-input=false", ok=(1,))
    line = marked_line(TEST_PROVIDERS_DIR / "broken" / "resource_leaky.lua", "leaky")
    assert_diagnostic_without_crash(result, "resource_leaky.lua", line,
                                    "login refused for password ***")
    for secret in (weak, strong):
        assert secret not in result.stdout + result.stderr
    # Nor anywhere in the CLI's trace log of the whole run (TF_LOG=trace).
    log = tofu.log.read_text(errors="replace")
    assert "broken_leaky" in log
    assert strong not in log and weak not in log


def test_syntax_error_in_a_script_is_a_diagnostic_with_script_and_line(make_tofu,
                                                                       test_provider):
    # The type of a script that does not load stands in the schema with no attributes, so the
    # CLI asks the provider to validate a configuration of it: the error says why.
    tofu = make_tofu({"badsyntax": test_provider("badsyntax")})
    tofu.write(required_providers("badsyntax") + """
resource "badsyntax_thing" "it" {}
""")

    result = tofu.run("plan", "-input=false", ok=(1,))

    line = marked_line(TEST_PROVIDERS_DIR / "badsyntax" / "resource_thing.lua", "syntax")
    assert_diagnostic_without_crash(result, "resource_thing.lua", line, "near")
    assert "Cannot use badsyntax_thing: its script does not load" in squash(result.stderr)


def test_declaring_id_is_an_error_naming_the_script(make_tofu, test_provider):
    tofu = make_tofu({"badsyntax": test_provider("badsyntax")})
    tofu.write(required_providers("badsyntax") + """
resource "badsyntax_claims_id" "it" {}
""")

    result = tofu.run("plan", "-input=false", ok=(1,))

    assert ('resource_claims_id.lua: tf.resource: attribute "id" is reserved'
            in squash(result.stderr))


def test_a_script_that_does_not_load_leaves_out_its_type_only(make_tofu, test_provider):
    tofu = make_tofu({"partial": test_provider("partial")})
    line = marked_line(TEST_PROVIDERS_DIR / "partial" / "resource_typo.lua", "typo")
    tofu.write(required_providers("partial") + """
resource "partial_good" "it" {
  name = "works"
}
""")
    # The other type works; the CLI shows why the broken one is left out.
    applied = tofu.run("apply", "-auto-approve", "-input=false")
    assert resources(tofu.state())["partial_good.it"]["values"]["id"] == "works"
    shown = squash(applied.stdout + applied.stderr)
    # Told once per command, though the CLI starts a provider process per graph walk (OpenTofu
    # showed it twice in an apply, and a provider with more walks five times).
    assert shown.count("Warning: Cannot load resource_typo.lua: partial_typo is left out") == 1, \
        shown
    assert f"resource_typo.lua:{line}:" in shown, shown
    # A declaration the schema's rules refuse after the script ran leaves out its type too, at
    # the attribute's line (it failed every plan of every type: "Failed to load plugin schemas").
    weight = marked_line(TEST_PROVIDERS_DIR / "partial" / "resource_pool.lua", "weight")
    assert "Warning: Cannot use resource partial_pool: it is left out" in shown, shown
    assert (f'resource_pool.lua:{weight}: resource partial_pool.member: attribute "weight" '
            "cannot have requires_replace_if") in shown, shown

    # A configuration that uses the broken type fails. With arguments the CLI refuses them
    # itself (the stand-in has none) before asking the provider, with its own error.
    tofu.write(required_providers("partial") + """
resource "partial_typo" "it" {
  name = "broken"
}
""")
    result = tofu.run("plan", "-input=false", ok=(1,))
    output = squash(result.stdout + result.stderr)
    assert "Error: Unsupported argument" in output, output
    # Without arguments the provider is asked, and says why, with the script's line.
    tofu.write(required_providers("partial") + """
resource "partial_typo" "it" {}
""")
    result = tofu.run("plan", "-input=false", ok=(1,))
    output = squash(result.stdout + result.stderr)
    assert "Cannot use partial_typo: its script does not load" in output, output
    assert f"resource_typo.lua:{line}:" in output, output


def test_the_summary_is_the_scripts_message_and_the_detail_says_where(make_tofu, test_provider):
    # What the CLI's machine-readable output carries, field by field: users read the words,
    # authors find the helper module's line and the line that raised the error again.
    tofu = make_tofu({"broken": test_provider("broken")})
    tofu.write(required_providers("broken") + """
resource "broken_helper" "it" {
  name = "web 1"
}
""")

    result = tofu.run("apply", "-auto-approve", "-input=false", "-json", ok=(1,))

    events = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    errors = [e["diagnostic"] for e in events
              if e.get("type") == "diagnostic" and e["diagnostic"]["severity"] == "error"]
    assert len(errors) == 1, result.stdout
    helper = marked_line(TEST_PROVIDERS_DIR / "broken" / "lib" / "names.lua", "helper")
    rethrow = marked_line(TEST_PROVIDERS_DIR / "broken" / "resource_helper.lua", "rethrow")
    assert errors[0]["summary"] == 'Validation failed: the name "web 1" has a space'
    assert errors[0]["detail"] == (f"broken_helper: create failed at lib/names.lua:{helper} "
                                   f"(raised again at resource_helper.lua:{rethrow}).")
    assert resources(tofu.state()) == {}
