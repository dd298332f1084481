#!/usr/bin/env python3
"""clang-tidy over C++ files, each checked again only when something it is made of changed.

A file's result is kept under a key made of everything clang-tidy's verdict depends on: the
clang-tidy version, .clang-tidy, the file's compile command (with the checkout's path taken
out, so a fresh clone elsewhere hits the same entries), and the content of the file and of
every header it includes, as the build's dependency records (`ninja -t deps`) list them. Only
clean results are kept, so a file with findings is checked (and reported) on every run.

    clang_tidy_cached.py -p BUILD_DIR [-j N] FILE...

Exits 0 when every file is clean; prints what clang-tidy found otherwise. The cache lives in
$LUAFORM_CACHE/clang-tidy (default ~/.cache/luaform/clang-tidy).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXTRA_ARGS = ["--quiet", "--extra-arg=-Wno-unknown-warning-option"]


def tidy_version() -> str:
    return subprocess.run(["clang-tidy", "--version"], capture_output=True, text=True,
                          check=True).stdout


def compile_commands(build: Path) -> dict[Path, dict]:
    entries = json.loads((build / "compile_commands.json").read_text())
    return {Path(e["file"]).resolve(): e for e in entries}


def object_of(entry: dict) -> str:
    words = shlex.split(entry["command"])
    return words[words.index("-o") + 1]


def dependencies(build: Path) -> dict[str, list[str]]:
    """Each object file's inputs, from ninja's dependency log."""
    out = subprocess.run(["ninja", "-C", str(build), "-t", "deps"], capture_output=True,
                         text=True, check=True).stdout
    deps: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in out.splitlines():
        if line and not line[0].isspace() and "#deps" in line:
            current = deps.setdefault(line.split(":", 1)[0], [])
        elif line.strip() and current is not None:
            current.append(line.strip())
    return deps


class Digests:
    """Content hashes of files, each file read once."""

    def __init__(self):
        self.known: dict[str, str] = {}

    def of(self, path: str) -> str:
        if path not in self.known:
            try:
                self.known[path] = hashlib.sha256(Path(path).read_bytes()).hexdigest()
            except OSError:
                self.known[path] = "missing"
        return self.known[path]


def key_for(file: Path, entry: dict, inputs: list[str], common: str, digests: Digests) -> str:
    h = hashlib.sha256(common.encode())
    h.update(entry["command"].replace(str(REPO), "<repo>").encode())
    h.update(file.relative_to(REPO).as_posix().encode())
    h.update(digests.of(str(file)).encode())
    for path in sorted(inputs):
        h.update(path.replace(str(REPO), "<repo>").encode())
        h.update(digests.of(path).encode())
    return h.hexdigest()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-p", dest="build", required=True, type=Path)
    parser.add_argument("-j", dest="jobs", type=int, default=2)
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args()

    cache = Path(os.environ.get("LUAFORM_CACHE", Path.home() / ".cache" / "luaform")) / \
        "clang-tidy"
    cache.mkdir(parents=True, exist_ok=True)
    commands = compile_commands(args.build)
    deps = dependencies(args.build)
    common = tidy_version() + (REPO / ".clang-tidy").read_text()
    digests = Digests()

    to_check: list[tuple[Path, str]] = []
    for file in (f.resolve() for f in args.files):
        entry = commands.get(file)
        if entry is None:
            print(f"clang-tidy: {file} is not in {args.build}/compile_commands.json",
                  file=sys.stderr)
            return 1
        inputs = deps.get(object_of(entry))
        # Without a dependency record (not built yet) the file is checked, and not cached.
        key = key_for(file, entry, inputs, common, digests) if inputs else ""
        if not key or not (cache / key).exists():
            to_check.append((file, key))

    def check(item: tuple[Path, str]) -> tuple[Path, subprocess.CompletedProcess]:
        file, key = item
        result = subprocess.run(["clang-tidy", "-p", str(args.build), *EXTRA_ARGS, str(file)],
                                capture_output=True, text=True, check=False)
        if result.returncode == 0 and key:
            (cache / key).write_text(file.relative_to(REPO).as_posix() + "\n")
        return file, result

    failed = 0
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for file, result in pool.map(check, to_check):
            if result.returncode != 0:
                failed += 1
                print(f"--- clang-tidy {file.relative_to(REPO)} (exit {result.returncode})")
                print(result.stdout + result.stderr)
    print(f"clang-tidy: {len(args.files)} files, {len(args.files) - len(to_check)} unchanged "
          f"since a clean check, {len(to_check)} checked, {failed} with findings")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
