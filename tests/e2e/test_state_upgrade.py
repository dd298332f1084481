"""schema_version and upgrade functions with the real CLI: a state written by an older script
is upgraded when the newer script reads it, and a failing upgrade loses nothing."""
import json
import shutil

import pytest

from harness import required_providers, resources, squash

CONFIG = required_providers("evolve") + """
resource "evolve_note" "n" {
  name = "todo"
  text = "hello"
}
"""


@pytest.fixture
def evolve(make_tofu, test_provider):
    provider = test_provider("evolve")
    tofu = make_tofu({"evolve": provider})
    tofu.write(CONFIG)
    tofu.apply()
    tofu.provider_dir = provider
    return tofu


def install(tofu, version: str) -> None:
    shutil.copy(tofu.provider_dir / "versions" / f"{version}.lua",
                tofu.provider_dir / "resource_note.lua")


def stored_instance(tofu) -> dict:
    state = json.loads((tofu.workdir / "terraform.tfstate").read_text())
    return state["resources"][0]["instances"][0]


def test_a_newer_script_upgrades_the_stored_state_without_a_diff(evolve):
    assert stored_instance(evolve)["schema_version"] == 0
    assert stored_instance(evolve)["attributes"]["size"] == "5"
    install(evolve, "v1")

    assert evolve.plan_exit_code() == 0
    evolve.apply()

    instance = stored_instance(evolve)
    assert instance["schema_version"] == 1
    assert instance["attributes"]["length"] == 5
    assert "size" not in instance["attributes"]
    assert resources(evolve.state())["evolve_note.n"]["values"]["length"] == 5


def test_a_failing_upgrade_is_an_error_and_leaves_the_state_file_alone(evolve):
    before = (evolve.workdir / "terraform.tfstate").read_bytes()
    install(evolve, "v1_broken")

    result = evolve.run("plan", "-input=false", ok=(1,))

    stderr = squash(result.stderr)
    assert "cannot upgrade note todo" in stderr
    assert "resource_note.lua:" in stderr
    assert (evolve.workdir / "terraform.tfstate").read_bytes() == before
