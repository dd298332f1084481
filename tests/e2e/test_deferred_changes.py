"""Deferred changes (Terraform 1.9 onwards behind `-allow-deferral`, here Terraform 1.16 built
with experiments, tests/e2e/providers/hangar): a provider configured from a value not known yet,
a resource whose for_each is not known yet, and a script that waits for something it needs
(d:defer) are planned in a later run instead of failing; a script that asks where the CLI does
not allow it is told so, on every CLI. The servers write their port blocks, which protocol 5
cannot leave to the provider (test_protocol_6_11.py)."""
import json

import pytest

from support.harness import required_providers

WITH_DEFERRALS = ("terraform116:6", "terraform116:5")

SITE = """
resource "terraform_data" "site" {
  input = "north"
}
"""


def deferred(tofu, *args: str) -> dict[str, str]:
    """Plans with deferrals allowed: each deferred change's address and reason."""
    tofu.run("plan", "-input=false", "-allow-deferral", "-out=tfplan", *args)
    plan = json.loads(tofu.run("show", "-json", "tfplan").stdout)
    return {c["resource_change"]["address"]: c["reason"] for c in plan.get("deferred_changes", [])}


def applied(tofu) -> list[str]:
    tofu.run("apply", "-input=false", "-auto-approve", "-allow-deferral")
    return sorted(tofu.run("state", "list").stdout.split())


@pytest.mark.only_pairs(*WITH_DEFERRALS)
def test_a_provider_configured_from_a_value_not_known_yet_waits_for_it(make_tofu,
                                                                      test_provider):
    tofu = make_tofu({"hangar": test_provider("hangar")})
    tofu.write(required_providers("hangar") + SITE + """
provider "hangar" {
  site = terraform_data.site.output
}

resource "hangar_server" "s" {
  name = "web"
  port {
    number = 80
  }
}
""")
    assert deferred(tofu) == {"hangar_server.s": "provider_config_unknown"}
    assert applied(tofu) == ["terraform_data.site"]
    # The next run knows the site: the server is planned and created.
    assert deferred(tofu) == {}
    assert applied(tofu) == ["hangar_server.s", "terraform_data.site"]
    assert tofu.plan_exit_code() == 0


@pytest.mark.only_pairs(*WITH_DEFERRALS)
def test_a_for_each_not_known_yet_is_planned_in_a_later_run(make_tofu, test_provider):
    tofu = make_tofu({"hangar": test_provider("hangar")})
    tofu.write(required_providers("hangar") + SITE + """
resource "hangar_server" "each" {
  for_each = toset([terraform_data.site.output])
  name     = each.key
  port {
    number = 80
  }
}
""")
    assert deferred(tofu) == {"hangar_server.each[*]": "instance_count_unknown"}
    assert applied(tofu) == ["terraform_data.site"]
    assert applied(tofu) == ['hangar_server.each["north"]', "terraform_data.site"]


@pytest.mark.only_pairs(*WITH_DEFERRALS)
def test_a_script_waits_for_what_it_needs_with_d_defer(make_tofu, test_provider):
    tofu = make_tofu({"hangar": test_provider("hangar")})
    tofu.write(required_providers("hangar") + """
resource "hangar_server" "first" {
  name = "first"
  port {
    number = 80
  }
}

resource "hangar_server" "later" {
  name  = "later"
  after = "ready.txt"
  port {
    number = 80
  }
}
""")
    # The plan of "later" waits (customize_diff's d:defer); the rest goes ahead.
    assert deferred(tofu) == {"hangar_server.later": "absent_prereq"}
    assert applied(tofu) == ["hangar_server.first"]
    (tofu.workdir / "ready.txt").write_text("ready\n")
    assert deferred(tofu) == {}
    assert applied(tofu) == ["hangar_server.first", "hangar_server.later"]

    # A read can wait too: the record marked pending keeps its stored state for now.
    record = tofu.workdir / "server-later.json"
    data = json.loads(record.read_text())
    record.write_text(json.dumps(dict(data, pending=True, name="renamed outside")))
    assert deferred(tofu) == {"hangar_server.later": "absent_prereq"}


def test_a_script_that_defers_where_the_cli_does_not_allow_it_is_told(make_tofu, test_provider):
    tofu = make_tofu({"hangar": test_provider("hangar")})
    tofu.write(required_providers("hangar") + """
resource "hangar_server" "later" {
  name  = "later"
  after = "ready.txt"
  port {
    number = 80
  }
}
""")
    refused = tofu.run("plan", "-input=false", ok=(1,))
    assert "This run does not allow deferred changes" in refused.stderr
    assert "-allow-deferral" in refused.stderr
    assert 'resource "hangar_server" "later"' in refused.stderr
