"""diff_suppress and state_func with the real CLI (tests/e2e/providers/normal): an API that
stores values in its own spelling causes no diff, neither does a configuration respelt the same
way, and real changes still show."""
from support.harness import planned_actions, planned_change, required_providers, resources

POLICY = '{ "read": ["a", "b"], "write": 1 }'
RESPELT_POLICY = '{"write":1.0,"read":["a","b"]}'


def account(name="Web-01", policy=POLICY, key="ssh-ed25519 AAAA\\n", host="example.com.") -> str:
    return required_providers("normal") + f"""
resource "normal_account" "it" {{
  name   = "{name}"
  policy = <<-EOT
    {policy}
  EOT
  key    = "{key}"
  rule {{
    host = "{host}"
  }}
}}
"""


def record(normal) -> str:
    return (normal.workdir / "account-web-01.txt").read_text()


def test_the_api_spelling_is_no_change(normal):
    normal.write(account())
    normal.apply()
    # The API stored its own spelling ...
    assert record(normal) == ('name\tweb-01\npolicy\t{"read":["a","b"],"write":1}\n'
                              'key\tssh-ed25519 AAAA\nhost\texample.com\n')
    # ... while the state keeps the configured one, as the plan promised.
    values = resources(normal.state())["normal_account.it"]["values"]
    assert values["name"] == "Web-01"
    assert values["key"] == "ssh-ed25519 AAAA\n"
    assert values["rule"] == [{"host": "example.com."}]
    # Refresh reads the API's spelling back: still no change.
    assert normal.plan_exit_code() == 0


def test_a_configuration_respelt_the_same_way_is_no_change(normal):
    normal.write(account())
    normal.apply()
    normal.write(account(name="WEB-01", policy=RESPELT_POLICY, key="ssh-ed25519 AAAA",
                         host="example.com"))
    # name forces replacement, but "WEB-01" is the same name as "Web-01".
    assert normal.plan_exit_code() == 0


def test_respelling_outside_the_tool_is_no_drift_and_a_real_change_is(normal):
    normal.write(account())
    normal.apply()
    path = normal.workdir / "account-web-01.txt"
    path.write_text(record(normal).replace('{"read":["a","b"],"write":1}',
                                           '{"write": 1, "read": ["a", "b"]}'))
    assert normal.plan_exit_code() == 0

    path.write_text(record(normal).replace('{"write": 1, "read": ["a", "b"]}',
                                           '{"write": 2, "read": ["a", "b"]}'))
    code, plan = normal.plan()
    assert code == 2
    change = planned_change(plan, "normal_account.it")
    assert change["actions"] == ["update"]
    assert change["before"]["policy"] == '{"write": 2, "read": ["a", "b"]}'
    normal.apply()
    assert normal.plan_exit_code() == 0


def test_a_real_change_to_a_suppressed_attribute_still_replaces(normal):
    normal.write(account())
    normal.apply()
    normal.write(account(name="Web-02"))
    code, plan = normal.plan()
    assert code == 2
    assert planned_actions(plan) == {"normal_account.it": ["delete", "create"]}
    normal.apply()
    assert (normal.workdir / "account-web-02.txt").exists()
    assert not (normal.workdir / "account-web-01.txt").exists()
    assert normal.plan_exit_code() == 0
