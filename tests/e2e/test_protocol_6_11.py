"""Terraform 1.16's protocol 6.11 (tests/e2e/providers/hangar): a computed block the provider
fills in when the configuration writes none, kept after; a value chosen at plan time, kept in
private data that the CLI hands back to the plan it makes again at apply. OpenTofu, Terraform
1.15 and protocol 5 cannot plan a computed block: a plan that needs one is refused naming it,
and a configuration that writes the block works there as with any block."""
import json

import pytest

from support.harness import required_providers, resources

PROTOCOL_6_11 = "terraform116:6"


def config(name: str = "web", ports: str = "") -> str:
    return required_providers("hangar") + f"""
resource "hangar_server" "s" {{
  name = "{name}"
{ports}
}}
"""


def server(tofu) -> dict:
    return resources(tofu.state())["hangar_server.s"]["values"]


def record(tofu) -> dict:
    return json.loads((tofu.workdir / f"server-{server(tofu)['id']}.json").read_text())


def plans_computed_blocks(tofu) -> bool:
    return tofu.protocol == 6 and "1.16" in tofu.run("version").stdout


PORT_8080 = """  port {
    number = 8080
  }"""


def test_a_computed_block_left_out_is_filled_in_and_kept(make_tofu, test_provider):
    tofu = make_tofu({"hangar": test_provider("hangar")})
    tofu.write(config())
    if not plans_computed_blocks(tofu):
        refused = tofu.run("plan", "-input=false", ok=(1,))
        assert 'hangar_server: block "port" is computed, which this CLI cannot plan' in \
            refused.stderr
        assert "Terraform 1.16" in refused.stderr
        # Written out, the block is planned as any block is.
        tofu.write(config(ports=PORT_8080))
        tofu.apply()
        assert [p["number"] for p in server(tofu)["port"]] == [8080]
        assert tofu.plan_exit_code() == 0
        tofu.destroy()
        return

    # None written: the API's port 22 is in state, with what the API chose inside it.
    tofu.apply()
    assert server(tofu)["port"] == [{"number": 22, "protocol": "tcp", "state": "open"}]
    assert tofu.plan_exit_code() == 0
    # An update elsewhere keeps the blocks.
    tofu.write(config(name="api"))
    tofu.apply()
    assert server(tofu)["port"] == [{"number": 22, "protocol": "tcp", "state": "open"}]
    assert tofu.plan_exit_code() == 0
    # Written, the configuration's blocks win; left out again, the stored ones are kept.
    tofu.write(config(name="api", ports=PORT_8080))
    tofu.apply()
    assert record(tofu)["ports"] == [{"number": 8080, "protocol": "tcp"}]
    tofu.write(config(name="api"))
    assert tofu.plan_exit_code() == 0
    # A port opened outside is drift the plan shows only where the configuration writes ports.
    data = record(tofu)
    data["ports"].append({"number": 443, "protocol": "tcp"})
    (tofu.workdir / f"server-{server(tofu)['id']}.json").write_text(json.dumps(data))
    assert tofu.plan_exit_code() == 0
    tofu.apply()
    assert [p["number"] for p in server(tofu)["port"]] == [8080, 443]
    tofu.destroy()


@pytest.mark.only_pairs(PROTOCOL_6_11)
def test_a_value_chosen_at_plan_time_is_chosen_again_at_apply(make_tofu, test_provider):
    tofu = make_tofu({"hangar": test_provider("hangar")})
    tofu.write(config(ports=PORT_8080))
    plan = tofu.run("plan", "-input=false", "-out=tfplan")
    planned_host = json.loads(tofu.run("show", "-json", "tfplan").stdout)[
        "resource_changes"][0]["change"]["after"]["host"]
    assert planned_host.startswith("web-") and planned_host in plan.stdout
    # The plan made again at apply chooses the same suffix: no "inconsistent final plan".
    tofu.run("apply", "-input=false", "tfplan")
    assert server(tofu)["host"] == planned_host
    assert tofu.plan_exit_code() == 0
    tofu.destroy()
