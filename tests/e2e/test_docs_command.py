"""`terraform-provider-NAME --docs DIR`: registry-style markdown written from the schema and the
examples/ directory. The project's own providers commit theirs; these tests keep them current."""
import filecmp
import os
import re
import subprocess
from pathlib import Path

import pytest

from support.harness import REPO

REGENERATE = ("regenerate with: LUAFORM_PROVIDER_DIR=providers/{0} LUAFORM_PROVIDER_NAME={0} "
              "build/host/luaform --docs providers/{0}/docs")


def run_docs(binary: Path, *args: str, extra_env: dict[str, str] | None = None,
             command: str = "--docs") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TF_", "PLUGIN_", "LUAFORM_"))}
    env.update(extra_env or {})
    return subprocess.run([str(binary), command, *args], env=env, text=True, capture_output=True,
                          timeout=60, check=False)


def environment_read_by(provider: Path) -> set[str]:
    """Every variable a provider's scripts read: tf.env's names (one or a list) and os.getenv's."""
    names = set()
    for script in provider.rglob("*.lua"):
        if "tests" in script.relative_to(provider).parts:
            continue
        text = script.read_text()
        for argument in re.findall(r'tf\.env\(\s*(\{[^}]*\}|"[^"]*")', text):
            names.update(re.findall(r'"([^"]+)"', argument))
        names.update(re.findall(r'os\.getenv\(\s*"([^"]+)"', text))
    return names


def files_under(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}


@pytest.mark.parametrize("name", ["localfs", "restapi", "etcd", "postgresql"])
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


# The credentials and settings each provider takes from the environment, at least: the scan of
# its scripts must find these, so that a scan that finds nothing cannot pass unnoticed.
KNOWN_ENVIRONMENT = {
    "localfs": {"LOCALFS_ROOT"},
    "restapi": {"RESTAPI_URI", "RESTAPI_PASSWORD", "RESTAPI_TOKEN"},
    "etcd": {"ETCD_ENDPOINT", "ETCD_PASSWORD"},
    "postgresql": {"PGHOST", "PGPORT", "PGUSER", "PGPASSWORD", "PGSSLMODE"},
}


@pytest.mark.parametrize("name", ["localfs", "restapi", "etcd", "postgresql"])
def test_docs_and_schema_never_show_what_the_environment_holds(name, request, tmp_path):
    provider_dir = request.getfixturevalue(f"{name}_dir")
    variables = environment_read_by(REPO / "providers" / name)
    assert KNOWN_ENVIRONMENT[name] <= variables, variables
    # A value no page could hold by chance, for each variable the provider reads.
    values = {var: f"leak-{var.lower().replace('_', '-')}-q7z" for var in variables}
    binary = provider_dir / f"terraform-provider-{name}"
    docs = run_docs(binary, str(tmp_path / "docs"), extra_env=values)
    assert docs.returncode == 0, docs.stderr
    schema = run_docs(binary, extra_env=values, command="--schema")
    assert schema.returncode == 0, schema.stderr

    written = {page: (tmp_path / "docs" / page).read_text() for page in files_under(tmp_path / "docs")}
    outputs = {"--docs stdout": docs.stdout, "--docs stderr": docs.stderr,
               "--schema stdout": schema.stdout, "--schema stderr": schema.stderr, **written}
    for where, text in outputs.items():
        for var, value in values.items():
            assert value not in text.lower(), f"{where} shows the value of {var}"
    # The docs say where each default comes from, and do not depend on the shell: they are the
    # committed pages, which were written without these variables.
    index = written["index.md"]
    for var in KNOWN_ENVIRONMENT[name]:
        # "... `PGUSER`." or, with a fallback, "... `PGUSER`, else to `"postgres"`."
        assert f"Defaults to the environment variable `{var}`" in index, var
    committed = REPO / "providers" / name / "docs"
    for page, text in written.items():
        assert text == (committed / page).read_text(), f"{page} differs; " + REGENERATE.format(name)
