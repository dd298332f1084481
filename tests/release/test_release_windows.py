"""The Windows release hosts: each is a PE file for its machine that imports nothing but the
system's libraries and the universal C runtime. The x86-64 one also runs under wine
(test_release_wine.py); no ARM64 Windows runs here. Collected only when a Windows target is
among the targets (conftest.py)."""
from __future__ import annotations

import subprocess
import zipfile
from pathlib import Path

import pytest

from test_release import TARGETS, release_zip

WINDOWS_TARGETS = [target for target in TARGETS if target.startswith("windows_")]
# What llvm-objdump calls each target's PE form, and the machine type in its file header.
PE_FORMATS = {"windows_amd64": ("coff-x86-64", "IMAGE_FILE_MACHINE_AMD64"),
              "windows_arm64": ("coff-arm64", "IMAGE_FILE_MACHINE_ARM64")}
# What a Windows host may import: the system's own libraries and the universal C runtime.
WINDOWS_SYSTEM_DLLS = {"kernel32.dll", "advapi32.dll", "user32.dll", "ws2_32.dll",
                       "crypt32.dll", "bcrypt.dll", "iphlpapi.dll", "dbghelp.dll",
                       "userenv.dll", "ntdll.dll", "secur32.dll", "shell32.dll", "ole32.dll"}


@pytest.mark.parametrize("target", WINDOWS_TARGETS)
def test_a_windows_host_imports_only_the_system_and_its_c_runtime(dist, version, target,
                                                                  tmp_path):
    with zipfile.ZipFile(release_zip(dist, "localfs", version, target)) as archive:
        host = Path(archive.extract(f"terraform-provider-localfs_v{version}.exe", tmp_path))
    form, machine = PE_FORMATS[target]
    dump = subprocess.run(["llvm-objdump", "-p", str(host)], capture_output=True, text=True,
                          check=True).stdout
    assert f"file format {form}" in dump
    headers = subprocess.run(["llvm-readobj", "--file-headers", str(host)], capture_output=True,
                             text=True, check=True).stdout
    assert f"Machine: {machine}" in headers
    imported = {line.split(":", 1)[1].strip().lower() for line in dump.splitlines()
                if "DLL Name:" in line}
    assert imported, dump[:2000]
    unexpected = {dll for dll in imported
                  if dll not in WINDOWS_SYSTEM_DLLS and not dll.startswith("api-ms-win-crt-")}
    assert not unexpected, f"the host needs DLLs a Windows machine lacks: {unexpected}"
