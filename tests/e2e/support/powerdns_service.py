"""Debian's PowerDNS Authoritative server (pdns-server with the gsqlite3 backend) on loopback:
a fresh SQLite database made from the package's schema, a free DNS port and a free port for its
webserver, which serves the HTTP API (X-API-Key) that tests/e2e/providers/powerdns describes.

The run shares one server (the `powerdns` fixture below, shared_servers.py); scenarios keep
apart by working in zones of their own (PowerDnsApi.unique_zone). A scenario that stops the
server has one of its own (`own_powerdns`). The packages are installed with apt-get the first
time a server is needed and `pdns_server` is missing; the install starts no system service
(policy-rc.d) and, under systemd, leaves the one it ships stopped and disabled."""
from __future__ import annotations

import fcntl
import os
import secrets
import shutil
import socket
import sqlite3
import subprocess
import tempfile
import urllib.request
from pathlib import Path

import pytest

from support import shared_servers
from support.json_http import json_request
from support.loopback import LoopbackServer, free_port

PACKAGES = ("pdns-server", "pdns-backend-sqlite3")
BINARY = "pdns_server"
SCHEMA = Path("/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql")
SCHEMA_DOC = Path("/usr/share/doc/pdns-backend-sqlite3/schema.sqlite3.sql")  # a link to it
POLICY_RC_D = Path("/usr/sbin/policy-rc.d")
INSTALL_LOCK = Path(tempfile.gettempdir()) / "luaform-powerdns-install.lock"
SERVER_ID = "localhost"  # the only server an Authoritative server's API knows
# pdns 4.7's SQLite backend begins its transactions deferred: a zone PATCH or DELETE that meets
# another connection's write fails with "database is locked", answered 500 with the transaction
# rolled back (upstream issue 14564, fixed in 4.9.2 by "begin immediate"). Scenarios share the
# server, so their own calls (PowerDnsApi.request) try again; the provider under test meets it
# as any client of this server would.
LOCKED_RETRIES = 8


def binary() -> str | None:
    # /usr/sbin is not on every user's PATH.
    return shutil.which(BINARY) or shutil.which(BINARY, path="/usr/sbin:/usr/local/sbin")


def installed() -> bool:
    return binary() is not None and (SCHEMA.is_file() or SCHEMA_DOC.is_file())


def ensure_installed() -> str:
    """pdns_server's path, installing PACKAGES first when it or the sqlite3 schema is missing.
    Workers that need it at once take turns (INSTALL_LOCK); the second finds it installed."""
    if installed():
        return binary()
    if os.geteuid() != 0:
        raise AssertionError(f"PowerDNS is not installed: apt-get install {' '.join(PACKAGES)} "
                             "(as root)")
    with INSTALL_LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not installed():
            install()
    if not installed():
        raise AssertionError(f"apt-get installed {' '.join(PACKAGES)} but {BINARY} or "
                             f"{SCHEMA} is still missing")
    return binary()


def install() -> None:
    """apt-get install PACKAGES (apt-get update first if that fails), leaving no pdns service
    running or enabled."""
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    apt = ["apt-get", "-o", "DPkg::Lock::Timeout=600"]
    # No system pdns service starts during the install: invoke-rc.d and deb-systemd-invoke ask
    # policy-rc.d, and 101 means "not allowed". One already there is left as it is.
    own_policy = not POLICY_RC_D.exists()
    if own_policy:
        POLICY_RC_D.write_text("#!/bin/sh\n# luaform tests: installing PowerDNS, starts no "
                               "service\nexit 101\n")
        POLICY_RC_D.chmod(0o755)
    try:
        result = subprocess.run([*apt, "install", "-y", "--no-install-recommends", *PACKAGES],
                                env=env, capture_output=True, text=True, check=False)
        if result.returncode != 0:  # the package lists may be missing or stale
            subprocess.run([*apt, "update"], env=env, capture_output=True, check=False)
            result = subprocess.run(
                [*apt, "install", "-y", "--no-install-recommends", *PACKAGES],
                env=env, capture_output=True, text=True, check=False)
    finally:
        if own_policy:
            POLICY_RC_D.unlink(missing_ok=True)
    if result.returncode != 0:
        raise AssertionError(f"apt-get install {' '.join(PACKAGES)} failed:\n"
                             f"{result.stdout}{result.stderr}")
    if Path("/run/systemd/system").is_dir():
        # Enabled by the package: it would start at the next boot, on port 53.
        subprocess.run(["systemctl", "disable", "--now", "pdns.service"],
                       capture_output=True, check=False)


def free_dns_port() -> int:
    """A loopback port free for both TCP and UDP (the DNS server listens on both)."""
    for _ in range(50):
        with socket.socket() as tcp:
            tcp.bind(("127.0.0.1", 0))
            port = tcp.getsockname()[1]
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
                try:
                    udp.bind(("127.0.0.1", port))
                except OSError:
                    continue
                return port
    raise AssertionError("no loopback port free for both TCP and UDP")


class PowerDnsApi:
    """The HTTP API at `url` ("http://127.0.0.1:PORT/api/v1"), authenticated by `api_key`;
    request() calls it as someone outside Terraform would."""

    def __init__(self, url: str, api_key: str, *, dns_port: int = 0, log: Path | None = None):
        self.url = url
        self.api_key = api_key
        self.server_id = SERVER_ID
        self.dns_port = dns_port
        self.log = log

    @property
    def server_url(self) -> str:
        """The URL of server "localhost": what the zones, tsigkeys... paths hang off."""
        return f"{self.url}/servers/{self.server_id}"

    def request(self, method: str, path: str, body: object = None,
                timeout: float = 10) -> tuple[int, object]:
        """(status, the decoded JSON body or None) for `method` on url + path ("/servers/...");
        errors are answers too (404, 422 with {"error": ...}). A 500 is tried again a few
        times (LOCKED_RETRIES)."""
        return json_request(self.url + path, method, body, headers={"X-API-Key": self.api_key},
                            timeout=timeout, busy=500, attempts=LOCKED_RETRIES)

    def unique_zone(self, label: str = "zone") -> str:
        """A zone name no other scenario of the run uses, spelt as the API gives it back (lower
        case, a trailing dot), which is also its zone id: "label-7.luaform.test."."""
        if os.environ.get(shared_servers.SHARED_DIRECTORY_VARIABLE):
            number = shared_servers.next_namespace("powerdns")
        else:  # outside the suite's conftest
            number = f"{os.getpid()}-{secrets.token_hex(3)}"
        return f"{label.lower()}-{number}.luaform.test."


class PowerDns(LoopbackServer, PowerDnsApi):
    """A pdns_server process of its own (foreground, no guardian), its database, configuration
    and control socket in `directory`."""

    def __init__(self, directory: Path, *, shared: bool = False):
        self.binary = ensure_installed()
        LoopbackServer.__init__(self, "pdns_server", directory / "pdns.log")
        self.directory = directory
        self.dns_port, self.webserver_port = free_dns_port(), free_port()
        PowerDnsApi.__init__(self, f"http://127.0.0.1:{self.webserver_port}/api/v1",
                             secrets.token_hex(16), dns_port=self.dns_port, log=self.log)
        self.database = directory / "pdns.sqlite3"
        schema = SCHEMA if SCHEMA.is_file() else SCHEMA_DOC
        db = sqlite3.connect(self.database)
        try:
            db.executescript(schema.read_text())
        finally:
            db.close()
        self.config_dir = directory / "config"
        self.config_dir.mkdir(exist_ok=True)
        (self.config_dir / "pdns.conf").write_text("# every setting is on the command line\n")
        self.socket_dir = directory / "run"
        self.socket_dir.mkdir(exist_ok=True)
        self.start(shared=shared)

    def command(self) -> list[str]:
        return [self.binary, f"--config-dir={self.config_dir}",
                "--daemon=no", "--guardian=no", "--disable-syslog", "--write-pid=no",
                "--log-timestamp=no", f"--socket-dir={self.socket_dir}",
                "--local-address=127.0.0.1", f"--local-port={self.dns_port}",
                "--launch=gsqlite3", f"--gsqlite3-database={self.database}",
                "--gsqlite3-dnssec=yes",  # cryptokeys, and DNSSEC metadata
                "--api=yes", f"--api-key={self.api_key}",
                "--webserver=yes", "--webserver-address=127.0.0.1",
                f"--webserver-port={self.webserver_port}",
                "--webserver-allow-from=127.0.0.0/8",
                # What the API changed is what DNS answers at once.
                "--cache-ttl=0", "--negquery-cache-ttl=0", "--query-cache-ttl=0",
                "--receiver-threads=1", "--distributor-threads=1",
                "--security-poll-suffix="]  # no DNS query for its security status

    def ready(self) -> bool:
        request = urllib.request.Request(f"{self.url}/servers/{SERVER_ID}",
                                         headers={"X-API-Key": self.api_key})
        with urllib.request.urlopen(request, timeout=1) as response:
            return response.status == 200


def start_shared(directory: Path) -> dict:
    """shared_servers.shared_server's start for the run's PowerDNS."""
    server = PowerDns(directory, shared=True)
    return {"pid": server.process.pid, "url": server.url, "api_key": server.api_key,
            "dns_port": server.dns_port, "log": str(server.log)}


# Fixtures: a test module (or conftest.py) that imports them uses them.

@pytest.fixture(scope="session")
def powerdns() -> PowerDnsApi:
    """The run's PowerDNS, started by the first scenario that needs it and stopped when the
    run ends (shared_servers.close_run); each scenario keeps to zones of its own
    (unique_zone)."""
    found = shared_servers.shared_server("powerdns", start_shared)
    return PowerDnsApi(found["url"], found["api_key"], dns_port=found["dns_port"],
                       log=Path(found["log"]))


@pytest.fixture
def own_powerdns(tmp_path) -> PowerDns:
    """A pdns_server of this scenario's own, for one that stops and starts it."""
    server = PowerDns(tmp_path)
    yield server
    server.stop()
