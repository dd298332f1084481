"""`luaform --scaffold NAME [DIR]`: a new provider that passes --check and luacheck, applies
through the real CLI with an empty plan afterwards, and documents itself with --docs."""
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

from harness import REPO, Tofu, os_arch, squash


def run_host(host, *args, cwd=None, env=None):
    # Started by hand, as an author would: nothing from the CLI's environment.
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("TF_", "PLUGIN_", "LUAFORM_"))}
    env = {**clean, **(env or {})}
    return subprocess.run([str(host), *args], env=env, cwd=cwd, text=True, capture_output=True,
                          timeout=60, check=False)


def test_a_scaffolded_provider_checks_applies_and_documents_itself(host_binary, tofu_binary,
                                                                   protocol, tmp_path):
    target = tmp_path / "acme"
    result = run_host(host_binary, "--scaffold", "acme", str(target))
    assert result.returncode == 0, result.stderr
    for script in ("provider.lua", "resource_item.lua", "data_source_info.lua",
                   "function_greet.lua"):
        assert (target / script).is_file(), result.stdout
    host = target / "terraform-provider-acme"
    assert not host.is_symlink() and host.read_bytes() == host_binary.read_bytes()

    check = run_host(target / "terraform-provider-acme", "--check")
    assert check.returncode == 0, check.stdout + check.stderr
    assert "check passed" in check.stdout

    luacheck = shutil.which("luacheck")
    assert luacheck, "luacheck is missing: tests/setup/install-deps.sh installs it (apt lua-check)"
    lint = subprocess.run([luacheck, "--no-color", "--std", "lua54", str(target)], text=True,
                          capture_output=True, check=False)
    assert lint.returncode == 0, lint.stdout

    # Editor support: .luarc.json names the SDK's type definitions, copied into the directory
    # (a relative library path is taken from the workspace by lua-language-server and EmmyLua),
    # and luacheck run in the directory reads .luacheckrc, which knows the sandbox's read-only
    # globals and leaves those definitions alone.
    luarc = json.loads((target / ".luarc.json").read_text())
    assert luarc["runtime"]["version"] == "Lua 5.4"
    assert luarc["workspace"]["library"] == [".luaform/types"]
    for module in (REPO / "lua-sdk" / "types").iterdir():
        assert (target / ".luaform" / "types" / module.name).read_text() == module.read_text()
    assert 'std = "luaform"' in (target / ".luacheckrc").read_text()
    lint = subprocess.run([luacheck, "--no-color", "."], cwd=target, text=True,
                          capture_output=True, check=False)
    assert lint.returncode == 0, lint.stdout
    probe = target / "probe.lua"
    probe.write_text('os.execute("true")\nanswer = 42\n')
    lint = subprocess.run([luacheck, "--no-color", probe.name], cwd=target, text=True,
                          capture_output=True, check=False)
    probe.unlink()
    assert lint.returncode != 0
    assert "field 'execute' of global 'os'" in lint.stdout, lint.stdout
    assert "global variable 'answer'" in lint.stdout, lint.stdout

    # Its tests pass: the unit test through the engine, the acceptance test with this CLI.
    tests = run_host(target / "terraform-provider-acme", "--test", cwd=target,
                     env={"TF_ACC": "1", "TF_ACC_TERRAFORM_PATH": str(tofu_binary),
                          "LUAFORM_PROTOCOL": str(protocol)})
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "2 passed, 0 failed, 0 skipped" in tests.stdout, tests.stdout

    # try/ holds a configuration and a CLI config pointing at the new directory.
    tofu = Tofu(tofu_binary, target / "try", target / "try" / "dev.tfrc", protocol)
    tofu.apply()
    assert tofu.outputs() == {"size": 5, "endpoint": "http://127.0.0.1:8080",
                              "greeting": "Hello, world!"}
    assert tofu.plan_exit_code() == 0
    tofu.destroy()

    docs = run_host(target / "terraform-provider-acme", "--docs", str(target / "docs"))
    assert docs.returncode == 0, docs.stderr
    page = (target / "docs" / "resources" / "item.md").read_text()
    assert 'resource "acme_item" "first"' in page

    # The environment variable is the provider's name in capitals.
    assert 'tf.env("ACME_ENDPOINT"' in (target / "provider.lua").read_text()
    # The README's release command, as written there, run in the provider's directory.
    readme = (target / "README.md").read_text()
    command = re.search(r"\n    (cmake .*?)\n\n", readme, re.S)
    assert command, readme
    packaged = subprocess.run(command.group(1).replace("\\\n", " "), shell=True, cwd=target,
                              text=True, capture_output=True, timeout=120, check=False)
    assert packaged.returncode == 0, packaged.stdout + packaged.stderr
    assert sorted(p.name for p in (target / "dist").iterdir() if p.suffix != ".json") == [
        "terraform-provider-acme_0.1.0_SHA256SUMS",
        f"terraform-provider-acme_0.1.0_{os_arch()}.zip"]


def test_scaffold_refuses_a_bad_name_and_a_directory_in_use(host_binary, tmp_path):
    result = run_host(host_binary, "--scaffold", "Acme-2", str(tmp_path / "x"))
    assert result.returncode == 1
    assert "lowercase letters and digits" in result.stderr
    assert not (tmp_path / "x").exists()

    used = tmp_path / "used"
    used.mkdir()
    (used / "notes.txt").write_text("mine")
    result = run_host(host_binary, "--scaffold", "acme", str(used))
    assert result.returncode == 1
    assert "exists and is not empty" in squash(result.stderr)
    assert sorted(p.name for p in used.iterdir()) == ["notes.txt"]

    # Without DIR the provider goes to ./NAME.
    result = run_host(host_binary, "--scaffold", "beta", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "beta" / "provider.lua").is_file()
