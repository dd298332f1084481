"""localfs_file's four ways of giving content, with the real CLI: text, base64 for bytes that
are not UTF-8, sensitive text kept out of the CLI's output, and a source file copied (and
copied again when it changes). The digest and size are known in the plan; exactly one form is
accepted; a file imported records text or base64 as its bytes allow."""
import base64
import hashlib

from support.harness import planned_actions, planned_change, required_providers, resources, squash

BINARY = bytes([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF, 0xFE, 0x0A])


def one_file(argument: str, value: str) -> str:
    return required_providers("localfs") + f"""
resource "localfs_file" "f" {{
  path = "out/f.bin"
  {argument} = {value}
}}

output "sha256" {{
  value = localfs_file.f.sha256
}}
"""


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_base64_content_writes_exact_bytes_and_notices_drift(tofu):
    encoded = base64.b64encode(BINARY).decode()
    tofu.write(one_file("content_base64", f'"{encoded}"'))

    code, plan = tofu.plan()
    assert code == 2
    after = planned_change(plan, "localfs_file.f")["after"]
    assert after["sha256"] == sha256(BINARY) and after["size"] == len(BINARY)
    tofu.apply()
    written = tofu.workdir / "out/f.bin"
    assert written.read_bytes() == BINARY
    values = resources(tofu.state())["localfs_file.f"]["values"]
    assert values["content_base64"] == encoded and values["content"] is None
    assert tofu.plan_exit_code() == 0

    written.write_bytes(b"\x00changed")
    code, plan = tofu.plan()
    assert planned_actions(plan) == {"localfs_file.f": ["update"]}
    change = planned_change(plan, "localfs_file.f")
    assert change["before"]["content_base64"] == base64.b64encode(b"\x00changed").decode()
    assert change["after"]["content_base64"] == encoded
    tofu.apply()
    assert written.read_bytes() == BINARY


def test_sensitive_content_is_written_but_never_shown(tofu):
    secret = "s3cr3t-value-4711"
    tofu.write(one_file("sensitive_content", f'"{secret}\\n"'))

    planned = tofu.run("plan", "-input=false")
    applied = tofu.apply()
    assert secret not in planned.stdout + planned.stderr + applied.stdout + applied.stderr
    assert "(sensitive value)" in squash(planned.stdout)
    assert (tofu.workdir / "out/f.bin").read_text() == secret + "\n"
    item = resources(tofu.state())["localfs_file.f"]
    assert item["sensitive_values"].get("sensitive_content") is True
    assert tofu.plan_exit_code() == 0

    (tofu.workdir / "out/f.bin").write_text("tampered\n")
    drift = tofu.run("plan", "-input=false", "-detailed-exitcode", ok=(2,))
    assert "tampered" not in drift.stdout and secret not in drift.stdout


def test_a_source_file_is_copied_and_copied_again_when_it_changes(tofu):
    source = tofu.workdir / "template.conf"
    source.write_bytes(b"port = 80\n")
    tofu.write(one_file("source", '"template.conf"'))

    tofu.apply()
    copy = tofu.workdir / "out/f.bin"
    assert copy.read_bytes() == b"port = 80\n"
    assert tofu.outputs()["sha256"] == sha256(b"port = 80\n")
    assert tofu.plan_exit_code() == 0

    source.write_bytes(b"port = 8080\n")
    code, plan = tofu.plan()
    assert planned_actions(plan) == {"localfs_file.f": ["update"]}
    # The source may change again before the apply copies it: its digest is not promised.
    assert planned_change(plan, "localfs_file.f")["after_unknown"].get("sha256") is True
    tofu.apply()
    assert copy.read_bytes() == b"port = 8080\n"
    assert tofu.outputs()["sha256"] == sha256(b"port = 8080\n")

    copy.write_bytes(b"edited by hand\n")  # drift of the copy: the digest read back differs
    code, plan = tofu.plan()
    assert planned_actions(plan) == {"localfs_file.f": ["update"]}
    tofu.apply()
    assert copy.read_bytes() == b"port = 8080\n"
    assert tofu.plan_exit_code() == 0


def test_the_apply_copies_what_the_source_holds_when_it_runs(tofu):
    source = tofu.workdir / "template.conf"
    source.write_bytes(b"v1\n")
    tofu.write(one_file("source", '"template.conf"'))
    tofu.apply()
    source.write_bytes(b"v2\n")
    tofu.plan()
    source.write_bytes(b"v3\n")

    tofu.run("apply", "-input=false", "tfplan")
    assert (tofu.workdir / "out/f.bin").read_bytes() == b"v3\n"
    values = resources(tofu.state())["localfs_file.f"]["values"]
    assert values["sha256"] == sha256(b"v3\n") and values["size"] == 3
    assert tofu.plan_exit_code() == 0


def test_a_missing_source_fails_the_apply_naming_it(tofu):
    tofu.write(one_file("source", '"nowhere.conf"'))
    result = tofu.run("apply", "-auto-approve", "-input=false", ok=(1,))
    assert "the source file" in squash(result.stderr)
    assert "nowhere.conf does not exist" in squash(result.stderr)
    assert not (tofu.workdir / "out/f.bin").exists()
    assert "localfs_file.f" not in resources(tofu.state())


def test_switching_forms_keeps_the_file_and_records_the_new_form(tofu):
    tofu.write(one_file("content", '"same\\n"'))
    tofu.apply()
    tofu.write(one_file("content_base64", '"c2FtZQo="'))  # base64 of "same\n"

    code, plan = tofu.plan()
    assert planned_actions(plan) == {"localfs_file.f": ["update"]}
    assert "sha256" not in planned_change(plan, "localfs_file.f")["after_unknown"]
    tofu.apply()
    values = resources(tofu.state())["localfs_file.f"]["values"]
    assert values["content"] is None and values["content_base64"] == "c2FtZQo="
    assert tofu.plan_exit_code() == 0


def test_exactly_one_form_is_accepted(tofu):
    tofu.write(required_providers("localfs") + """
resource "localfs_file" "two" {
  path           = "two.txt"
  content        = "a"
  content_base64 = "YQ=="
}
""")
    result = tofu.run("validate", ok=(1,))
    message = squash(result.stderr)
    assert "content" in message and "content_base64" in message

    tofu.write(required_providers("localfs") + """
resource "localfs_file" "none" {
  path = "none.txt"
}
""")
    result = tofu.run("validate", ok=(1,))
    assert "sensitive_content" in squash(result.stderr) and "source" in squash(result.stderr)
    assert not (tofu.workdir / "none.txt").exists()


def test_text_that_is_not_base64_is_refused_at_its_attribute(tofu):
    tofu.write(one_file("content_base64", '"not base64!"'))
    result = tofu.run("validate", ok=(1,))
    message = squash(result.stderr)
    assert "content_base64 is not base64" in message
    assert "main.tf line" in message


def test_an_imported_file_records_text_or_base64_as_its_bytes_allow(tofu):
    (tofu.workdir / "out").mkdir()
    (tofu.workdir / "out/f.bin").write_bytes(BINARY)
    (tofu.workdir / "out/t.txt").write_text("plain text\n")
    tofu.write(required_providers("localfs") + f"""
import {{
  to = localfs_file.f
  id = "out/f.bin"
}}

import {{
  to = localfs_file.t
  id = "out/t.txt"
}}

resource "localfs_file" "f" {{
  path           = "out/f.bin"
  content_base64 = "{base64.b64encode(BINARY).decode()}"
}}

resource "localfs_file" "t" {{
  path    = "out/t.txt"
  content = "plain text\\n"
}}
""")
    code, plan = tofu.plan()
    # Each imported object already matches its configuration: nothing to write.
    assert planned_actions(plan) == {}
    tofu.apply()
    state = resources(tofu.state())
    assert state["localfs_file.f"]["values"]["content_base64"] == base64.b64encode(BINARY).decode()
    assert state["localfs_file.t"]["values"]["content"] == "plain text\n"
    assert tofu.plan_exit_code() == 0
