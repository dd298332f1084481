"""localfs permissions and directories with the real CLI: a file's mode is set exactly whatever
the umask, directories above it are created with their own mode, a mode changed outside shows
as drift; localfs_directory creates, corrects, imports and removes a directory, and refuses to
delete one that is not empty, keeping it in state."""
import os
import stat

import pytest

from support.harness import planned_actions, required_providers, resources, squash


def mode_of(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def strict_umask():
    """The CLI, and so the provider, start with umask 077: modes must not depend on it."""
    old = os.umask(0o077)
    yield
    os.umask(old)


KEY_FILE = required_providers("localfs") + """
resource "localfs_file" "key" {
  path                 = "keys/service/api.key"
  content              = "secret\\n"
  file_permission      = "0640"
  directory_permission = "0750"
}
"""


def test_a_file_gets_its_mode_and_new_directories_theirs(tofu, strict_umask):
    tofu.write(KEY_FILE)
    tofu.apply()

    key = tofu.workdir / "keys/service/api.key"
    assert key.read_text() == "secret\n"
    assert mode_of(key) == 0o640
    assert mode_of(tofu.workdir / "keys") == 0o750
    assert mode_of(tofu.workdir / "keys/service") == 0o750
    values = resources(tofu.state())["localfs_file.key"]["values"]
    assert values["file_permission"] == "0640"
    assert tofu.plan_exit_code() == 0


def test_a_mode_changed_outside_is_drift_that_apply_corrects(tofu):
    tofu.write(KEY_FILE)
    tofu.apply()
    key = tofu.workdir / "keys/service/api.key"
    key.chmod(0o666)

    code, plan = tofu.plan()
    assert code == 2 and planned_actions(plan) == {"localfs_file.key": ["update"]}
    tofu.apply()
    assert mode_of(key) == 0o640
    assert tofu.plan_exit_code() == 0


def test_a_mode_that_is_not_octal_is_refused_at_the_attribute(tofu):
    tofu.write(KEY_FILE.replace('"0640"', '"rw-r-----"'))

    result = tofu.run("plan", "-input=false", ok=(1,))

    stderr = squash(result.stderr)
    assert '"rw-r-----" is not a file mode such as "0644" or "0755"' in stderr
    assert "file_permission" in stderr
    assert not (tofu.workdir / "keys").exists()


DIRECTORY = required_providers("localfs") + """
resource "localfs_directory" "reports" {
  path       = "reports/2026"
  permission = "0750"
}
"""


def test_a_directory_is_created_corrected_and_removed(tofu, strict_umask):
    tofu.write(DIRECTORY)
    tofu.apply()
    reports = tofu.workdir / "reports/2026"
    assert reports.is_dir() and mode_of(reports) == 0o750
    assert mode_of(tofu.workdir / "reports") == 0o750
    assert tofu.plan_exit_code() == 0

    # Changed outside: drift, corrected in place. Removed outside: created again.
    reports.chmod(0o777)
    code, plan = tofu.plan()
    assert planned_actions(plan) == {"localfs_directory.reports": ["update"]}
    tofu.apply()
    assert mode_of(reports) == 0o750
    reports.rmdir()
    code, plan = tofu.plan()
    assert planned_actions(plan) == {"localfs_directory.reports": ["create"]}
    tofu.apply()
    assert reports.is_dir()

    tofu.destroy()
    assert not reports.exists()
    assert (tofu.workdir / "reports").is_dir()  # a parent it created is not its to remove


def test_a_directory_that_is_not_empty_is_not_deleted_and_stays_in_state(tofu):
    tofu.write(DIRECTORY)
    tofu.apply()
    (tofu.workdir / "reports/2026/q1.csv").write_text("a,b\n")

    result = tofu.run("destroy", "-auto-approve", "-input=false", ok=(1,))

    assert "Directory not empty" in squash(result.stderr)
    assert "reports/2026" in squash(result.stderr)
    assert (tofu.workdir / "reports/2026/q1.csv").read_text() == "a,b\n"
    assert "localfs_directory.reports" in resources(tofu.state())


def test_an_existing_directory_is_imported_by_path_or_identity(tofu):
    existing = tofu.workdir / "reports/2026"
    existing.mkdir(parents=True)
    existing.chmod(0o750)
    tofu.write(DIRECTORY + """
import {
  to       = localfs_directory.reports
  identity = { path = "reports/2026" }
}
""")
    tofu.apply()
    values = resources(tofu.state())["localfs_directory.reports"]["values"]
    assert values == {"id": "reports/2026", "path": "reports/2026", "permission": "0750"}
    assert tofu.plan_exit_code() == 0

    tofu.write(DIRECTORY)
    tofu.run("state", "rm", "localfs_directory.reports")
    tofu.run("import", "-input=false", "localfs_directory.reports", "reports/2026")
    assert resources(tofu.state())["localfs_directory.reports"]["values"] == values
