"""--debug: the host serves in reattach mode, as a person debugging a provider runs it. It
prints a TF_REATTACH_PROVIDERS value that either CLI accepts, serves every command run with it
(the CLI starts no provider of its own), outlives those commands, and ends on Ctrl-C."""
import json
import os
import signal
import subprocess

from support.debug_mode import start_debug
from support.harness import hcl_string, required_providers


def start_localfs(binary, protocol):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TF_", "PLUGIN_"))}
    env["LUAFORM_PROTOCOL"] = str(protocol)
    return start_debug([str(binary), "--debug"], env)


def test_debug_mode_serves_the_cli_until_interrupted(make_tofu, localfs_dir, protocol):
    # No dev_overrides: the only way the CLI can reach localfs is the reattach value.
    tofu = make_tofu({})
    process, reattach = start_localfs(localfs_dir / "terraform-provider-localfs", protocol)
    try:
        entries = json.loads(reattach)
        assert set(entries) == {"registry.opentofu.org/luaform/localfs",
                                "registry.terraform.io/luaform/localfs"}
        for entry in entries.values():
            assert entry["Pid"] == process.pid
            assert entry["ProtocolVersion"] == protocol
        tofu.extra_env["TF_REATTACH_PROVIDERS"] = reattach
        tofu.write(required_providers("localfs") + f"""
provider "localfs" {{
  root = {hcl_string(str(tofu.workdir))}
}}

resource "localfs_file" "note" {{
  path    = "note.txt"
  content = "served in debug mode"
}}
""")
        # `init` is not needed, but works; Terraform 1.16 warns that the provider is unmanaged
        # (the guide's "Debugging a provider" says so).
        initialised = tofu.run("init", "-input=false")
        if "1.16" in tofu.run("version").stdout:
            assert "Warning: Unmanaged providers are in effect" in initialised.stdout + \
                initialised.stderr
        tofu.apply()
        assert (tofu.workdir / "note.txt").read_text() == "served in debug mode"
        assert tofu.plan_exit_code() == 0
        assert process.poll() is None, "the provider must outlive the CLI's commands"
    finally:
        process.send_signal(signal.SIGINT)
        try:
            code = process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
    assert code == 0
