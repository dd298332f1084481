"""`tofu import` of localfs_file: the id is the path and read fills in the rest."""
import hashlib

from harness import hcl_string, required_providers, resources, squash

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
