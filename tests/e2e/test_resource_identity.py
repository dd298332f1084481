"""Resource identity with the real CLI: localfs_file's identity (its path) is stored next to its
state and an import block may give it instead of an id; through tests/e2e/providers/evolve, an
object stored before its resource had an identity gets one on refresh, a stored identity of an
older identity version goes through identity.upgrade, and an update that would change an
identity is an error naming the attribute."""
import hashlib
import json

from support.evolve_config import CONFIG as EVOLVE_CONFIG, install, stored_instance
from support.harness import required_providers, resources, squash

CONTENT = "already here\n"

FILE = required_providers("localfs") + """
resource "localfs_file" "f" {
  path    = "named.txt"
  content = "hello\\n"
}
"""

IMPORT_BY_IDENTITY = required_providers("localfs") + """
import {
  to = localfs_file.existing
  identity = {
    path = "existing.txt"
  }
}

resource "localfs_file" "existing" {
  path    = "existing.txt"
  content = "already here\\n"
}
"""

SECOND_NOTE = """
resource "evolve_note" "m" {
  name = "other"
  text = "hello"
}
"""


def stored_instances(tofu) -> dict[str, dict]:
    state = json.loads((tofu.workdir / "terraform.tfstate").read_text())
    return {f"{r['type']}.{r['name']}": r["instances"][0] for r in state["resources"]}


def test_a_created_object_is_stored_with_its_identity(tofu):
    tofu.write(FILE)
    tofu.apply()

    instance = stored_instances(tofu)["localfs_file.f"]
    assert instance["identity"] == {"path": "named.txt"}
    assert instance["identity_schema_version"] == 0
    # Refreshing and updating keep it.
    tofu.write(FILE.replace("hello", "changed"))
    tofu.apply()
    assert stored_instances(tofu)["localfs_file.f"]["identity"] == {"path": "named.txt"}


def test_an_import_block_may_name_the_object_by_its_identity(tofu):
    (tofu.workdir / "existing.txt").write_text(CONTENT)
    (tofu.workdir / "existing.txt").chmod(0o644)
    tofu.write(IMPORT_BY_IDENTITY)

    result = tofu.apply()

    assert "1 imported, 0 added, 0 changed, 0 destroyed" in squash(result.stdout)
    values = resources(tofu.state())["localfs_file.existing"]["values"]
    assert values == {"id": "existing.txt", "path": "existing.txt", "content": CONTENT,
                      "sha256": hashlib.sha256(CONTENT.encode()).hexdigest(),
                      "size": len(CONTENT), "file_permission": "0644",
                      "directory_permission": "0755", "content_base64": None,
                      "sensitive_content": None, "source": None}
    assert stored_instances(tofu)["localfs_file.existing"]["identity"] == {"path": "existing.txt"}
    assert tofu.plan_exit_code() == 0


def test_an_import_by_identity_of_a_missing_object_imports_nothing(tofu):
    tofu.write(IMPORT_BY_IDENTITY)

    result = tofu.run("apply", "-auto-approve", "-input=false", ok=(1,))

    assert "Cannot import non-existent remote object" in squash(result.stderr)
    assert not (tofu.workdir / "existing.txt").exists()
    assert not (tofu.workdir / "terraform.tfstate").exists() or \
        resources(tofu.state()) == {}


def test_an_object_stored_without_an_identity_gets_one_on_refresh(evolve):
    assert "identity" not in stored_instance(evolve)
    install(evolve, "identity_v0")

    evolve.run("apply", "-refresh-only", "-auto-approve", "-input=false")

    instance = stored_instance(evolve)
    assert instance["identity"] == {"name": "todo"}
    assert instance["identity_schema_version"] == 0
    assert evolve.plan_exit_code() == 0


def test_a_stored_identity_of_an_older_version_is_upgraded(evolve):
    install(evolve, "identity_v0")
    evolve.apply()
    install(evolve, "identity_v1")

    assert evolve.plan_exit_code() == 0
    evolve.apply()

    instance = stored_instance(evolve)
    assert instance["identity"] == {"note": "todo"}
    assert instance["identity_schema_version"] == 1
    assert instance["attributes"]["text"] == "hello"

    # No attribute is called note: the script sets it with d:set_identity on create too.
    evolve.write(EVOLVE_CONFIG + SECOND_NOTE)
    evolve.apply()
    assert stored_instances(evolve)["evolve_note.m"]["identity"] == {"note": "other"}


def test_an_update_that_would_change_the_identity_is_an_error_naming_it(evolve):
    install(evolve, "identity_from_text")
    evolve.apply()
    assert stored_instance(evolve)["identity"] == {"text": "hello"}

    evolve.write(EVOLVE_CONFIG.replace('"hello"', '"bye"'))
    result = evolve.run("apply", "-auto-approve", "-input=false", ok=(1,))

    stderr = squash(result.stderr)
    assert 'evolve_note: update changed identity attribute "text"' in stderr
    assert "force_new" in stderr
