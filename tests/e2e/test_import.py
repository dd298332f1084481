"""`tofu import`: localfs_file by id (the id is the path and read fills in the rest), and a
resource whose own import function reads a composite id."""
import hashlib

from support.harness import faults_pair, hcl_string, required_providers, resources, squash

CONTENT = "already here\n"


def config(content: str = CONTENT) -> str:
    return required_providers("localfs") + f"""
resource "localfs_file" "existing" {{
  path    = "existing.txt"
  content = {hcl_string(content)}
}}
"""


def test_import_of_an_existing_file_reads_its_content_into_state(tofu):
    tofu.write(config())
    (tofu.workdir / "existing.txt").write_text(CONTENT)

    tofu.run("import", "-input=false", "localfs_file.existing", "existing.txt")

    values = resources(tofu.state())["localfs_file.existing"]["values"]
    assert values["id"] == "existing.txt"
    assert values["path"] == "existing.txt"
    assert values["content"] == CONTENT
    assert values["sha256"] == hashlib.sha256(CONTENT.encode()).hexdigest()
    assert values["size"] == len(CONTENT)
    # The configuration matches the file, so the imported object needs no change.
    assert tofu.plan_exit_code() == 0


def test_import_then_apply_converges_to_the_configured_content(tofu):
    tofu.write(config("wanted\n"))
    (tofu.workdir / "existing.txt").write_text(CONTENT)

    tofu.run("import", "-input=false", "localfs_file.existing", "existing.txt")
    assert tofu.plan_exit_code() == 2
    tofu.apply()

    assert (tofu.workdir / "existing.txt").read_text() == "wanted\n"
    assert tofu.plan_exit_code() == 0


def test_import_of_a_missing_file_fails_without_touching_state(tofu):
    tofu.write(config())

    result = tofu.run("import", "-input=false", "localfs_file.existing", "missing.txt",
                      ok=(1,))

    assert "non-existent" in squash(result.stderr)
    assert resources(tofu.state()) == {}


def test_an_import_function_reads_a_composite_id(faults):
    faults.write(faults_pair("a", "b"))
    (faults.workdir / "pair-p-first.txt").write_text("a")
    (faults.workdir / "pair-p-second.txt").write_text("b")

    faults.run("import", "-input=false", "faults_pair.it", "pair/p")

    values = resources(faults.state())["faults_pair.it"]["values"]
    assert values == {"id": "p", "name": "p", "first": "a", "second": "b"}
    assert faults.plan_exit_code() == 0


def test_an_import_function_that_rejects_the_id_imports_nothing(faults):
    faults.write(faults_pair("a", "b"))
    result = faults.run("import", "-input=false", "faults_pair.it", "p", ok=(1,))
    assert "expected an import id of the form pair/NAME, got p" in squash(result.stderr)
    assert "resource_pair.lua:" in squash(result.stderr)
    assert not (faults.workdir / "terraform.tfstate").exists() or \
        "faults_pair" not in (faults.workdir / "terraform.tfstate").read_text()
