"""The localfs_file resource through its whole life with the real CLI: create, no-op plan,
drift in both directions, in-place update, replacement, destroy."""
import hashlib

from support.harness import (hcl_string, planned_actions, planned_change, required_providers,
                     resources)

GREETING = "hello from lua\n"
NOTES = "line one\nline two\n"


def two_files(greeting_path: str = "greeting.txt", greeting: str = GREETING) -> str:
    return required_providers("localfs") + f"""
resource "localfs_file" "greeting" {{
  path    = "{greeting_path}"
  content = {hcl_string(greeting)}
}}

resource "localfs_file" "notes" {{
  path    = "notes.txt"
  content = {hcl_string(NOTES)}
}}

output "greeting_sha256" {{
  value = localfs_file.greeting.sha256
}}
"""


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_apply_writes_the_files_and_records_their_digest(tofu):
    tofu.write(two_files())
    tofu.apply()

    assert (tofu.workdir / "greeting.txt").read_text() == GREETING
    assert (tofu.workdir / "notes.txt").read_text() == NOTES
    state = resources(tofu.state())
    greeting = state["localfs_file.greeting"]["values"]
    assert greeting["id"] == "greeting.txt"
    assert greeting["content"] == GREETING
    assert greeting["sha256"] == sha256(GREETING)
    assert greeting["size"] == len(GREETING.encode())
    assert state["localfs_file.notes"]["values"]["sha256"] == sha256(NOTES)
    assert tofu.outputs()["greeting_sha256"] == sha256(GREETING)
    assert tofu.uses_protocol() == tofu.protocol


def test_plan_after_apply_has_no_changes(tofu):
    tofu.write(two_files())
    tofu.apply()

    assert tofu.plan_exit_code() == 0


def test_content_changed_outside_is_planned_back_and_repaired(tofu):
    tofu.write(two_files())
    tofu.apply()
    (tofu.workdir / "greeting.txt").write_text("edited by hand\n")

    code, plan = tofu.plan()
    assert code == 2
    assert planned_actions(plan) == {"localfs_file.greeting": ["update"]}
    change = planned_change(plan, "localfs_file.greeting")
    assert change["before"]["content"] == "edited by hand\n"
    assert change["after"]["content"] == GREETING

    tofu.apply()
    assert (tofu.workdir / "greeting.txt").read_text() == GREETING
    assert tofu.plan_exit_code() == 0


def test_file_deleted_outside_is_planned_for_creation(tofu):
    tofu.write(two_files())
    tofu.apply()
    (tofu.workdir / "notes.txt").unlink()

    code, plan = tofu.plan()
    assert code == 2
    assert planned_actions(plan) == {"localfs_file.notes": ["create"]}

    tofu.apply()
    assert (tofu.workdir / "notes.txt").read_text() == NOTES
    assert tofu.plan_exit_code() == 0


def test_changing_content_updates_in_place_with_the_new_digest_in_the_plan(tofu):
    tofu.write(two_files())
    tofu.apply()
    tofu.write(two_files(greeting="hello again\n"))

    code, plan = tofu.plan()
    assert code == 2
    assert planned_actions(plan) == {"localfs_file.greeting": ["update"]}
    change = planned_change(plan, "localfs_file.greeting")
    # Worked out from the configured content already in the plan, for other resources to use.
    assert change["after"]["sha256"] == sha256("hello again\n")
    assert change["after"]["size"] == len("hello again\n")

    tofu.apply()
    assert (tofu.workdir / "greeting.txt").read_text() == "hello again\n"
    values = resources(tofu.state())["localfs_file.greeting"]["values"]
    assert values["sha256"] == sha256("hello again\n")
    assert values["size"] == len("hello again\n")
    assert tofu.plan_exit_code() == 0


def test_changing_path_forces_replacement(tofu):
    tofu.write(two_files())
    tofu.apply()
    tofu.write(two_files(greeting_path="moved.txt"))

    code, plan = tofu.plan()
    assert code == 2
    actions = planned_actions(plan)
    assert sorted(actions["localfs_file.greeting"]) == ["create", "delete"]
    assert set(actions) == {"localfs_file.greeting"}
    replace_paths = planned_change(plan, "localfs_file.greeting").get("replace_paths")
    assert replace_paths == [["path"]]

    tofu.apply()
    assert not (tofu.workdir / "greeting.txt").exists()
    assert (tofu.workdir / "moved.txt").read_text() == GREETING
    assert resources(tofu.state())["localfs_file.greeting"]["values"]["id"] == "moved.txt"
    assert tofu.plan_exit_code() == 0


def test_destroy_removes_the_files_and_empties_the_state(tofu):
    tofu.write(two_files())
    tofu.apply()

    tofu.destroy()
    assert not (tofu.workdir / "greeting.txt").exists()
    assert not (tofu.workdir / "notes.txt").exists()
    assert resources(tofu.state()) == {}


def test_relative_paths_start_from_the_provider_root(tofu, tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    tofu.write(required_providers("localfs") + f"""
provider "localfs" {{
  root = "{root}"
}}

resource "localfs_file" "inside" {{
  path    = "inside.txt"
  content = "rooted"
}}
""")
    tofu.apply()
    assert (root / "inside.txt").read_text() == "rooted"
    assert not (tofu.workdir / "inside.txt").exists()
    assert tofu.plan_exit_code() == 0


def test_the_root_can_come_from_the_environment(tofu, tmp_path, monkeypatch):
    root = tmp_path / "from-env"
    root.mkdir()
    monkeypatch.setenv("LOCALFS_ROOT", str(root))
    tofu.write(required_providers("localfs") + """
resource "localfs_file" "inside" {
  path    = "inside.txt"
  content = "rooted by env"
}
""")
    tofu.apply()
    assert (root / "inside.txt").read_text() == "rooted by env"
    assert not (tofu.workdir / "inside.txt").exists()
    assert tofu.plan_exit_code() == 0
