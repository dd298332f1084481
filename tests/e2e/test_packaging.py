"""Releases: host/packaging/package_provider.cmake turns a provider directory into
terraform-provider-NAME_VERSION_OS_ARCH.zip with its SHA256SUMS, which the real CLI installs
from a filesystem mirror in the packed layout; CPack builds a Debian package of the host whose
Depends line names the runtime libraries."""
import hashlib
import json
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from support.harness import REPO, Tofu, os_arch, required_providers, resources, write_mirror_config

# One worker runs this module (tests/run.sh passes --dist loadgroup), so each zip below is packed
# once per run rather than once per worker.
pytestmark = pytest.mark.xdist_group("packaging")

PACKAGER = REPO / "host/packaging/package_provider.cmake"
VERSION = "0.3.0"


def package(host: Path, provider_dir: Path, out: Path, version: str = VERSION,
            ok: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run(["cmake", f"-DHOST={host}", f"-DPROVIDER_DIR={provider_dir}",
                             f"-DVERSION={version}", f"-DOUT={out}", "-P", str(PACKAGER)],
                            capture_output=True, text=True, check=False)
    if ok:
        assert result.returncode == 0, result.stdout + result.stderr
    return result


def from_packed_mirror(tmp_path: Path, zip_path: Path, name: str, tofu_binary,
                       protocol) -> Tofu:
    """A working directory whose CLI installs provider `name` from a filesystem mirror in the
    packed layout (HOSTNAME/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_TARGET.zip)."""
    mirror = tmp_path / "mirror"
    target = mirror / f"registry.opentofu.org/luaform/{name}"
    target.mkdir(parents=True)
    shutil.copy2(zip_path, target)
    return Tofu(tofu_binary, tmp_path / "work", write_mirror_config(tmp_path / "m.tfrc", mirror),
                protocol)


@pytest.fixture(scope="module")
def release(tmp_path_factory, host_binary) -> Path:
    out = tmp_path_factory.mktemp("dist")
    package(host_binary, REPO / "providers/localfs", out)
    return out


# Packing copies and digests the host (86 MB in Debug, twice that with ASan): each provider is
# packed once for the module, and each CLI and protocol installs that same zip.
@pytest.fixture(scope="module")
def vendored_zip(tmp_path_factory, host_binary) -> Path:
    out = tmp_path_factory.mktemp("dist")
    package(host_binary, REPO / "tests/e2e/providers/vendored", out)
    return out / f"terraform-provider-vendored_{VERSION}_{os_arch()}.zip"


@pytest.fixture(scope="module")
def powerdns_zip(tmp_path_factory, host_binary) -> Path:
    out = tmp_path_factory.mktemp("dist")
    package(host_binary, REPO / "tests/e2e/providers/powerdns", out)
    return out / f"terraform-provider-powerdns_{VERSION}_{os_arch()}.zip"


def test_the_release_holds_the_renamed_host_and_the_scripts_with_their_digest(release):
    zip_name = f"terraform-provider-localfs_{VERSION}_{os_arch()}.zip"
    manifest = f"terraform-provider-localfs_{VERSION}_manifest.json"
    sums = (release / f"terraform-provider-localfs_{VERSION}_SHA256SUMS").read_text()
    digest = hashlib.sha256((release / zip_name).read_bytes()).hexdigest()
    manifest_digest = hashlib.sha256((release / manifest).read_bytes()).hexdigest()
    # Every zip of the version and the manifest, as the registries want them.
    assert sums == f"{digest}  {zip_name}\n{manifest_digest}  {manifest}\n"
    assert json.loads((release / manifest).read_text()) == {
        "version": 1, "metadata": {"protocol_versions": ["6.0", "5.0"]}}
    assert not (release / f"terraform-provider-localfs_{VERSION}_SHA256SUMS.sig").exists()

    with zipfile.ZipFile(release / zip_name) as archive:
        names = set(archive.namelist())
        binary = archive.getinfo(f"terraform-provider-localfs_v{VERSION}")
    assert {"provider.lua", "resource_file.lua", "lib/content.lua"} <= names
    assert not any(n.startswith(("docs/", "examples/", "tests/")) or n.endswith(".md")
                   for n in names)
    assert (binary.external_attr >> 16) & 0o111 == 0o111  # executable once unpacked


def test_the_cli_installs_the_release_from_a_packed_mirror_and_applies(release, tmp_path,
                                                                       tofu_binary, protocol):
    tofu = from_packed_mirror(tmp_path, release / f"terraform-provider-localfs_{VERSION}_"
                              f"{os_arch()}.zip", "localfs", tofu_binary, protocol)
    tofu.write(required_providers("localfs", version=f"= {VERSION}") + """
resource "localfs_file" "released" {
  path           = "released.bin"
  content_base64 = "AAEC"
}
""")

    tofu.run("init", "-input=false")
    assert f'version     = "{VERSION}"' in (tofu.workdir / ".terraform.lock.hcl").read_text()
    tofu.apply()
    assert (tofu.workdir / "released.bin").read_bytes() == b"\x00\x01\x02"
    assert resources(tofu.state())["localfs_file.released"]["values"]["size"] == 3
    assert tofu.plan_exit_code() == 0
    assert tofu.uses_protocol() == tofu.protocol


def test_packaging_refuses_a_bad_version_and_scripts_that_do_not_load(tmp_path, host_binary):
    result = package(host_binary, REPO / "providers/localfs", tmp_path, version="v1", ok=False)
    assert result.returncode != 0
    assert 'VERSION "v1" is not a version such as 1.2.3' in result.stderr

    broken = tmp_path / "broken"
    shutil.copytree(REPO / "providers/localfs", broken)
    (broken / "resource_file.lua").write_text("return tf.resource {\n  schema = \n")
    result = package(host_binary, broken, tmp_path / "out", ok=False)
    assert result.returncode != 0
    assert "does not pass --check" in result.stderr
    assert "resource_file.lua:" in result.stderr
    assert not (tmp_path / "out" / f"terraform-provider-broken_{VERSION}_SHA256SUMS").exists()
    assert not (tmp_path / "out" / ".stage-broken").exists(), "the staging copy is left behind"


def test_packaging_checks_the_staged_scripts_whatever_the_environment(tmp_path, host_binary,
                                                                      monkeypatch):
    # Variables that point the host at another directory (as a developer's shell may have
    # them) must not make a broken provider pass the check by checking the good one.
    broken = tmp_path / "broken"
    shutil.copytree(REPO / "providers/localfs", broken)
    (broken / "resource_file.lua").write_text("return tf.resource {\n  schema = \n")
    monkeypatch.setenv("LUAFORM_PROVIDER_DIR", str(REPO / "providers/localfs"))
    monkeypatch.setenv("LUAFORM_PROVIDER_NAME", "localfs")
    result = package(host_binary, broken, tmp_path / "out", ok=False)
    assert result.returncode != 0
    assert "does not pass --check" in result.stderr


def test_the_debian_package_holds_the_host_and_depends_on_what_it_links(tmp_path, host_binary):
    build_dir = host_binary.parent.parent
    if not (build_dir / "CPackConfig.cmake").exists():
        pytest.fail(f"{build_dir} has no CPackConfig.cmake: LUAFORM_HOST must be the host of a "
                    "CMake build directory of this tree (cmake -S . -B BUILD && cmake --build "
                    "BUILD)")
    result = subprocess.run(["cpack", "-G", "DEB", "-B", str(tmp_path)], cwd=build_dir,
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    debs = list(tmp_path.glob("luaform_*.deb"))
    assert len(debs) == 1, result.stdout

    depends = subprocess.run(["dpkg-deb", "-f", str(debs[0]), "Depends"], capture_output=True,
                             text=True, check=True).stdout
    # OpenSSL is linked; libcurl is opened when a script first sends a request, so it is named
    # by hand; gRPC, protobuf and Lua are linked statically (host/linked_libraries.cmake).
    for library in ("libssl3", "libcurl4"):
        assert library in depends
    for library in ("liblua5.4", "libgrpc", "libprotobuf", "libabsl"):
        assert library not in depends
    # Every dependency is installed here at a version the package accepts, so it installs.
    for entry in depends.strip().split(", "):
        match = re.fullmatch(r"(\S+)(?: \(>= (\S+)\))?", entry.split(" | ")[0])
        assert match, entry
        name, minimum = match.groups()
        installed = subprocess.run(["dpkg-query", "-W", "-f=${Version}", name],
                                   capture_output=True, text=True, check=False).stdout
        assert installed, f"{name} is not installed"
        if minimum:
            subprocess.run(["dpkg", "--compare-versions", installed, "ge", minimum], check=True)

    root = tmp_path / "root"
    subprocess.run(["dpkg-deb", "-x", str(debs[0]), str(root)], check=True)
    version = subprocess.run([str(root / "usr/bin/luaform"), "--version"], capture_output=True,
                             text=True, check=True).stdout
    project_version = re.search(r"project\(luaform VERSION (\S+)",
                                (REPO / "CMakeLists.txt").read_text()).group(1)
    assert project_version in version
    assert (root / "usr/share/doc/luaform/authoring-guide.md").exists()
    assert (root / "usr/share/luaform/package_provider.cmake").read_text() == \
        PACKAGER.read_text()
    # The type definitions for editors are installed with the host, and a provider scaffolded
    # by the installed host carries its own copy, which its .luarc.json names.
    assert (root / "usr/share/luaform/types/luaform.lua").read_text() == \
        (REPO / "lua-sdk/types/luaform.lua").read_text()
    subprocess.run([str(root / "usr/bin/luaform"), "--scaffold", "debby", str(tmp_path / "debby")],
                   capture_output=True, text=True, check=True)
    luarc = json.loads((tmp_path / "debby/.luarc.json").read_text())
    assert luarc["workspace"]["library"] == [".luaform/types"]
    assert (tmp_path / "debby/.luaform/types/luaform.lua").read_text() == \
        (REPO / "lua-sdk/types/luaform.lua").read_text()


def test_a_scaffolded_provider_is_packaged_with_its_copy_of_the_host(tmp_path, host_binary):
    subprocess.run([str(host_binary), "--scaffold", "widgets", str(tmp_path / "widgets")],
                   capture_output=True, text=True, check=True)
    copy = tmp_path / "widgets/terraform-provider-widgets"
    assert copy.is_file() and not copy.is_symlink()
    # The command the scaffold's README gives names the scaffold's copy of the packager
    # (test_scaffold.py runs it as written).
    assert (tmp_path / "widgets/.luaform/package_provider.cmake").read_text() == \
        PACKAGER.read_text()
    assert "-P .luaform/package_provider.cmake" in (tmp_path / "widgets/README.md").read_text()
    package(copy, tmp_path / "widgets", tmp_path / "dist", version="0.1.0")

    with zipfile.ZipFile(tmp_path / f"dist/terraform-provider-widgets_0.1.0_{os_arch()}.zip") \
            as archive:
        binary = archive.read("terraform-provider-widgets_v0.1.0")
        names = archive.namelist()
    assert binary == host_binary.read_bytes()  # the host itself, not a link
    assert "provider.lua" in names
    assert not any(n.startswith(("try/", ".luaform/")) for n in names), names


def test_a_vendored_pure_lua_library_travels_in_the_release_and_loads(tmp_path, vendored_zip,
                                                                       tofu_binary, protocol):
    # tests/e2e/providers/vendored holds semverlite/ as a rock lays its modules out; the zip must
    # carry them, and the installed provider must find them with require.
    zip_path = vendored_zip
    with zipfile.ZipFile(zip_path) as archive:
        names = set(archive.namelist())
    assert {"semverlite/init.lua", "semverlite/compare.lua", "resource_pin.lua"} <= names, names
    tofu = from_packed_mirror(tmp_path, zip_path, "vendored", tofu_binary, protocol)
    tofu.write(required_providers("vendored", version=f"= {VERSION}") + """
resource "vendored_pin" "it" {
  version = "v2.10.1"
  than    = "2.9.7"
}
""")
    tofu.run("init", "-input=false")
    tofu.apply()
    values = resources(tofu.state())["vendored_pin.it"]["values"]
    assert values["major"] == 2 and values["newer"] is True


def test_an_openapi_description_travels_in_the_release_and_serves_its_types(tmp_path,
                                                                            powerdns_zip,
                                                                            tofu_binary,
                                                                            protocol):
    # tests/e2e/providers/powerdns is a description and a provider.lua that maps it: without
    # the description in the zip, the installed provider has no types at all.
    zip_path = powerdns_zip
    with zipfile.ZipFile(zip_path) as archive:
        names = set(archive.namelist())
    assert {"provider.lua", "powerdns-api.yaml"} <= names and "README.md" not in names, names
    tofu = from_packed_mirror(tmp_path, zip_path, "powerdns", tofu_binary, protocol)
    tofu.write(required_providers("powerdns", version=f"= {VERSION}") + """
resource "powerdns_zone" "z" {
  server_id = "localhost"
  name      = "example.org."
  kind      = "Native"
}

resource "powerdns_tsig_key" "k" {
  server_id = "localhost"
  name      = "k"
  algorithm = "hmac-sha256"
}
""")
    tofu.run("init", "-input=false")
    assert "The configuration is valid" in tofu.run("validate").stdout
