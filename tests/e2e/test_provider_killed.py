"""The provider process killed during a parallel apply (as the OOM killer or a crash would):
every resource whose create finished is in the state the CLI saves, the CLI reports the ones
cut off, and the next apply creates exactly those, creating nothing twice. faults_item waits
before it reaches "the service" while a slow-NAME marker exists, and logs every create it
makes to creates.log."""
import os
import signal
import time
from pathlib import Path

from support.harness import provider_processes, required_providers, resources

QUICK = [f"q{i}" for i in range(8)]
SLOW = [f"s{i}" for i in range(6)]


def config() -> str:
    return required_providers("faults") + "".join(
        f'resource "faults_item" "{name}" {{\n  name  = "{name}"\n  value = "v"\n}}\n'
        for name in QUICK + SLOW)


def created(log: Path) -> list[str]:
    return log.read_text().split() if log.exists() else []


def kill_providers_of(cli_pid: int) -> list[int]:
    """SIGKILLs the faults provider processes the CLI started (its children by that name)."""
    killed = [pid for pid, parent in provider_processes("faults").items() if parent == cli_pid]
    for pid in killed:
        os.kill(pid, signal.SIGKILL)
    return killed


def test_a_provider_killed_mid_apply_loses_no_finished_resource_and_duplicates_none(faults):
    faults.write(config())
    for name in SLOW:
        (faults.workdir / f"slow-{name}").touch()
    log = faults.workdir / "creates.log"

    cli = faults.start("apply", "-auto-approve", "-input=false", "-parallelism=20")
    deadline = time.monotonic() + 90
    while not set(QUICK) <= set(created(log)) and time.monotonic() < deadline:
        assert cli.poll() is None, cli.communicate()
        time.sleep(0.2)
    assert set(QUICK) <= set(created(log)), created(log)
    time.sleep(1)  # the answers of the finished creates reach the CLI
    killed = kill_providers_of(cli.pid)
    assert killed, "no provider process found under the CLI"
    _, stderr = cli.communicate(timeout=120)

    assert cli.returncode == 1, stderr
    assert "Error:" in stderr
    saved = {address.split(".", 1)[1] for address in resources(faults.state())}
    assert saved == set(QUICK), saved
    assert created(log) == [n for n in created(log) if n in QUICK]  # the slow ones never began

    # Recovery: the next apply creates what was cut off, and only that.
    for name in SLOW:
        (faults.workdir / f"slow-{name}").unlink()
    faults.apply()
    assert sorted(created(log)) == sorted(QUICK + SLOW), created(log)
    assert {a.split(".", 1)[1] for a in resources(faults.state())} == set(QUICK + SLOW)
    assert faults.plan_exit_code() == 0
