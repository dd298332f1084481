"""The macOS hosts of the release set. No macOS runs here (neither qemu-user nor anything else
runs Mach-O binaries on Linux), so what can be known without running them is checked with
llvm-objdump: a Mach-O executable for the target's processor, for macOS 11 and later, linked
against libSystem alone (no framework, no library a Mac may lack), carrying on arm64 the ad-hoc
code signature without which Apple silicon refuses to start it, without debug information, and
executable once unpacked from the zip."""
from __future__ import annotations

import os
import subprocess
import zipfile

import pytest

from test_release import release_zip, unpacked_host

TARGETS = os.environ.get("LUAFORM_RELEASE_TARGETS", "").split()
MACOS_TARGETS = [target for target in TARGETS if target.startswith("darwin_")]
CPU = {"darwin_arm64": "ARM64", "darwin_amd64": "X86_64"}


def objdump(*args: str) -> str:
    return subprocess.run(["llvm-objdump", "--macho", *args], capture_output=True, text=True,
                          check=True).stdout


@pytest.mark.parametrize("target", MACOS_TARGETS)
def test_a_macos_host_needs_only_libsystem_and_is_signed(dist, version, target, tmp_path):
    host = unpacked_host(dist, version, target, tmp_path)
    header = objdump("--private-header", str(host))
    assert "MH_MAGIC_64" in header and CPU[target] in header and "EXECUTE" in header, header
    used = objdump("--dylibs-used", str(host)).splitlines()[1:]
    assert [line.split()[0] for line in used] == ["/usr/lib/libSystem.B.dylib"], used
    commands = objdump("--private-headers", str(host))
    build = commands[commands.index("LC_BUILD_VERSION"):]
    assert "platform macos" in build and "minos 11.0" in build, build[:200]
    # Apple silicon runs signed code only (zig's linker signs ad hoc for arm64); Intel Macs
    # need no signature for a binary the CLI installs.
    if target == "darwin_arm64":
        assert "LC_CODE_SIGNATURE" in commands
    # No debug information (zig's Mach-O linker keeps the local symbols: about 2 MB).
    assert "__DWARF" not in commands
    assert host.stat().st_size < 40 * 1024 * 1024


@pytest.mark.parametrize("target", MACOS_TARGETS)
def test_a_macos_zip_unpacks_the_host_executable(dist, version, target):
    with zipfile.ZipFile(release_zip(dist, "localfs", version, target)) as archive:
        info = archive.getinfo(f"terraform-provider-localfs_v{version}")
        assert (info.external_attr >> 16) & 0o111, oct(info.external_attr >> 16)
        names = archive.namelist()
    assert "provider.lua" in names and any(name.startswith("resource_") for name in names)
