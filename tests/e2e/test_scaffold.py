"""`luaform --scaffold NAME [DIR]`: a new provider that passes --check and luacheck, passes its
own tests and applies through the real CLI with an empty plan afterwards, documents itself with
--docs, packs itself with its README's command, and still works moved elsewhere or committed and
cloned. With `--from FILE`, one served from an OpenAPI description applies against the real
server the description describes (PowerDNS)."""
import json
import os
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

from support.harness import REPO, Tofu, os_arch, parse_json, required_providers, squash
from support.powerdns_service import powerdns  # noqa: F401  (the fixture)

POWERDNS_DESCRIPTION = REPO / "tests" / "e2e" / "providers" / "powerdns" / "powerdns-api.yaml"


def run_host(host, *args, cwd=None, env=None):
    # Started by hand, as an author would: nothing from the CLI's environment.
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("TF_", "PLUGIN_", "LUAFORM_"))}
    env = {**clean, **(env or {})}
    return subprocess.run([str(host), *args], env=env, cwd=cwd, text=True, capture_output=True,
                          timeout=60, check=False)


def scaffold(host_binary, target):
    result = run_host(host_binary, "--scaffold", "acme", str(target))
    assert result.returncode == 0, result.stderr
    return result


# What needs no CLI (--check, luacheck, editor support, --docs, the README's release command)
# runs once; what the CLI drives (--test's acceptance test, try/) runs with each CLI and protocol.
def test_a_scaffolded_provider_checks_lints_documents_and_packs_itself(host_binary, tmp_path):
    target = tmp_path / "acme"
    result = scaffold(host_binary, target)
    for script in ("provider.lua", "resource_item.lua", "data_source_info.lua",
                   "function_greet.lua"):
        assert (target / script).is_file(), result.stdout
    host = target / "terraform-provider-acme"
    assert not host.is_symlink() and host.read_bytes() == host_binary.read_bytes()
    assert not (target / ".openapi").exists()  # the templates of --from's scaffold

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
    types = REPO / "lua-sdk" / "types"
    for module in types.rglob("*.lua"):
        copy = target / ".luaform" / "types" / module.relative_to(types)
        assert copy.read_text() == module.read_text(), copy
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


def test_a_scaffolded_provider_tests_and_applies_with_the_cli(host_binary, tofu_binary,
                                                             protocol, tmp_path):
    target = tmp_path / "acme"
    scaffold(host_binary, target)

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


def test_a_provider_scaffolded_from_a_description_applies_against_its_server(
        host_binary, make_tofu, powerdns, tmp_path):
    target = tmp_path / "pdns"
    result = run_host(host_binary, "--scaffold", "pdns", str(target), "--from",
                      str(POWERDNS_DESCRIPTION))
    assert result.returncode == 0, result.stderr
    # The description copied in, a provider.lua serving it, the editor and lint files; none of
    # the example scripts.
    assert (target / "powerdns-api.yaml").read_bytes() == POWERDNS_DESCRIPTION.read_bytes()
    assert 'document = "powerdns-api.yaml"' in (target / "provider.lua").read_text()
    assert (target / ".luarc.json").is_file() and (target / ".luaform" / "types").is_dir()
    assert not list(target.glob("resource_*.lua")) and not (target / "try").exists()
    check = run_host(target / "terraform-provider-pdns", "--check")
    assert check.returncode == 0, check.stdout + check.stderr
    assert "4 resources, 2 data sources, 4 list resources" in check.stdout
    lint = subprocess.run(["luacheck", "--no-color", "."], cwd=target, text=True,
                          capture_output=True, check=False)
    assert lint.returncode == 0, lint.stdout

    # With nothing said in Lua, a zone applies, settles and is destroyed through the CLI.
    tofu = make_tofu({"pdns": target})
    zone = powerdns.unique_zone("scaffold")
    tofu.write(required_providers("pdns") + f"""
provider "pdns" {{
  base_url       = "{powerdns.url}"
  api_key_header = "{powerdns.api_key}"
}}

resource "pdns_zone" "z" {{
  server_id   = "localhost"
  name        = "{zone}"
  kind        = "Native"
  nameservers = ["ns1.{zone}"]
}}
""")
    tofu.apply()
    zone_path = f"/servers/{powerdns.server_id}/zones/{zone}"
    assert powerdns.request("GET", zone_path)[0] == 200
    assert tofu.plan_exit_code() == 0
    tofu.destroy()
    assert powerdns.request("GET", zone_path)[0] == 404

    # Files beside the description that its $refs name come along, and theirs, at the same
    # places; one outside its directory does not.
    source = tmp_path / "described" / "api"
    (source / "schemas").mkdir(parents=True)
    (source / "api.yaml").write_text(
        (REPO / "tests" / "e2e" / "providers" / "objects" / "objects.yaml").read_text()
        .replace("{$ref: '#/components/schemas/Object'}", "{$ref: 'schemas/object.yaml#/Object'}"))
    (source / "schemas" / "object.yaml").write_text(
        "Object:\n  type: object\n  properties:\n    name: {type: string}\n"
        "    tags: {$ref: '../common.yaml#/Tags'}\n    x: {$ref: '../../outside.yaml#/X'}\n")
    (source / "common.yaml").write_text("Tags:\n  type: array\n  items: {type: string}\n")
    (source / "unrelated.yaml").write_text("not: named\n")
    (tmp_path / "described" / "outside.yaml").write_text("X: {type: string}\n")
    split = tmp_path / "split"
    result = run_host(host_binary, "--scaffold", "split", str(split), "--from",
                      str(source / "api.yaml"))
    assert result.returncode == 0, result.stderr
    assert (split / "schemas" / "object.yaml").read_text() == \
        (source / "schemas" / "object.yaml").read_text()
    assert (split / "common.yaml").is_file()
    assert not (split / "unrelated.yaml").exists()
    assert not (tmp_path / "outside.yaml").exists() and not (split / "outside.yaml").exists()
    check = run_host(split / "terraform-provider-split", "--check")
    assert check.returncode == 1
    assert "outside.yaml: cannot be read" in check.stdout  # named, as the guide says

    # A description that cannot be read is refused before anything is written.
    missing = run_host(host_binary, "--scaffold", "none", str(tmp_path / "none"), "--from",
                       str(tmp_path / "absent.yaml"))
    assert missing.returncode == 1
    assert "absent.yaml is not a file that can be read" in missing.stderr
    assert not (tmp_path / "none").exists()


def documented(command: str, cli: Path, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    """Runs a command line of a scaffold's README in the shell, as a reader would, with `cli`
    for `tofu` and nothing from the test's environment that names a CLI configuration."""
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("TF_", "TOFU_", "PLUGIN_", "LUAFORM_"))}
    return subprocess.run(command.replace("tofu ", f'"{cli}" '), shell=True, cwd=cwd,
                          env={**clean, "CHECKPOINT_DISABLE": "1", **env}, text=True,
                          capture_output=True, timeout=300, check=False)


def apply_as_documented(provider: Path, cli: Path) -> None:
    """The README's `cd try && TF_CLI_CONFIG_FILE=dev.tfrc tofu apply`, run in `provider`, then
    the outputs and a destroy the same way."""
    readme = (provider / "README.md").read_text()
    found = re.search(r"\n    (cd try && TF_CLI_CONFIG_FILE=dev\.tfrc tofu) apply\n", readme)
    assert found, readme
    prefix = found.group(1)
    for args in ("apply -auto-approve -no-color", "output -json",
                 "destroy -auto-approve -no-color"):
        result = documented(f"{prefix} {args}", cli, provider, {"TF_INPUT": "0"})
        assert result.returncode == 0, f"{prefix} {args} in {provider}:\n" + result.stdout + \
            result.stderr
        if args.startswith("output"):
            outputs = {k: v["value"] for k, v in parse_json(result.stdout).items()}
            assert outputs == {"size": 5, "endpoint": "http://127.0.0.1:8080",
                               "greeting": "Hello, world!"}


def assert_nothing_points_back(provider: Path, *places: Path) -> None:
    """No link in `provider`, and no file of it but the host naming any of `places`."""
    for path in provider.rglob("*"):
        assert not path.is_symlink(), f"{path} is a link to {os.readlink(path)}"
        if path.is_file() and not path.name.startswith("terraform-provider-") and \
                ".git" not in path.relative_to(provider).parts:
            text = path.read_text(errors="replace")
            for place in places:
                assert str(place) not in text, f"{path} names {place}"


def test_a_scaffolded_provider_works_moved_and_cloned(host_binary, tofu_binary, tmp_path):
    original = tmp_path / "first" / "acme"
    scaffold(host_binary, original)
    # Moved: the try/ configuration applies where it now is. The host is a copy, not a link
    # into the build tree; the type definitions and the packaging script travel inside the
    # directory; no file names where it was written or where luaform was built.
    moved = tmp_path / "elsewhere" / "deeper" / "acme"
    moved.parent.mkdir(parents=True)
    shutil.move(original, moved)
    apply_as_documented(moved, tofu_binary)
    assert_nothing_points_back(moved, original, REPO)
    assert (moved / "terraform-provider-acme").read_bytes() == host_binary.read_bytes()
    assert os.access(moved / "terraform-provider-acme", os.X_OK)

    # Committed and cloned: the host stays out of git (.gitignore), and so does the state of the
    # try/ apply; the README says how to put the host back.
    git = ["git", "-c", "user.name=luaform", "-c", "user.email=luaform@example.invalid"]
    subprocess.run([*git, "init", "-q", str(moved)], check=True)
    (moved / "try" / "terraform.tfstate").write_text("{}")  # as an apply leaves it
    subprocess.run([*git, "add", "-A"], cwd=moved, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "acme"], cwd=moved, check=True)
    committed = subprocess.run(["git", "ls-files"], cwd=moved, text=True, capture_output=True,
                               check=True).stdout.split()
    assert "terraform-provider-acme" not in committed and "try/terraform.tfstate" not in \
        committed, committed
    assert ".luaform/types/luaform.lua" in committed and ".gitignore" in committed, committed
    clone = tmp_path / "clone" / "acme"
    subprocess.run(["git", "clone", "-q", str(moved), str(clone)], check=True)
    readme = (clone / "README.md").read_text()
    refresh = re.search(r"\n    (cp .*terraform-provider-acme)\n", readme)
    assert refresh, readme
    installed = tmp_path / "bin"  # luaform on PATH, as an installed one is
    installed.mkdir()
    (installed / "luaform").symlink_to(host_binary)
    copied = documented(refresh.group(1), tofu_binary, clone,
                        {"PATH": f"{installed}{os.pathsep}{os.environ.get('PATH', '')}"})
    assert copied.returncode == 0, copied.stderr
    apply_as_documented(clone, tofu_binary)
    assert_nothing_points_back(clone, original, moved, REPO)

    # The editors' library is found from the clone, and the README's release command works
    # there and leaves luaform's own files out of the zip.
    luarc = json.loads((clone / ".luarc.json").read_text())
    [types] = luarc["workspace"]["library"]
    assert not Path(types).is_absolute() and (clone / types / "luaform.lua").is_file(), types
    command = re.search(r"\n    (cmake .*?)\n\n", readme, re.S)
    assert command, readme
    packaged = documented(command.group(1).replace("\\\n", " "), tofu_binary, clone, {})
    assert packaged.returncode == 0, packaged.stdout + packaged.stderr
    with zipfile.ZipFile(clone / "dist" / f"terraform-provider-acme_0.1.0_{os_arch()}.zip") \
            as archive:
        names = sorted(archive.namelist())
    assert names == ["data_source_info.lua", "function_greet.lua", "provider.lua",
                     "resource_item.lua", "terraform-provider-acme_v0.1.0"], names
