"""Fixtures of the release tests: the release set tests/release/run.sh built, and the CLI for
each target. Every variable is set by run.sh; run without it, a test fails saying so."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# The loopback servers and the object API of the end-to-end suite.
sys.path.insert(0, str(REPO / "tests/e2e"))

# The Windows and macOS tests exist only where their targets are built (an empty set of
# targets would show up as skipped tests, not as targets left out on purpose).
_TARGETS = os.environ.get("LUAFORM_RELEASE_TARGETS", "").split()
collect_ignore = []
if not any(target.startswith("windows_") for target in _TARGETS):
    collect_ignore.append("test_release_windows.py")
if "windows_amd64" not in _TARGETS:
    collect_ignore.append("test_release_wine.py")
if not any(target.startswith("darwin_") for target in _TARGETS):
    collect_ignore.append("test_release_macos.py")


def required_env(name: str) -> str:
    value = os.environ.get(name, "")
    if not value:
        pytest.fail(f"{name} is not set: run the release tests through tests/release/run.sh")
    return value


@pytest.fixture(scope="session")
def dist() -> Path:
    return Path(required_env("LUAFORM_RELEASE_DIST"))


@pytest.fixture(scope="session")
def version() -> str:
    return required_env("LUAFORM_RELEASE_VERSION")


@pytest.fixture(scope="session")
def tofu_for():
    """The OpenTofu CLI built for a target (linux_amd64 is this machine's)."""
    def find(target: str) -> Path:
        name = "LUAFORM_TOFU" if target == "linux_amd64" else f"LUAFORM_TOFU_{target.upper()}"
        return Path(required_env(name))
    return find
