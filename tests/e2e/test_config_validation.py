"""Configuration checks with the real CLI: validate functions, conflicts_with, required_with,
exactly_one_of, deprecated and removed arguments and block counts, each reported by
`validate -json` at the line of the offending argument in main.tf; the same for the provider's
own arguments, whose defaults may come from the environment."""
import pytest

from support.harness import parse_json, required_providers, resources

HEADER = required_providers("checks")


def database(body: str) -> str:
    return HEADER + f"""
resource "checks_database" "db" {{
  name = "orders"
{body}
}}
"""


def diagnostics(tofu) -> list[dict]:
    """`validate -json`'s diagnostics, less the CLI's own note about dev_overrides."""
    result = tofu.run("validate", "-json", ok=(0, 1))
    return [d for d in parse_json(result.stdout)["diagnostics"]
            if "development overrides" not in d["summary"]]


def line_of(tofu, text: str) -> int:
    for number, line in enumerate((tofu.workdir / "main.tf").read_text().splitlines(), 1):
        if text in line:
            return number
    raise AssertionError(f"{text!r} not in main.tf")


@pytest.mark.parametrize("body, summary, detail, line", [
    ('  engine = "postgres"\n  port = 80',
     "expected port to be between 1024 and 65535, got 80", "", "port = 80"),
    ('  engine = "oracle"',
     'expected engine to be one of "postgres", "mysql", got "oracle"', "", 'engine = "oracle"'),
    ('  engine = "mysql"\n  replica {\n    zone = "us-east-1"\n  }',
     "replica.0.zone: must be in eu-", "", 'zone = "us-east-1"'),
    ('  snapshot = "s1"\n  backup_window = "02:00"',
     "Conflicting configuration arguments", '"backup_window": conflicts with snapshot',
     'backup_window = "02:00"'),
    ('  engine = "mysql"\n  snapshot = "s1"',
     "Invalid combination of arguments",
     'only one of "engine", "snapshot" can be specified, but 2 were', 'engine = "mysql"'),
    ('  engine = "mysql"\n  user = "admin"',
     "Missing required argument", '"user": all of "user", "password" must be specified',
     'user = "admin"'),
    ('  engine = "mysql"\n  legacy = true',
     'Argument "legacy" has been removed', "legacy was removed in 2.0: delete the line",
     "legacy = true"),
], ids=["between", "one_of", "nested", "conflicts_with", "exactly_one_of", "required_with",
        "removed"])
def test_a_failed_check_is_an_error_at_the_argument(checks, body, summary, detail, line):
    checks.write(database(body))

    found = [d for d in diagnostics(checks) if d["severity"] == "error"]

    assert len(found) == 1, found
    assert found[0]["summary"] == summary
    assert found[0]["detail"] == detail
    assert found[0]["range"]["filename"] == "main.tf"
    assert found[0]["range"]["start"]["line"] == line_of(checks, line)


def test_none_of_an_exactly_one_of_group_is_an_error(checks):
    checks.write(database(""))

    found = diagnostics(checks)

    assert [d["detail"] for d in found] == [
        'exactly one of "engine", "snapshot" must be specified']


def test_too_many_blocks_is_an_error(checks):
    zones = "".join(f'  replica {{\n    zone = "eu-{i}"\n  }}\n' for i in range(3))
    checks.write(database('  engine = "mysql"\n' + zones))

    found = diagnostics(checks)

    # The CLI counts static blocks itself; the provider's own count catches dynamic ones.
    assert len(found) == 1 and found[0]["severity"] == "error", found
    assert "Too many replica blocks" in found[0]["summary"]


def test_a_valid_configuration_applies_with_a_deprecation_warning(checks):
    checks.write(database('  engine = "postgres"\n  size = 10\n  user = "a"\n  password = "b"'))

    found = diagnostics(checks)
    assert [(d["severity"], d["summary"], d["detail"]) for d in found] == [
        ("warning", "Argument is deprecated", "size is ignored; storage grows by itself")]

    checks.apply()
    assert (checks.workdir / "db-orders.txt").read_text() == "postgres  5432\n"
    assert checks.plan_exit_code() == 0


def test_values_unknown_at_plan_time_are_checked_once_known(checks):
    checks.write(HEADER + """
resource "checks_token" "t" {}

resource "checks_database" "db" {
  name   = "orders"
  engine = "mysql"
  port   = checks_token.t.port
}
""")
    checks.apply()

    values = resources(checks.state())["checks_database.db"]["values"]
    assert values["port"] == 6000
    assert checks.plan_exit_code() == 0


@pytest.mark.parametrize("arguments, summary, detail, line", [
    ('  region = "Mars"', "region: must look like eu-1", "", 'region = "Mars"'),
    ('  token = "t"\n  token_file = "f"', "Conflicting configuration arguments",
     '"token": conflicts with token_file', 'token = "t"'),
], ids=["validate", "conflicts_with"])
def test_the_provider_configuration_is_checked_at_its_argument(checks, arguments, summary,
                                                               detail, line):
    checks.write(database('  engine = "mysql"') + f'\nprovider "checks" {{\n{arguments}\n}}\n')

    found = [d for d in diagnostics(checks) if d["severity"] == "error"]

    assert len(found) == 1, found
    assert (found[0]["summary"], found[0]["detail"]) == (summary, detail)
    assert found[0]["range"]["start"]["line"] == line_of(checks, line)


@pytest.mark.parametrize("environment, region", [(None, "eu-1"), ("us-2", "us-2")],
                         ids=["fallback", "environment"])
def test_a_provider_default_comes_from_the_environment_and_reaches_resources(
        checks, monkeypatch, environment, region):
    if environment:
        monkeypatch.setenv("CHECKS_REGION", environment)
    else:
        monkeypatch.delenv("CHECKS_REGION", raising=False)
    checks.write(database('  engine = "mysql"'))
    checks.apply()
    assert resources(checks.state())["checks_database.db"]["values"]["region"] == region
