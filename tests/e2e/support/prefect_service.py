"""The Prefect server (PyPI `prefect`, pinned below) on loopback: its own PREFECT_HOME with a
SQLite database, no telemetry, no UI, a free port; it serves the REST API (and its OpenAPI
description at /api/openapi.json) that tests/e2e/providers/prefect describes.

Prefect is installed once, outside the repository, into a virtualenv keyed by version:
${LUAFORM_CACHE:-~/.cache/luaform}/prefect-VERSION/ (`python3 tests/e2e/support/prefect_service.py
--install` does it ahead of a run, and prints how long it took). Beside it, a database that the
server's migrations have already been run on (prefect-VERSION-template/); each new server gets a
copy of it, so that only the first start of a machine pays for the migrations.

The run shares one server (the `prefect` fixture below, shared_servers.py); scenarios keep apart
by naming what they make with unique(). A scenario that stops the server has one of its own
(`own_prefect`)."""
from __future__ import annotations

import argparse
import fcntl
import os
import secrets
import shutil
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

if __package__ in (None, ""):  # run as a script: `support` is the directory above this one
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pytest  # noqa: E402

from support import shared_servers  # noqa: E402
from support.json_http import json_request  # noqa: E402
from support.loopback import LoopbackServer, free_port  # noqa: E402

VERSION = "3.9.1"  # the newest 3.9 release
PYTHON = "/usr/bin/python3"
INSTALL_COMMAND = "python3 tests/e2e/support/prefect_service.py --install"
DATABASE = "prefect.db"
# A start from the migrated copy takes 7-9 s on two cores (5 s of it Python importing the
# server), one on an empty database 15-25 s (the migrations run first); both take longer on a
# machine busy with other work.
START_SECONDS = 240
MIGRATE_SECONDS = 600


def cache_root() -> Path:
    return Path(os.environ.get("LUAFORM_CACHE") or Path.home() / ".cache" / "luaform")


def venv_dir() -> Path:
    return cache_root() / f"prefect-{VERSION}"


def template_dir() -> Path:
    """Where the migrated database is kept, next to the virtualenv."""
    return cache_root() / f"prefect-{VERSION}-template"


def prefect_binary() -> Path:
    return venv_dir() / "bin" / "prefect"


def marker() -> Path:
    """Written last by install(): a virtualenv without it is a broken or unfinished one."""
    return venv_dir() / ".luaform-installed"


def lock_file() -> Path:
    return cache_root() / f"prefect-{VERSION}.lock"


def installed() -> bool:
    # bin/python3 links to the interpreter that made the virtualenv: gone, the install is too.
    return (marker().is_file() and prefect_binary().is_file()
            and (venv_dir() / "bin" / "python3").exists())


def template_database() -> Path:
    return template_dir() / DATABASE


def ensure_installed(timings: dict[str, float] | None = None) -> Path:
    """The `prefect` executable, installing it (and migrating the template database) first when
    missing. Workers and runs that need it at once take turns (a lock in the cache); the second
    finds it done. `timings` gets the seconds each step that ran took."""
    if installed() and template_database().is_file():
        return prefect_binary()
    timings = {} if timings is None else timings
    cache_root().mkdir(parents=True, exist_ok=True)
    with lock_file().open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not installed():
            started = time.monotonic()
            install()
            timings["install"] = time.monotonic() - started
        if not template_database().is_file():
            started = time.monotonic()
            migrate_template()
            timings["migrate"] = time.monotonic() - started
    return prefect_binary()


def install() -> None:
    """A fresh virtualenv at venv_dir() with prefect==VERSION. Called under the lock."""
    dest = venv_dir()
    shutil.rmtree(dest, ignore_errors=True)  # what an interrupted install left
    steps = [[PYTHON, "-m", "venv", str(dest)],
             [str(dest / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check",
              f"prefect=={VERSION}"]]
    for step in steps:
        try:
            result = subprocess.run(step, capture_output=True, text=True, check=False,
                                    timeout=1800)
        except (OSError, subprocess.TimeoutExpired) as e:
            result = subprocess.CompletedProcess(step, -1, "", str(e))
        if result.returncode != 0:
            shutil.rmtree(dest, ignore_errors=True)
            raise AssertionError(
                f"could not install prefect {VERSION} into {dest}: `{' '.join(step)}` failed "
                f"(it needs PyPI):\n{result.stdout}{result.stderr}\n"
                f"Install it with: {INSTALL_COMMAND} (from the repository's root)")
    marker().write_text(f"prefect=={VERSION}\n")


def server_environment(home: Path) -> dict[str, str]:
    """A server whose state is all in `home`, its working directory too: settings from nowhere
    else (no PREFECT_ variable of the caller, no profile, no .env or prefect.toml of the
    caller's directory), no telemetry, no UI."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    env.update({
        "PREFECT_HOME": str(home),
        "PREFECT_PROFILES_PATH": str(home / "profiles.toml"),
        # 3.x's name (PREFECT_API_DATABASE_CONNECTION_URL is its older alias).
        "PREFECT_SERVER_DATABASE_CONNECTION_URL": f"sqlite+aiosqlite:///{home / DATABASE}",
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "DO_NOT_TRACK": "1",
        "PREFECT_SERVER_UI_ENABLED": "false",  # (PREFECT_UI_ENABLED is its older alias)
        "PREFECT_LOGGING_LEVEL": "WARNING",
        "PREFECT_SERVER_LOGGING_LEVEL": "WARNING",
        "PYTHONDONTWRITEBYTECODE": "1",
    })
    return env


def migrate_template() -> None:
    """Runs the server's migrations once on an empty database in template_dir(). Called under
    the lock."""
    dest = template_dir()
    shutil.rmtree(dest, ignore_errors=True)
    work = dest.with_name(dest.name + f".{os.getpid()}")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    command = [str(prefect_binary()), "server", "database", "upgrade", "--yes"]
    try:
        result = subprocess.run(command, env=server_environment(work), cwd=work,
                                capture_output=True, text=True, check=False,
                                timeout=MIGRATE_SECONDS)
    except subprocess.TimeoutExpired as e:
        result = subprocess.CompletedProcess(command, -1, e.stdout or "", "timed out")
    if result.returncode != 0 or not (work / DATABASE).is_file():
        shutil.rmtree(work, ignore_errors=True)
        raise AssertionError(f"`{' '.join(command)}` (migrating a template database) failed:\n"
                             f"{result.stdout}{result.stderr}")
    keep = dest.with_name(dest.name + f".{os.getpid()}.keep")
    shutil.rmtree(keep, ignore_errors=True)
    keep.mkdir()
    # The database alone (not the memo store or logs), as one file whatever its write-ahead log
    # still held.
    source, copy = sqlite3.connect(work / DATABASE), sqlite3.connect(keep / DATABASE)
    try:
        source.backup(copy)
    finally:
        copy.close()
        source.close()
    shutil.rmtree(work, ignore_errors=True)
    keep.rename(dest)


BUSY_RETRIES = 8


class PrefectApi:
    """The REST API at `url` ("http://127.0.0.1:PORT/api"); request() calls it as someone
    outside Terraform would."""

    def __init__(self, url: str, *, log: Path | None = None):
        self.url = url
        self.log = log

    def request(self, method: str, path: str, body: object = None,
                timeout: float = 30) -> tuple[int, object]:
        """(status, the decoded JSON body or None) for `method` on url + path ("/variables/");
        errors are answers too: 404, 409 and 403 with {"detail": "..."}, 422 with
        {"exception_message", "exception_detail": [...], "request_body"}. A 204 has None.
        A 503 (SQLite busy while other scenarios write: Prefect answers "Service Unavailable")
        is tried again a few times, as the provider's HTTP client does."""
        return json_request(self.url + path, method, body, timeout=timeout, busy=503,
                            attempts=BUSY_RETRIES, wait=0.2)

    def unique(self, label: str = "item") -> str:
        """A name no other scenario of the run uses: "label-7". Lower case letters, digits and
        dashes (given a label of those) suit every kind of name: a variable's (letters, digits,
        dashes, underscores), a block type's slug (no underscores), and the names of work pools,
        flows, deployments, block documents and concurrency limits (none of / % & > <)."""
        if os.environ.get(shared_servers.SHARED_DIRECTORY_VARIABLE):
            number = shared_servers.next_namespace("prefect")
        else:  # outside the suite's conftest
            number = f"{os.getpid()}-{secrets.token_hex(3)}"
        return f"{label.lower()}-{number}"


class Prefect(LoopbackServer, PrefectApi):
    """A `prefect server start` process of its own, serving the API itself (uvicorn in that
    process) in a process group of its own, its PREFECT_HOME and SQLite database (a copy of the
    template) in `directory`."""

    def __init__(self, directory: Path, *, shared: bool = False):
        self.binary = ensure_installed()
        LoopbackServer.__init__(self, "prefect server", directory / "prefect.log")
        self.directory = directory
        self.home = directory / "home"
        self.home.mkdir(exist_ok=True)
        shutil.copy2(template_database(), self.home / DATABASE)
        self.port = free_port()
        PrefectApi.__init__(self, f"http://127.0.0.1:{self.port}/api", log=self.log)
        self.start(shared=shared)

    def command(self) -> list[str]:
        # The API alone: no UI, and none of the server's background services (the scheduler
        # making flow runs of deployments, the foreman marking work pools and workers offline,
        # late runs, event triggers...): what a scenario reads back is what the API wrote.
        return [str(self.binary), "server", "start", "--host", "127.0.0.1",
                "--port", str(self.port), "--no-ui", "--no-services", "--analytics-off"]

    def ready(self) -> bool:
        with urllib.request.urlopen(f"{self.url}/health", timeout=2) as response:
            return response.status == 200

    def start(self, *, shared: bool = False) -> None:
        """LoopbackServer.start with Prefect's environment, a longer wait and a process group
        of its own even when not shared (stop() ends the group)."""
        started = time.monotonic()
        with self.log.open("a") as log:
            self.process = subprocess.Popen(self.command(), stdout=log,
                                            stderr=subprocess.STDOUT,
                                            env=server_environment(self.home), cwd=self.home,
                                            start_new_session=True)
        deadline = started + START_SECONDS
        while time.monotonic() < deadline:
            try:
                if self.ready():
                    self.start_seconds = time.monotonic() - started
                    return
            except (OSError, ValueError):  # refused, reset, timed out (URLError is one)
                pass
            if self.process.poll() is not None:
                break
            time.sleep(0.2)
        self.stop()
        raise AssertionError(f"{self.name} did not start:\n{self.log.read_text()}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            shared_servers.stop_group(self.process.pid)
            self.process.wait(timeout=20)


def start_shared(directory: Path) -> dict:
    """shared_servers.shared_server's start for the run's Prefect server."""
    server = Prefect(directory, shared=True)
    return {"pid": server.process.pid, "url": server.url, "log": str(server.log)}


# Fixtures: a test module (or conftest.py) that imports them uses them.

@pytest.fixture(scope="session")
def prefect() -> PrefectApi:
    """The run's Prefect server, started by the first scenario that needs it and stopped when
    the run ends (shared_servers.close_run); each scenario names what it makes with unique()."""
    found = shared_servers.shared_server("prefect", start_shared)
    return PrefectApi(found["url"], log=Path(found["log"]))


@pytest.fixture
def own_prefect(tmp_path) -> Prefect:
    """A Prefect server of this scenario's own, for one that stops and starts it."""
    server = Prefect(tmp_path)
    yield server
    server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--install", action="store_true",
                        help=f"install prefect {VERSION} (and migrate the template database) "
                             "into the cache, and print how long it took")
    args = parser.parse_args()
    if not args.install:
        parser.print_usage()
        return 2
    started, timings = time.monotonic(), {}
    try:
        ensure_installed(timings)
    except AssertionError as e:
        print(e, file=sys.stderr)
        return 1
    steps = "".join(f", {step} {seconds:.1f} s" for step, seconds in timings.items())
    print(f"prefect {VERSION} at {prefect_binary()}: ready in "
          f"{time.monotonic() - started:.1f} s{steps or ' (already installed)'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
