"""No script keeps the provider from ending: a top level that never returns is a load error at
LUAFORM_LOAD_TIMEOUT (which also bounds a Ctrl-C during the load), and a script stuck where no stop
reaches it (native code) ends with the process at SIGTERM or when the CLI is gone, within a
bounded grace (tests/HARDENING.md).

tests/e2e/providers/slowload has a script whose top level loops; tests/e2e/providers/spinner
a create that loops in Lua or is stuck in the kernel, opening a FIFO nobody writes to.
"""
import os
import signal
import subprocess
import time

import pytest

from support.harness import CRASH_MARKERS, provider_processes, required_providers, squash

# Shutdown's grace in host/protocol/goplugin/serve.cpp, and what the machine may add to it.
GRACE = 5
MARGIN = 10


def wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def slowload(make_tofu, test_provider, load_timeout: str):
    """A working directory using slowload_fine, with LUAFORM_LOAD_TIMEOUT set."""
    tofu = make_tofu({"slowload": test_provider("slowload")})
    tofu.extra_env["LUAFORM_LOAD_TIMEOUT"] = load_timeout
    tofu.write(required_providers("slowload") + """
resource "slowload_fine" "it" {
  name = "x"
}
""")
    return tofu


def test_a_top_level_that_never_returns_is_a_load_error_at_the_load_timeout(make_tofu,
                                                                          test_provider):
    tofu = slowload(make_tofu, test_provider, "2s")
    started = time.monotonic()
    # The script is left out; the provider's other type applies.
    result = tofu.run("apply", "-auto-approve", "-input=false")
    assert time.monotonic() - started < 60
    shown = squash(result.stdout + result.stderr)
    assert "Cannot load resource_spin.lua: slowload_spin is left out" in shown, shown
    assert "resource_spin.lua:5: loading did not finish within 2s" in shown, shown
    for marker in CRASH_MARKERS:
        assert marker not in result.stdout + result.stderr


def test_check_and_schema_keep_the_load_timeout_serving_keeps(test_provider):
    # --check, --schema and --docs load the scripts as serving does, within the same
    # LUAFORM_LOAD_TIMEOUT (a large description may need more than the default).
    provider = test_provider("slowload")
    host = provider / "terraform-provider-slowload"
    env = dict(os.environ, LUAFORM_LOAD_TIMEOUT="1s")
    started = time.monotonic()
    result = subprocess.run([str(host), "--check"], capture_output=True, text=True, env=env,
                            check=False, timeout=60)
    assert time.monotonic() - started < 8, "--check did not stop at LUAFORM_LOAD_TIMEOUT=1s"
    assert result.returncode == 1
    assert "loading did not finish within 1s" in result.stdout, result.stdout
    bad = subprocess.run([str(host), "--schema"], capture_output=True, text=True, check=False,
                         env=dict(os.environ, LUAFORM_LOAD_TIMEOUT="soon"), timeout=60)
    assert bad.returncode == 1 and "LUAFORM_LOAD_TIMEOUT must be a duration" in bad.stderr


def test_ctrl_c_while_the_scripts_load_ends_the_command_at_the_load_timeout(make_tofu,
                                                                            test_provider):
    # The CLI sends no StopProvider while it waits for the schema (a StopProvider that comes
    # then is answered at once and ends the load: plugin_server_test); the load timeout bounds
    # the wait instead of the script, once per provider process the CLI starts (a few).
    tofu = slowload(make_tofu, test_provider, "3s")
    process = tofu.start("plan", "-input=false")
    try:
        assert wait_for(lambda: process.pid in provider_processes("slowload").values(), 60), \
            "the provider never started"
        pids = [pid for pid, parent in provider_processes("slowload").items()
                if parent == process.pid]
        started = time.monotonic()
        time.sleep(1)  # the CLI is waiting for the schema
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=120)
        # Ended (interrupted, or done: the left-out script does not stop the plan of the other
        # type), and not by the script's forever.
        assert time.monotonic() - started < 60, stdout + stderr
        assert wait_for(lambda: not set(pids) & set(provider_processes("slowload")),
                        GRACE + MARGIN)
    finally:
        if process.poll() is None:
            process.kill()


def start_stuck_apply(tofu, native: bool):
    fifo = ""
    if native:
        fifo = tofu.workdir / "nobody-writes-here"
        os.mkfifo(fifo)
        fifo = f'fifo = "{fifo}"'
    tofu.write(required_providers("spinner") + f"""
resource "spinner_stuck" "it" {{
  {fifo}
}}
""")
    process = tofu.start("apply", "-auto-approve", "-input=false")
    assert wait_for(lambda: tofu.log.exists() and
                    "stuck create:" in tofu.log.read_text(errors="replace"), 60), \
        "the create never began"
    pids = [pid for pid, parent in provider_processes("spinner").items()
            if parent == process.pid]
    assert len(pids) == 1, (pids, process.pid, provider_processes("spinner"))
    return process, pids[0]


@pytest.mark.parametrize("native", [False, True], ids=["lua_loop", "blocked_in_kernel"])
def test_sigterm_ends_a_provider_whose_script_never_ends(make_tofu, test_provider, native):
    tofu = make_tofu({"spinner": test_provider("spinner")})
    process, pid = start_stuck_apply(tofu, native)
    try:
        time.sleep(0.5)
        terminated = time.monotonic()
        os.kill(pid, signal.SIGTERM)
        assert wait_for(lambda: pid not in provider_processes("spinner"), GRACE + MARGIN), \
            "the provider outlived its shutdown grace"
        assert time.monotonic() - terminated < GRACE + MARGIN
        stdout, stderr = process.communicate(timeout=120)
        assert process.returncode != 0, stdout + stderr
    finally:
        if process.poll() is None:
            process.kill()


@pytest.mark.parametrize("native", [False, True], ids=["lua_loop", "blocked_in_kernel"])
def test_a_provider_whose_cli_is_killed_ends_itself(make_tofu, test_provider, native):
    tofu = make_tofu({"spinner": test_provider("spinner")})
    process, pid = start_stuck_apply(tofu, native)
    process.kill()  # SIGKILL: the CLI says nothing to its provider
    process.communicate(timeout=60)
    assert wait_for(lambda: pid not in provider_processes("spinner"), 1 + GRACE + MARGIN), \
        "the orphaned provider kept running"
