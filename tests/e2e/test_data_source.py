"""The localfs_file data source: read at plan time when its configuration is known, at apply
time when it depends on something not created yet."""
import base64
import hashlib

from support.harness import planned_actions, required_providers, squash

CONTENT = "alpha\nbeta\ngamma\n"

CONFIG = required_providers("localfs") + """
data "localfs_file" "list" {
  path = "list.txt"
}

output "content" {
  value = data.localfs_file.list.content
}

output "lines" {
  value = data.localfs_file.list.lines
}

output "sha256" {
  value = data.localfs_file.list.sha256
}

output "size" {
  value = data.localfs_file.list.size
}
"""


def test_data_source_reads_the_file_into_outputs(tofu):
    tofu.write(CONFIG)
    (tofu.workdir / "list.txt").write_text(CONTENT)

    # Its configuration is known, so it is read while planning: no read is left for apply,
    # and the plan already knows the outputs.
    code, plan = tofu.plan()
    assert code == 2  # the outputs are new
    assert "data.localfs_file.list" not in planned_actions(plan)
    assert plan["planned_values"]["outputs"]["size"]["value"] == len(CONTENT)

    tofu.apply()

    assert tofu.outputs() == {
        "content": CONTENT,
        "lines": ["alpha", "beta", "gamma"],
        "sha256": hashlib.sha256(CONTENT.encode()).hexdigest(),
        "size": len(CONTENT),
    }
    assert tofu.plan_exit_code() == 0


def test_data_source_sees_a_file_written_by_a_resource_in_the_same_apply(tofu):
    tofu.write(required_providers("localfs") + """
resource "localfs_file" "source" {
  path    = "written.txt"
  content = "one\\ntwo"
}

data "localfs_file" "copy" {
  path       = localfs_file.source.path
  depends_on = [localfs_file.source]
}

output "lines" {
  value = data.localfs_file.copy.lines
}
""")
    code, plan = tofu.plan()
    assert code == 2
    assert planned_actions(plan)["localfs_file.source"] == ["create"]
    # It depends on a resource not created yet, so it is read during apply instead.
    assert planned_actions(plan)["data.localfs_file.copy"] == ["read"]

    tofu.apply()
    assert tofu.outputs() == {"lines": ["one", "two"]}
    assert tofu.plan_exit_code() == 0


def test_data_source_for_a_missing_file_is_an_error_diagnostic(tofu):
    tofu.write(CONFIG)

    result = tofu.run("plan", "-input=false", ok=(1,))

    stderr = squash(result.stderr)
    assert "Error:" in stderr
    assert "file not found" in stderr
    assert "list.txt" in stderr


def test_data_source_gives_bytes_that_are_not_text_as_base64_only(tofu):
    data = bytes([0x00, 0xC3, 0x28, 0xFF])  # 0xC3 0x28 is not UTF-8
    (tofu.workdir / "list.txt").write_bytes(data)
    tofu.write(CONFIG + """
output "content_base64" {
  value = data.localfs_file.list.content_base64
}
""")
    tofu.apply()

    outputs = tofu.outputs()
    assert outputs["content_base64"] == base64.b64encode(data).decode()
    assert outputs["sha256"] == hashlib.sha256(data).hexdigest()
    assert outputs["size"] == len(data)
    assert "content" not in outputs and "lines" not in outputs  # null outputs are left out
