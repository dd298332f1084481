"""The release set of host/packaging/release/build_release.sh, as users and registries get it:
hosts that need nothing from the system but the kernel, the registry's files (sums over every
zip and the manifest, a binary signature that verifies, the manifest), the CLI's whole cycle
inside an empty root per target (arm64 through qemu-user), HTTPS from there with the system's
bundle named by SSL_CERT_FILE, and `tofu init` from a network mirror served over HTTPS."""
from __future__ import annotations

import base64
import functools
import hashlib
import http.server
import json
import os
import re
import ssl
import subprocess
import zipfile
from pathlib import Path

import pytest

from cli_log import assert_providers_ended_by_themselves
from support.harness import SOURCE_PREFIX, hcl_string, required_providers
from support.loopback import ServedInThread, self_signed
from support.object_api import ObjectApi, Served
from release_root import ReleaseRoot

REPO = Path(__file__).resolve().parents[2]
TARGETS = os.environ.get("LUAFORM_RELEASE_TARGETS", "linux_amd64 linux_arm64").split()
LINUX_TARGETS = [target for target in TARGETS if target.startswith("linux_")]
MACHINES = {"linux_amd64": "Advanced Micro Devices X86-64", "linux_arm64": "AArch64"}


def release_zip(dist: Path, name: str, version: str, target: str) -> Path:
    return dist / f"terraform-provider-{name}_{version}_{target}.zip"


def unpacked_host(dist: Path, version: str, target: str, tmp_path: Path) -> Path:
    with zipfile.ZipFile(release_zip(dist, "localfs", version, target)) as archive:
        host = Path(archive.extract(f"terraform-provider-localfs_v{version}", tmp_path))
    host.chmod(0o755)
    return host


def readelf(*args: str) -> str:
    return subprocess.run(["readelf", *args], capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("target", LINUX_TARGETS)
def test_a_linux_host_is_one_static_file_for_its_machine(dist, version, target, tmp_path):
    host = unpacked_host(dist, version, target, tmp_path)
    assert MACHINES[target] in readelf("-h", str(host))
    # No dynamic section and no interpreter: no libc, no loader, no shared library at all,
    # so no glibc floor either; only the kernel's system calls.
    assert "There is no dynamic section" in readelf("-d", str(host))
    assert "INTERP" not in readelf("-l", str(host))
    # Stripped, and small enough to download per target.
    assert ".symtab" not in readelf("-S", "-W", str(host))
    assert host.stat().st_size < 40 * 1024 * 1024


@pytest.mark.parametrize("target", LINUX_TARGETS)
def test_a_linux_host_allocates_with_mimalloc(dist, version, target, tmp_path):
    # musl's malloc serialises a server's threads (tests/bench/README.md); the Linux hosts link
    # mimalloc in its place (host/allocator.cmake), which says so when asked to be verbose.
    host = unpacked_host(dist, version, target, tmp_path)
    ran = subprocess.run([str(host), "--version"], env={"MIMALLOC_VERBOSE": "1"},
                         capture_output=True, text=True, timeout=120, check=True)
    assert "mimalloc: process init" in ran.stderr, ran.stderr


def test_the_sums_cover_every_zip_and_the_manifest_and_the_signature_verifies(dist, version):
    for name in ("localfs", "restapi"):
        release = f"terraform-provider-{name}_{version}"
        manifest = dist / f"{release}_manifest.json"
        assert json.loads(manifest.read_text()) == {
            "version": 1, "metadata": {"protocol_versions": ["6.0", "5.0"]}}
        expected = sorted([f"{release}_{target}.zip" for target in TARGETS] +
                          [manifest.name])
        lines = (dist / f"{release}_SHA256SUMS").read_text().splitlines()
        assert sorted(line.split("  ")[1] for line in lines) == expected
        for line in lines:
            digest, file = line.split("  ")
            assert hashlib.sha256((dist / file).read_bytes()).hexdigest() == digest, file

        signature = dist / f"{release}_SHA256SUMS.sig"
        assert not signature.read_bytes().startswith(b"-----BEGIN"), "armoured, not binary"
        verified = subprocess.run(["gpg", "--batch", "--verify", str(signature),
                                   str(dist / f"{release}_SHA256SUMS")],
                                  capture_output=True, text=True, check=False)
        assert verified.returncode == 0, verified.stderr
        assert "Good signature" in verified.stderr


def localfs_config(version: str, source: str = f"{SOURCE_PREFIX}localfs") -> str:
    return f"""
terraform {{
  required_providers {{
    localfs = {{ source = {hcl_string(source)}, version = "= {version}" }}
  }}
}}

resource "localfs_file" "smoke" {{
  path           = "smoke.bin"
  content_base64 = "AAEC"
}}
"""


@pytest.mark.parametrize("target", LINUX_TARGETS)
def test_the_cli_installs_applies_plans_and_destroys_in_an_empty_root(
        dist, version, target, tofu_for, tmp_path):
    root = ReleaseRoot(tmp_path / "root", tofu_for(target))
    root.add_release(release_zip(dist, "localfs", version, target), "localfs")
    root.write(localfs_config(version))

    root.tofu("init", "-input=false")
    root.tofu("apply", "-auto-approve", "-input=false")
    assert (root.path / "work/smoke.bin").read_bytes() == b"\x00\x01\x02"
    assert root.tofu("plan", "-detailed-exitcode", "-input=false").returncode == 0
    # The CLI spoke protocol 6 with it, as the manifest says it may.
    assert "using plugin: version=6" in root.log()
    root.tofu("destroy", "-auto-approve", "-input=false")
    assert not (root.path / "work/smoke.bin").exists()
    assert_providers_ended_by_themselves(root.log())


def server_context(key: Path, cert: Path) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return context


@pytest.mark.parametrize("target", LINUX_TARGETS)
def test_https_from_an_empty_root_trusts_the_bundle_ssl_cert_file_names(
        dist, version, target, tofu_for, tmp_path):
    key, cert = self_signed(tmp_path, "server", "/CN=localhost",
                            "DNS:localhost,IP:127.0.0.1")
    served = Served(ObjectApi(), tls=server_context(key, cert))
    try:
        root = ReleaseRoot(tmp_path / "root", tofu_for(target))
        root.add_release(release_zip(dist, "restapi", version, target), "restapi")
        root.add_file("/ca.pem", cert)
        root.write(required_providers("restapi", version=f"= {version}") + f"""
provider "restapi" {{
  uri     = "{served.url}"
  retries = 0
}}

resource "restapi_object" "made" {{
  path = "/objects"
  data = jsonencode({{ name = "from an empty root" }})
}}
""")
        root.tofu("init", "-input=false")
        # No bundle anywhere in the root: the request must fail on the certificate.
        refused = root.tofu("apply", "-auto-approve", "-input=false", ok=(1,))
        assert "certificate" in refused.stderr.lower(), refused.stderr
        assert served.api.objects == {}

        root.extra_env["SSL_CERT_FILE"] = "/ca.pem"
        root.tofu("apply", "-auto-approve", "-input=false")
        assert [o["name"] for o in served.api.objects.values()] == ["from an empty root"]
        root.tofu("destroy", "-auto-approve", "-input=false")
        assert served.api.objects == {}
    finally:
        served.stop()


def h1_of(zip_file: Path) -> str:
    """The CLI's "h1:" hash of a provider package, computed independently of the packager."""
    with zipfile.ZipFile(zip_file) as archive:
        summary = "".join(f"{hashlib.sha256(archive.read(name)).hexdigest()}  {name}\n"
                          for name in sorted(archive.namelist()))
    return "h1:" + base64.b64encode(hashlib.sha256(summary.encode()).digest()).decode()


@pytest.mark.skipif("linux_amd64" not in TARGETS,
                    reason="the CLI here installs the linux_amd64 package, not among the "
                           "LUAFORM_RELEASE_TARGETS of this run")
def test_tofu_installs_from_a_network_mirror_served_over_https(dist, version, tofu_for,
                                                               tmp_path):
    mirror = tmp_path / "mirror"
    address = "registry.example.com/acme/localfs"
    result = subprocess.run(
        ["cmake", f"-DDIST={dist}", "-DNAME=localfs", f"-DVERSION={version}",
         f"-DMIRROR={mirror}", f"-DADDRESS={address}", "-P",
         str(REPO / "host/packaging/network_mirror.cmake")],
        capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    listing = json.loads((mirror / address / f"{version}.json").read_text())["archives"]
    assert sorted(listing) == sorted(TARGETS)
    for target in TARGETS:
        assert listing[target]["hashes"] == [h1_of(release_zip(dist, "localfs", version,
                                                               target))]

    key, cert = self_signed(tmp_path, "server", "/CN=localhost",
                            "DNS:localhost,IP:127.0.0.1")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(mirror))
    served = ServedInThread(handler, tls=server_context(key, cert))
    try:
        url = served.url.replace("127.0.0.1", "localhost") + "/"
        work = tmp_path / "work"
        work.mkdir()
        (tmp_path / "cli.tfrc").write_text(
            f"provider_installation {{\n  network_mirror {{\n    url = {hcl_string(url)}\n"
            "  }\n}\n")
        (work / "main.tf").write_text(localfs_config(version, source=address))
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TF_", "PLUGIN_"))}
        env.update({"TF_CLI_CONFIG_FILE": str(tmp_path / "cli.tfrc"), "TF_IN_AUTOMATION": "1",
                    "CHECKPOINT_DISABLE": "1", "SSL_CERT_FILE": str(cert)})
        tofu = str(tofu_for("linux_amd64"))
        for args in (["init", "-input=false"], ["apply", "-auto-approve", "-input=false"]):
            ran = subprocess.run([tofu, args[0], "-no-color", *args[1:]], cwd=work, env=env,
                                 capture_output=True, text=True, timeout=600, check=False)
            assert ran.returncode == 0, ran.stdout + ran.stderr
        lock = (work / ".terraform.lock.hcl").read_text()
        assert h1_of(release_zip(dist, "localfs", version, "linux_amd64")) in lock
        assert re.search(r'version\s+= "' + re.escape(version) + '"', lock)
        assert (work / "smoke.bin").read_bytes() == b"\x00\x01\x02"
    finally:
        served.stop()

