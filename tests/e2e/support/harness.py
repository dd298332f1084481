"""Drives the real OpenTofu CLI against luaform provider directories.

Everything here is plumbing for the scenarios: assembling a provider directory (scripts plus the
host binary under its terraform-provider-NAME name), writing CLI configuration files, and
running tofu with machine-readable output.
"""
from __future__ import annotations

import json
import os
import platform
import re
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
TEST_PROVIDERS_DIR = Path(__file__).resolve().parents[1] / "providers"
SOURCE_PREFIX = "registry.opentofu.org/luaform/"
COMMAND_TIMEOUT = 300

# Text that means the provider process died instead of answering with diagnostics.
CRASH_MARKERS = (
    "panic:",
    "Plugin did not respond",
    "The plugin encountered an error",
    "plugin exited before we could connect",
    "rpc error: code = Unavailable",
)
# Lines of tofu's log written by go-plugin ("provider: ...") or copied from the provider's
# stderr ("provider.terraform-provider-NAME: ..."), and errors of any origin.
PLUGIN_LOG_LINE = re.compile(r"\] +provider[:.]|\[ERROR\]")
# Sanitizer reports in the provider's stderr, which tofu copies into its log.
SANITIZER_MARKERS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:")


def os_arch() -> str:
    machine = platform.machine().lower()
    arch = {"x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64"}
    return f"linux_{arch.get(machine, machine)}"


def assemble_provider(dest: Path, scripts: Path, host: Path, name: str, *,
                      binary_suffix: str = "", copy_binary: bool = False) -> Path:
    """Makes `dest` a runnable provider: the scripts of `scripts` plus the host binary."""
    dest.mkdir(parents=True, exist_ok=True)
    for item in scripts.iterdir():
        if item.name.startswith("terraform-provider-") or item.suffix == ".md":
            continue
        target = dest / item.name
        if item.is_dir():
            shutil.copytree(item, target)
        else:
            shutil.copy2(item, target)
    binary = dest / f"terraform-provider-{name}{binary_suffix}"
    if copy_binary:
        shutil.copy2(host, binary)
    else:
        binary.symlink_to(host.resolve())
    return dest


def hcl_string(value: str) -> str:
    return json.dumps(value)  # a JSON string is a valid HCL string literal


def write_dev_overrides(path: Path, overrides: dict[str, Path]) -> Path:
    lines = [f"    {hcl_string(SOURCE_PREFIX + name)} = {hcl_string(str(directory))}"
             for name, directory in overrides.items()]
    path.write_text("provider_installation {\n  dev_overrides {\n" + "\n".join(lines) +
                    "\n  }\n}\n")
    return path


def write_mirror_config(path: Path, mirror: Path) -> Path:
    path.write_text(
        "provider_installation {\n"
        "  filesystem_mirror {\n"
        f"    path    = {hcl_string(str(mirror))}\n"
        f"    include = [{hcl_string(SOURCE_PREFIX + '*')}]\n"
        "  }\n"
        "}\n")
    return path


def required_providers(*names: str, version: str | None = None) -> str:
    entries = []
    for name in names:
        fields = [f"source = {hcl_string(SOURCE_PREFIX + name)}"]
        if version:
            fields.append(f"version = {hcl_string(version)}")
        entries.append(f"    {name} = {{ {', '.join(fields)} }}")
    return "terraform {\n  required_providers {\n" + "\n".join(entries) + "\n  }\n}\n"


def run_schema(binary) -> subprocess.CompletedProcess:
    """Runs `terraform-provider-NAME --schema`."""
    # Started by hand (no TF_/PLUGIN_ variables), as a provider author would.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TF_", "PLUGIN_"))}
    return subprocess.run([str(binary), "--schema"], env=env, text=True, capture_output=True,
                          timeout=60, check=False)


def faults_item(value: str = "a", body: str = "") -> str:
    """A configuration with one faults_item named "one" (tests/e2e/providers/faults)."""
    return required_providers("faults") + f"""
resource "faults_item" "it" {{
  name  = "one"
  value = {hcl_string(value)}
{body}
}}
"""


def faults_pair(first: str, second: str) -> str:
    """A configuration with one faults_pair named "p" (tests/e2e/providers/faults)."""
    return required_providers("faults") + f"""
resource "faults_pair" "it" {{
  name   = "p"
  first  = {hcl_string(first)}
  second = {hcl_string(second)}
}}
"""


def without_empty_texts(functions: dict) -> dict:
    """Function schemas without empty descriptions and summaries: OpenTofu's `providers schema
    -json` writes them, Terraform's leaves them out."""
    def clean(d: dict) -> dict:
        return {k: (clean(v) if isinstance(v, dict) else
                    [clean(e) for e in v] if k == "parameters" else v)
                for k, v in d.items() if not (k in ("description", "summary") and v == "")}
    return {name: clean(f) for name, f in functions.items()}


def squash(text: str) -> str:
    """Collapses the CLI's line wrapping so phrases can be searched for."""
    return " ".join(text.split())


def marked_line(script: Path, mark: str) -> int:
    """The number of the line of `script` that carries the comment `MARK: <mark>`."""
    for number, line in enumerate(script.read_text().splitlines(), start=1):
        if f"MARK: {mark}" in line:
            return number
    raise AssertionError(f"no MARK: {mark} in {script}")


def assert_script_error(text: str, words: str, place: str) -> None:
    """A script's error as the CLI shows it (in squashed output): its words start the summary,
    after "Error:", and the detail says where the script raised it."""
    assert f"Error: {words}" in text, text
    assert f" at {place}" in text, text


class TofuError(AssertionError):
    pass


class Tofu:
    """One working directory driven by one tofu binary with one CLI configuration."""

    def __init__(self, binary: Path, workdir: Path, cli_config: Path, protocol: int):
        self.binary = binary
        self.workdir = workdir
        self.cli_config = cli_config
        self.protocol = protocol
        self.log = workdir.parent / f"{workdir.name}-tofu.log"
        self.extra_env: dict[str, str] = {}  # set after the defaults, for one scenario
        workdir.mkdir(parents=True, exist_ok=True)

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("TF_", "TOFU_", "PLUGIN_"))}
        env.update({
            "TF_CLI_CONFIG_FILE": str(self.cli_config),
            "TF_IN_AUTOMATION": "1",
            "TF_INPUT": "0",
            "CHECKPOINT_DISABLE": "1",
            "TF_LOG": "trace",
            "TF_LOG_PATH": str(self.log),
            # Read by the host (a child of tofu): offer only this protocol version.
            "LUAFORM_PROTOCOL": str(self.protocol),
        })
        env.update(self.extra_env)
        return env

    def write(self, main_tf: str) -> None:
        (self.workdir / "main.tf").write_text(main_tf)

    def run(self, *args: str, ok: tuple[int, ...] = (0,)) -> subprocess.CompletedProcess:
        command = [str(self.binary), *args]
        # "state" subcommands take no -no-color and print no colour anyway.
        if args and args[0] not in ("version", "state") and "-no-color" not in args:
            command.insert(2, "-no-color")
        log_start = self.log.stat().st_size if self.log.exists() else 0
        result = subprocess.run(command, cwd=self.workdir, env=self.env(), text=True,
                                capture_output=True, timeout=COMMAND_TIMEOUT, check=False)
        if result.returncode not in ok:
            raise TofuError(self.describe(result, f"exit code {result.returncode}, "
                                                  f"expected one of {ok}", log_start))
        self.check_no_sanitizer_report(log_start, result)
        return result

    def start(self, *args: str) -> subprocess.Popen:
        """Starts a command without waiting for it, for scenarios that interrupt it."""
        command = [str(self.binary), args[0], "-no-color", *args[1:]]
        return subprocess.Popen(command, cwd=self.workdir, env=self.env(), text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def describe(self, result: subprocess.CompletedProcess, problem: str,
                 log_start: int = 0) -> str:
        log_tail = ""
        if self.log.exists():
            with self.log.open("rb") as f:
                f.seek(log_start)
                interesting = [line for line in f.read().decode(errors="replace").splitlines()
                               if PLUGIN_LOG_LINE.search(line)]
            log_tail = "\n".join(interesting[-40:])
        # stderr (where the CLI's errors are) comes first and stdout is cut to its end: a CI
        # report keeps only the head and tail of a failure, and a destroy's plan once pushed the
        # error out of both.
        stdout = result.stdout
        if len(stdout) > 4000:
            stdout = "[... " + str(len(stdout) - 4000) + " characters before]\n" + stdout[-4000:]
        return (f"`{' '.join(result.args)}` in {self.workdir}: {problem}\n"
                f"--- stderr ---\n{result.stderr}\n--- stdout ---\n{stdout}\n"
                f"--- provider/plugin lines of {self.log} ---\n{log_tail}")

    def check_no_sanitizer_report(self, log_start: int, result) -> None:
        if not self.log.exists():
            return
        with self.log.open("rb") as f:
            f.seek(log_start)
            text = f.read().decode(errors="replace")
        for marker in SANITIZER_MARKERS:
            if marker in text:
                raise TofuError(self.describe(result, f"sanitizer report ({marker}) in log",
                                              log_start))

    # Commands with machine-readable results.

    def apply(self, *extra: str) -> subprocess.CompletedProcess:
        return self.run("apply", "-auto-approve", "-input=false", *extra)

    def destroy(self) -> subprocess.CompletedProcess:
        return self.run("destroy", "-auto-approve", "-input=false")

    def plan(self) -> tuple[int, dict]:
        """`plan -detailed-exitcode` saved to a file, and that plan as JSON."""
        result = self.run("plan", "-input=false", "-detailed-exitcode", "-out=tfplan",
                          ok=(0, 2))
        return result.returncode, self.show_json("tfplan")

    def plan_exit_code(self) -> int:
        return self.run("plan", "-input=false", "-detailed-exitcode", ok=(0, 2)).returncode

    def show_json(self, *args: str) -> dict:
        result = self.run("show", "-json", *args)
        return parse_json(result.stdout)

    def state(self) -> dict:
        return self.show_json()

    def outputs(self) -> dict:
        result = self.run("output", "-json")
        return {name: o["value"] for name, o in parse_json(result.stdout).items()}

    def uses_protocol(self) -> int | None:
        """The protocol version go-plugin negotiated, from tofu's log."""
        if not self.log.exists():
            return None
        version = None
        for line in self.log.read_text(errors="replace").splitlines():
            marker = "using plugin: version="
            if marker in line:
                version = int(line.split(marker, 1)[1].split()[0])
        return version


def parse_json(stdout: str) -> dict:
    try:
        return json.loads(stdout)
    except json.JSONDecodeError:
        # Warnings (dev_overrides) may precede the document; the JSON is the last object line.
        for line in reversed(stdout.splitlines()):
            if line.startswith("{"):
                return json.loads(line)
        raise


def resources(state: dict) -> dict[str, dict]:
    """address -> resource object of `show -json` state."""
    found = {}
    values = state.get("values") or {}
    for resource in (values.get("root_module") or {}).get("resources", []):
        found[resource["address"]] = resource
    return found


def planned_actions(plan: dict) -> dict[str, list[str]]:
    """address -> actions, for every resource `show -json PLANFILE` plans to change (no-ops
    are left out)."""
    return {rc["address"]: rc["change"]["actions"] for rc in plan.get("resource_changes", [])
            if rc["change"]["actions"] != ["no-op"]}


def planned_change(plan: dict, address: str) -> dict:
    for rc in plan.get("resource_changes", []):
        if rc["address"] == address:
            return rc["change"]
    raise KeyError(f"{address} not in plan: {sorted(planned_actions(plan))}")


def provider_processes(name: str) -> dict[int, int]:
    """The running (not zombie) hosts serving provider `name`, by their executable's name:
    each pid with its parent's."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            args = (entry / "cmdline").read_bytes().split(b"\0")
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # A host for another machine (arm64, run by qemu-user through binfmt_misc, as
        # tests/release does) has the emulator's path first, then its own.
        if b"qemu" in args[0] and len(args) > 1:
            args = args[1:]
        command = args[0].decode(errors="replace")
        if command.endswith(f"terraform-provider-{name}") and fields[0] != "Z":
            found[int(entry.name)] = int(fields[1])
    return found
