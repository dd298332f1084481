"""schema_version and upgrade functions with the real CLI: a state written by an older script
is upgraded when the newer script reads it, and a failing upgrade loses nothing."""
from support.evolve_config import install, stored_instance
from support.harness import resources, squash


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
