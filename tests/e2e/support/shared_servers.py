"""Real servers started once per test run and shared by every scenario that needs one.

pytest-xdist runs the scenarios in several worker processes. The run's controller makes a
directory for the run (its path in SHARED_DIRECTORY_VARIABLE, which the workers inherit); the
first worker that needs a server starts it under a lock in that directory, in a process group
of its own so that it outlives the worker, and writes down how to reach it; every other worker
reads that. When the run ends, the controller stops every server written down there. Each
scenario works in a namespace of its own on the shared server (next_namespace), so scenarios
running at once never see each other's data.
"""
from __future__ import annotations

import fcntl
import json
import os
import shutil
import signal
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

SHARED_DIRECTORY_VARIABLE = "LUAFORM_E2E_SHARED_SERVERS"


def open_run() -> Path:
    """Called by the run's controller before the workers start."""
    directory = Path(tempfile.mkdtemp(prefix="luaform-e2e-servers-"))
    os.environ[SHARED_DIRECTORY_VARIABLE] = str(directory)
    return directory


def close_run(directory: Path) -> None:
    """Called by the run's controller after the last scenario: stops every shared server."""
    for record in sorted(directory.glob("*.json")):
        try:
            found = json.loads(record.read_text())
            pids = [found["pid"], *found.get("more_pids", [])]
        except (OSError, ValueError, KeyError):
            continue
        for pid in pids:
            stop_group(pid)
    shutil.rmtree(directory, ignore_errors=True)


def stop_group(pid: int, grace_seconds: float = 20) -> None:
    """SIGTERM to the server's process group, SIGKILL to what is left after the grace time."""
    try:
        os.killpg(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + grace_seconds
    while time.monotonic() < deadline:
        if not running(pid):
            return
        time.sleep(0.05)
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def running(pid: int) -> bool:
    """Whether process `pid` runs: not gone, and not a zombie its new parent (the worker that
    started it has ended) has yet to reap."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def run_directory() -> Path:
    value = os.environ.get(SHARED_DIRECTORY_VARIABLE)
    if not value:
        raise AssertionError(f"{SHARED_DIRECTORY_VARIABLE} is not set: shared servers are "
                             "started by tests/e2e/conftest.py's pytest_configure")
    return Path(value)


@contextmanager
def locked(name: str) -> Iterator[Path]:
    """The run's directory, held under a lock of its own for `name` across the workers."""
    directory = run_directory()
    with (directory / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield directory
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def shared_server(name: str, start: Callable[[Path], dict]) -> dict:
    """How to reach the run's server `name`: what `start(directory)` returned when the first
    scenario that needed it started it (a JSON-able dict whose "pid" leads a process group,
    and "more_pids" the groups of the processes it works with, if any)."""
    with locked(name) as directory:
        record = directory / f"{name}.json"
        if record.exists():
            return json.loads(record.read_text())
        place = directory / name
        if place.exists():
            # An earlier scenario's start failed (a server slow to start on a loaded machine):
            # its directory is kept beside, logs and all, and this scenario starts it again.
            tries = len(list(directory.glob(f"{name}.failed-*")))
            place.rename(directory / f"{name}.failed-{tries + 1}")
        place.mkdir()
        found = start(place)
        record.write_text(json.dumps(found))
        return found


def next_namespace(name: str) -> int:
    """1, 2, 3, ... across every worker of the run: the namespace of the next scenario that
    uses server `name`."""
    with locked(f"{name}-namespaces") as directory:
        counter = directory / f"{name}-namespaces.count"
        number = int(counter.read_text()) + 1 if counter.exists() else 1
        counter.write_text(str(number))
        return number
