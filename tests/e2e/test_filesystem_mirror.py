"""Installing the provider the way a user without dev_overrides would: `tofu init` from a
filesystem mirror in the unpacked layout, with a version constraint and a lock file."""
import pytest

from support.harness import (REPO, Tofu, assemble_provider, os_arch, required_providers, resources,
                     squash, write_dev_overrides, write_mirror_config)

VERSION = "0.1.0"
INSTALLED = required_providers("localfs", version="~> 0.1.0") + """
resource "localfs_file" "installed" {
  path    = "installed.txt"
  content = "from the mirror"
}
"""


@pytest.fixture
def mirror(tmp_path, host_binary):
    root = tmp_path / "mirror"
    package = root / "registry.opentofu.org" / "luaform" / "localfs" / VERSION / os_arch()
    # A copy, not a symlink: this is what a packaged release would hold.
    assemble_provider(package, REPO / "providers" / "localfs", host_binary, "localfs",
                      binary_suffix=f"_v{VERSION}", copy_binary=True)
    return root


@pytest.fixture
def mirror_tofu(tmp_path, tofu_binary, protocol, mirror):
    config = write_mirror_config(tmp_path / "mirror.tfrc", mirror)
    return Tofu(tofu_binary, tmp_path / "work", config, protocol)


def test_init_from_a_filesystem_mirror_then_apply(mirror_tofu):
    tofu = mirror_tofu
    tofu.write(INSTALLED)

    tofu.run("init", "-input=false")
    lock = (tofu.workdir / ".terraform.lock.hcl").read_text()
    assert 'provider "registry.opentofu.org/luaform/localfs"' in lock
    assert f'version     = "{VERSION}"' in lock

    tofu.apply()
    assert (tofu.workdir / "installed.txt").read_text() == "from the mirror"
    assert resources(tofu.state())["localfs_file.installed"]["values"]["size"] == 15
    assert tofu.plan_exit_code() == 0
    assert tofu.uses_protocol() == tofu.protocol


def test_init_rejects_a_mirror_without_a_matching_version(mirror_tofu):
    tofu = mirror_tofu
    tofu.write(required_providers("localfs", version=">= 1.0.0") + """
resource "localfs_file" "installed" {
  path = "never.txt"
}
""")

    result = tofu.run("init", "-input=false", ok=(1,))
    assert "no available releases match" in squash(result.stderr)


@pytest.mark.only_pairs("terraform116:6", "terraform116:5")
def test_dev_overrides_keep_the_lock_entry_of_the_released_provider(mirror_tofu, mirror,
                                                                     tmp_path):
    """Terraform 1.16's init keeps the lock file's entry of a provider under dev_overrides (1.15
    dropped it), so an author who debugs the installed provider with dev_overrides and goes back
    to the release finds the same checked hashes."""
    tofu = mirror_tofu
    tofu.write(INSTALLED)
    tofu.run("init", "-input=false")
    lock_file = tofu.workdir / ".terraform.lock.hcl"
    locked = lock_file.read_text()
    assert "h1:" in locked

    package = next((mirror / "registry.opentofu.org" / "luaform" / "localfs").glob("*/*"))
    overridden = Tofu(tofu.binary, tofu.workdir,
                      write_dev_overrides(tmp_path / "dev.tfrc", {"localfs": package}),
                      tofu.protocol)
    result = overridden.run("init", "-input=false")
    assert "Provider development overrides are in effect" in squash(result.stdout + result.stderr)
    assert lock_file.read_text() == locked  # kept, hashes and all
    overridden.apply()
    assert (tofu.workdir / "installed.txt").read_text() == "from the mirror"

    tofu.run("init", "-input=false")  # back to the release: no -upgrade needed
    assert lock_file.read_text() == locked
    assert tofu.plan_exit_code() == 0
