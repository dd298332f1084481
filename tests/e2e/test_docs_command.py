"""`terraform-provider-NAME --docs DIR`: registry-style markdown written from the schema and the
examples/ directory. The project's own providers commit theirs; these tests keep them current."""
import filecmp
import os
import subprocess
from pathlib import Path

import pytest

from harness import REPO

REGENERATE = ("regenerate with: LUAFORM_PROVIDER_DIR=providers/{0} LUAFORM_PROVIDER_NAME={0} "
              "build/host/luaform --docs providers/{0}/docs")


def run_docs(binary: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TF_", "PLUGIN_", "LUAFORM_"))}
    return subprocess.run([str(binary), "--docs", *args], env=env, text=True, capture_output=True,
                          timeout=60, check=False)


def files_under(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}


@pytest.mark.parametrize("name", ["localfs", "restapi", "etcd"])
def test_committed_docs_are_what_docs_writes(name, request, tmp_path):
    provider_dir = request.getfixturevalue(f"{name}_dir")
    result = run_docs(provider_dir / f"terraform-provider-{name}", str(tmp_path / "docs"))
    assert result.returncode == 0, result.stderr

    committed = REPO / "providers" / name / "docs"
    written = tmp_path / "docs"
    assert files_under(written) == files_under(committed), REGENERATE.format(name)
    for page in sorted(files_under(written)):
        assert filecmp.cmp(written / page, committed / page, shallow=False), \
            f"{page} differs; " + REGENERATE.format(name)


def test_docs_pages_carry_descriptions_examples_and_the_schema(localfs_dir, tmp_path):
    result = run_docs(localfs_dir / "terraform-provider-localfs", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert f"wrote {tmp_path / 'resources' / 'file.md'}" in result.stdout

    page = (tmp_path / "resources" / "file.md").read_text()
    assert page.startswith('---\npage_title: "localfs_file Resource - localfs"\n')
    assert "# localfs_file (Resource)" in page
    # The example comes from examples/resources/localfs_file/resource.tf.
    example = (REPO / "providers/localfs/examples/resources/localfs_file/resource.tf").read_text()
    assert "## Example Usage\n\n```terraform\n" + example in page
    assert "### Required\n\n- `path` (String) Path of the file" in page
    assert "Changing it replaces the resource." in page
    assert "- `file_permission` (String) Permission bits of the file, in octal; set exactly, " \
        "whatever the umask. Defaults to `\"0644\"`." in page
    assert "- `sensitive_content` (String, Sensitive) " in page
    assert "### Read-Only\n\n- `id` (String)" in page

    function = (tmp_path / "functions" / "lines.md").read_text()
    assert "## Signature\n\n```text\nlines(content string) list of string\n```" in function
    assert "- `content` (String) The text to split" in function


def test_docs_needs_a_directory_and_a_provider_that_loads(localfs_dir, test_provider, tmp_path):
    result = run_docs(localfs_dir / "terraform-provider-localfs")
    assert result.returncode == 2
    assert "--docs needs the directory" in result.stderr

    broken = test_provider("badsyntax")
    result = run_docs(broken / "terraform-provider-badsyntax", str(tmp_path / "out"))
    assert result.returncode == 1
    assert "resource_thing.lua" in result.stderr
    assert not (tmp_path / "out").exists()
