"""An empty root file system for one run of the CLI: the CLI, a filesystem mirror with the
release zip, a configuration, /tmp and the two character devices a Go program and OpenSSL open
(/dev/null, /dev/urandom). Nothing else: no libc, no shared library, no certificate store, so a
release host that needs anything from the system fails here."""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

from cli_log import provider_lines
from support.harness import SOURCE_PREFIX, write_mirror_config


class ReleaseRoot:
    def __init__(self, path: Path, tofu: Path):
        self.path = path
        for directory in ("dev", "tmp", "work", "mirror"):
            (path / directory).mkdir(parents=True, exist_ok=True)
        (path / "tmp").chmod(0o1777)
        for name, minor in (("null", 3), ("urandom", 9)):
            os.mknod(path / "dev" / name, 0o666 | stat.S_IFCHR, os.makedev(1, minor))
        shutil.copy2(tofu, path / "tofu")
        write_mirror_config(path / "cli.tfrc", Path("/mirror"))  # as the CLI sees it
        self.extra_env: dict[str, str] = {}

    def add_release(self, zip_file: Path, name: str) -> None:
        """Puts a release zip into the mirror in the packed layout."""
        target = self.path / "mirror" / f"{SOURCE_PREFIX}{name}"
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy2(zip_file, target)

    def add_file(self, inside: str, source: Path) -> None:
        shutil.copy2(source, self.path / inside.lstrip("/"))

    def write(self, main_tf: str) -> None:
        (self.path / "work" / "main.tf").write_text(main_tf)

    def tofu(self, *args: str, ok: tuple[int, ...] = (0,)) -> subprocess.CompletedProcess:
        env = {"HOME": "/work", "PATH": "/", "TF_CLI_CONFIG_FILE": "/cli.tfrc",
               "TF_IN_AUTOMATION": "1", "TF_INPUT": "0", "CHECKPOINT_DISABLE": "1",
               "TF_LOG": "trace", "TF_LOG_PATH": "/tofu.log", **self.extra_env}
        # Found with this process's PATH: the CLI's own PATH is the root's "/".
        chroot = shutil.which("chroot") or "/usr/sbin/chroot"
        command = [chroot, str(self.path), "/tofu", "-chdir=/work", args[0], "-no-color",
                   *args[1:]]
        result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900,
                                check=False)
        if result.returncode not in ok:
            text = self.log()
            raise AssertionError(f"{' '.join(args)}: exit {result.returncode}\n{result.stdout}\n"
                                 f"{result.stderr}\n--- the provider in the log ---\n"
                                 f"{provider_lines(text)}\n--- log tail ---\n{text[-6000:]}")
        return result

    def log(self) -> str:
        """The CLI's trace log of every run in this root so far."""
        log = self.path / "tofu.log"
        return log.read_text(errors="replace") if log.exists() else ""
