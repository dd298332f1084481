"""Every hook of a script runs with the same secrets hidden: plan functions, requires_replace_if,
diff_suppress, customize_diff and validators, whose errors and log lines once showed the
resource's sensitive values and the provider configuration's in clear (tests/HARDENING.md).

tests/e2e/providers/tattler quotes its provider's token and its resource's password from every
hook: in errors, tf.log lines and print. The CLI's output and its trace log must show neither.
"""
import re

from support.harness import CRASH_MARKERS, required_providers, squash

TOKEN = "Tok-2f9a-provider-secret"


def config(password: str) -> str:
    return required_providers("tattler") + f"""
provider "tattler" {{
  token = "{TOKEN}"
}}

resource "tattler_secret" "it" {{
  name     = "first"
  password = "{password}"
}}
"""


def assert_hidden(result, tofu, secrets: list[str]) -> None:
    # The CLI quotes the configuration's own line under a diagnostic ("13:   password = ..."):
    # the user's text, not the provider's words.
    output = "\n".join(line for line in (result.stdout + result.stderr).splitlines()
                       if not re.match(r"^\s*│?\s*\d+:\s", line))
    log = tofu.log.read_text(errors="replace")
    for secret in [TOKEN, *secrets]:
        assert secret not in output, output
        assert secret not in log, f"{secret} in {tofu.log}"
    for marker in CRASH_MARKERS:
        assert marker not in output, output


def test_every_hook_hides_the_secrets_it_quotes(make_tofu, test_provider):
    tofu = make_tofu({"tattler": test_provider("tattler")})
    # "@" stays as it is in a URL path (tf.http.path), the space does not: a spelling of its own.
    first = "Pw@first 6612"
    tofu.write(config(first))
    applied = tofu.run("apply", "-auto-approve", "-input=false")
    assert_hidden(applied, tofu, [first, "Pw@first%206612", "Pw%40first%206612"])
    log = tofu.log.read_text(errors="replace")
    # The create logged the password as a field name and in a URL: both hidden, both spoke.
    assert "as a field name" in log, f"no field named by the password in {tofu.log}"
    assert "/tokens/***" in log, f"no hidden URL path in {tofu.log}"
    # A secret the create made is hidden in the line it logged just after setting it.
    serial = tofu.state()["values"]["root_module"]["resources"][0]["values"]["serial"]
    assert serial.startswith("serial-") and serial not in log, f"{serial} in {tofu.log}"
    assert "made serial ***" in log, f"no hidden serial in {tofu.log}"
    # The hooks did speak, with the secrets hidden: validate, plan and customize_diff at least.
    for hook in ("validate sees password ***", "plan sees password *** and token ***",
                 "customize sees password *** and token ***"):
        assert hook in log, f"no {hook!r} in {tofu.log}"

    # Each plan-time hook in turn refuses a new password, quoting it and the token.
    for hook, summary in (("suppress", 'Comparing values of "password" failed'), ("replace", "requires_replace_if"),
                          ("plan", "plan"), ("customize", "customize_diff")):
        password = f"Pw-{hook}-7731"
        tofu.write(config(password))
        result = tofu.run("plan", "-input=false", ok=(1,))
        stderr = squash(result.stderr)
        assert f"{hook} refused password ***" in stderr, result.stderr
        assert summary in stderr, result.stderr
        assert_hidden(result, tofu, [first, password])
