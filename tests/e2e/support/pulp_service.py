"""Pulp (PyPI `pulpcore`, pinned below, with the file plugin it carries) on loopback: its API
(gunicorn) and one task worker, over a PostgreSQL 15 cluster of its own; it serves the REST API
(and its OpenAPI 3.1 description at /pulp/api/v3/docs/api.json) that tests/e2e/providers/pulp
describes. Pulp answers most writes 202 Accepted with a task to follow, and names its objects
by links (`pulp_href`): what the mapping's 202 polling and link convention are tested on.

Pulp is installed once, outside the repository, into a virtualenv keyed by version:
${LUAFORM_CACHE:-~/.cache/luaform}/pulp-VERSION/ (`python3 tests/e2e/support/pulp_service.py
--install` does it ahead of a run, and prints how long it took). Beside it, a tarball of a
cluster that Pulp's migrations have already been run on (pulp-VERSION-cluster.tar); each new
server unpacks a copy, so that only the first start of a machine pays for initdb and the
migrations (about 20 s).

The run shares one server (conftest's `pulp` fixture, shared_servers.py); scenarios keep apart
by naming what they make with a prefix of their own."""
from __future__ import annotations

import argparse
import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from base64 import b64encode
from pathlib import Path

if __package__ in (None, ""):  # run as a script: `support` is the directory above this one
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from support.loopback import LoopbackServer, free_port  # noqa: E402
from support.postgresql_service import BIN, as_postgres  # noqa: E402

VERSION = "3.123.1"
PYTHON = "/usr/bin/python3"
INSTALL_COMMAND = "python3 tests/e2e/support/pulp_service.py --install"
ADMIN_PASSWORD = "pulp-admin-secret-8e21"
DATABASE = "pulp"


def cache_root() -> Path:
    return Path(os.environ.get("LUAFORM_CACHE") or Path.home() / ".cache" / "luaform")


def venv_dir() -> Path:
    return cache_root() / f"pulp-{VERSION}"


def cluster_tar() -> Path:
    """The migrated cluster, beside the virtualenv."""
    return cache_root() / f"pulp-{VERSION}-cluster.tar"


def marker() -> Path:
    """Written last by install(): a virtualenv without it is a broken or unfinished one."""
    return venv_dir() / ".luaform-installed"


def binary(name: str) -> Path:
    return venv_dir() / "bin" / name


def installed() -> bool:
    return (marker().is_file() and binary("pulpcore-api").is_file()
            and (venv_dir() / "bin" / "python3").exists())


def run_step(step: list[str], what: str, timeout: int = 1800, **kwargs) -> None:
    try:
        result = subprocess.run(step, capture_output=True, text=True, check=False,
                                timeout=timeout, **kwargs)
    except (OSError, subprocess.TimeoutExpired) as e:
        result = subprocess.CompletedProcess(step, -1, "", str(e))
    if result.returncode != 0:
        raise AssertionError(f"{what} failed ({' '.join(step)}):\n{result.stdout[-2000:]}"
                             f"\n{result.stderr[-4000:]}")


def ensure_installed(timings: dict[str, float] | None = None) -> None:
    """Installs Pulp and makes the migrated cluster, when missing. Workers and runs that need it
    at once take turns (a lock in the cache); the second finds it done."""
    if installed() and cluster_tar().is_file():
        return
    timings = {} if timings is None else timings
    cache_root().mkdir(parents=True, exist_ok=True)
    with (cache_root() / f"pulp-{VERSION}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not installed():
            started = time.monotonic()
            shutil.rmtree(venv_dir(), ignore_errors=True)  # what an interrupted install left
            run_step([PYTHON, "-m", "venv", str(venv_dir())], "python3 -m venv (apt-get install "
                     "python3-venv)")
            run_step([str(binary("pip")), "install", "--quiet", "--disable-pip-version-check",
                      f"pulpcore=={VERSION}"], f"pip install pulpcore=={VERSION} (it needs the "
                     "PyPI registry)")
            marker().write_text(VERSION + "\n")
            timings["install"] = time.monotonic() - started
        if not cluster_tar().is_file():
            started = time.monotonic()
            make_cluster_tar()
            timings["migrate"] = time.monotonic() - started


class Place:
    """A directory the postgres user can enter (pytest's are mode 0700), with Pulp's settings."""

    def __init__(self, home: Path | None = None):
        self.home = home or Path(tempfile.mkdtemp(prefix="luaform-pulp-"))
        self.home.mkdir(parents=True, exist_ok=True)
        self.home.chmod(0o755)
        self.socket_dir = self.home / "pg"
        self.socket_dir.mkdir()
        shutil.chown(self.socket_dir, "postgres", "postgres")
        self.data = self.socket_dir / "data"
        self.pg_port = free_port()
        self.api_port = free_port()
        for sub in ("media", "tmp", "assets"):
            (self.home / sub).mkdir()
        key = self.home / "db.key"
        key.write_text(b64encode(os.urandom(32)).decode().replace("+", "-").replace("/", "_"))
        self.settings = self.home / "settings.py"
        self.settings.write_text(f"""SECRET_KEY = "luaform-e2e-only"
CONTENT_ORIGIN = "http://127.0.0.1:{self.api_port}"
DB_ENCRYPTION_KEY = "{key}"
DATABASES = {{"default": {{"ENGINE": "django.db.backends.postgresql", "NAME": "{DATABASE}",
    "USER": "pulp", "PASSWORD": "pulp", "HOST": "{self.socket_dir}", "PORT": "{self.pg_port}",
    "CONN_MAX_AGE": 0}}}}
MEDIA_ROOT = "{self.home / 'media'}"
STATIC_ROOT = "{self.home / 'assets'}"
WORKING_DIRECTORY = "{self.home / 'tmp'}"
FILE_UPLOAD_TEMP_DIR = "{self.home / 'tmp'}"
ANALYTICS = False
# Every request authenticates by basic auth, and Django's default hasher (PBKDF2, a million
# rounds) spent a third of a second of CPU on each: most of what the Pulp scenarios cost. A
# fast hasher first, as Django's documentation advises for tests; PBKDF2 still reads a
# cluster's older hash, which the first login then stores again with the fast one.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher",
                    "django.contrib.auth.hashers.PBKDF2PasswordHasher"]
""")

    def env(self) -> list[str]:
        """`env` arguments that point Pulp's commands at this place."""
        return ["env", f"PULP_SETTINGS={self.settings}", f"HOME={self.home}"]


class ClusterServer(LoopbackServer):
    """postgres in the foreground, as the postgres user, on the place's cluster."""

    def __init__(self, place: Place, log: Path):
        super().__init__("postgres (pulp)", log)
        self.place = place

    def command(self) -> list[str]:
        return [*as_postgres(), str(BIN / "postgres"), "-D", str(self.place.data),
                "-p", str(self.place.pg_port), "-k", str(self.place.socket_dir),
                "-c", "listen_addresses=", "-c", "fsync=off", "-c", "synchronous_commit=off",
                "-c", "full_page_writes=off"]

    def ready(self) -> bool:
        return subprocess.run([str(BIN / "pg_isready"), "-h", str(self.place.socket_dir),
                               "-p", str(self.place.pg_port)], capture_output=True,
                              check=False).returncode == 0

    def psql(self, sql: str) -> None:
        run_step([str(BIN / "psql"), "-h", str(self.place.socket_dir), "-p",
                  str(self.place.pg_port), "-U", "postgres", "-v", "ON_ERROR_STOP=1", "-qAt",
                  "-c", sql], "psql")


def make_cluster_tar() -> None:
    """initdb, Pulp's migrations and its admin's password, kept as a tarball. Under the lock."""
    place = Place()
    try:
        run_step([*as_postgres(), str(BIN / "initdb"), "-D", str(place.data), "-U", "postgres",
                  "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"], "initdb", timeout=300,
                 cwd="/tmp")
        cluster = ClusterServer(place, place.home / "postgres.log")
        cluster.start()
        try:
            cluster.psql("CREATE ROLE pulp LOGIN PASSWORD 'pulp'")
            cluster.psql(f"CREATE DATABASE {DATABASE} OWNER pulp")
            manager = [*place.env(), str(binary("pulpcore-manager"))]
            run_step([*manager, "migrate", "--noinput"], "pulpcore-manager migrate", cwd=place.home)
            run_step([*manager, "reset-admin-password", "--password", ADMIN_PASSWORD],
                     "pulpcore-manager reset-admin-password", cwd=place.home)
        finally:
            cluster.stop()
        partial = cluster_tar().with_suffix(".partial")
        run_step(["tar", "-C", str(place.socket_dir), "-cf", str(partial), "data"], "tar")
        partial.replace(cluster_tar())
    finally:
        shutil.rmtree(place.home, ignore_errors=True)


class PulpProcess(LoopbackServer):
    """pulpcore-api or pulpcore-worker of `place`; `ready` asks the API's status."""

    def __init__(self, name: str, place: Place, command: list[str], *, shared: bool):
        super().__init__(name, place.home / f"{name}.log")
        self.place = place
        self.arguments = command
        self.start(shared=shared)

    def command(self) -> list[str]:
        return [*self.place.env(), *self.arguments]

    def ready(self) -> bool:
        url = f"http://127.0.0.1:{self.place.api_port}/pulp/api/v3/status/"
        status = json.loads(urllib.request.urlopen(url, timeout=2).read())
        return bool(status["database_connection"]["connected"] and status["online_api_apps"]
                    and (self.name != "pulpcore-worker" or status["online_workers"]))


def start_shared(directory: Path) -> dict:
    """shared_servers.shared_server's start for the run's Pulp: its API leads the record, the
    worker and the database follow (stopped in that order)."""
    ensure_installed()
    # In the run's directory, removed with it; the postgres user passes through to its cluster.
    for parent in (directory.parent, directory):
        parent.chmod(0o755)
    place = Place(directory / "pulp")
    run_step(["tar", "-C", str(place.socket_dir), "-xf", str(cluster_tar())], "tar")
    run_step(["chown", "-R", "postgres:postgres", str(place.data)], "chown")
    cluster = ClusterServer(place, directory / "postgres.log")
    cluster.start(shared=True)
    api = PulpProcess("pulpcore-api", place,
                      [str(binary("pulpcore-api")), "--bind", f"127.0.0.1:{place.api_port}",
                       "--workers", "1", "--no-control-socket", "--access-logfile", "-"],
                      shared=True)
    worker = PulpProcess("pulpcore-worker", place, [str(binary("pulpcore-worker"))], shared=True)
    return {"pid": api.process.pid, "more_pids": [worker.process.pid, cluster.process.pid],
            "url": f"http://127.0.0.1:{place.api_port}", "home": str(place.home)}


class PulpAccess:
    """Pulp's API at `url` as its admin, for changing and reading objects behind Terraform's
    back; `prefix` ("t7-") starts the names of what a scenario makes."""

    def __init__(self, url: str, prefix: str):
        self.url = url
        self.prefix = prefix

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, object]:
        data = json.dumps(body).encode() if body is not None else None
        credentials = b64encode(f"admin:{ADMIN_PASSWORD}".encode()).decode()
        request = urllib.request.Request(
            self.url + path, data=data, method=method,
            headers={"Content-Type": "application/json", "Authorization": f"Basic {credentials}"})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                text = response.read().decode()
                return response.status, json.loads(text) if text else None
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode(errors="replace")

    def changed(self, href: str, fields: dict) -> None:
        """PATCHes the object at `href` and waits for the task Pulp answers with."""
        status, answer = self.request("PATCH", href, fields)
        assert status in (200, 202), (status, answer)
        if status == 202:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                _, task = self.request("GET", answer["task"])
                if task["state"] in ("completed", "failed", "canceled"):
                    assert task["state"] == "completed", task
                    return
                time.sleep(0.1)
            raise AssertionError(f"task {answer['task']} did not finish in 60 s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--install", action="store_true",
                        help="install Pulp and make its migrated cluster, if missing")
    if not parser.parse_args().install:
        parser.print_help()
        return
    timings: dict[str, float] = {}
    ensure_installed(timings)
    done = ", ".join(f"{step} {seconds:.0f} s" for step, seconds in timings.items())
    print(f"pulp {VERSION}: {done or 'already installed'} ({venv_dir()})")


if __name__ == "__main__":
    main()
