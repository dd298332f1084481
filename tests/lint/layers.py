#!/usr/bin/env python3
"""Checks the host's includes against the layer table of ARCHITECTURE.md, and its ways into Lua
against the table of calls there.

Each row of the table between <!-- layers:begin --> and <!-- layers:end --> names a directory of
the host, the host directories its files may include, and the third-party header families they
may include. A file belongs to the deepest directory with a row. The check fails when a file
includes a header of a directory or family its row does not allow, when a directory holding
sources has no row, or when a row names a directory that does not exist.

Each row of the table between <!-- calls:begin --> and <!-- calls:end --> names a function and
the only files that may use it (one way into Lua): the check fails when another file's code, its
comments aside, names it.

  python3 tests/lint/layers.py [REPO]
"""

import pathlib
import re
import sys

# Third-party header families, by the start of the path in #include <...>.
FAMILIES = {
    "lua": re.compile(r"^(lua\.hpp|lua\.h|lauxlib\.h|lualib\.h|luaconf\.h)$"),
    "grpc": re.compile(r"^(grpc|grpcpp|google/protobuf|absl)/|^host/protocol/proto/"),
    "curl": re.compile(r"^curl/"),
}
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include\s*([<"])([^>"]+)[>"]', re.M)
CELL_PATH = re.compile(r"`([^`]+)`")


def read_table(architecture):
    text = architecture.read_text(encoding="utf-8")
    match = re.search(r"<!-- layers:begin -->(.*?)<!-- layers:end -->", text, re.S)
    if not match:
        sys.exit(f"{architecture}: no layer table between <!-- layers:begin/end --> markers")
    rows = {}
    for line in match.group(1).splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[0].startswith("`"):
            continue
        directory = CELL_PATH.findall(cells[0])[0]
        allowed = CELL_PATH.findall(cells[2])
        families = CELL_PATH.findall(cells[3])
        unknown = [name for name in families if name not in FAMILIES]
        if unknown:
            sys.exit(f"{architecture}: row {directory} names unknown families {unknown}")
        rows[directory] = (allowed, families)
    return rows


def read_calls(architecture):
    """name -> the files that alone may use it, from the table of calls."""
    text = architecture.read_text(encoding="utf-8")
    match = re.search(r"<!-- calls:begin -->(.*?)<!-- calls:end -->", text, re.S)
    if not match:
        sys.exit(f"{architecture}: no table of calls between <!-- calls:begin/end --> markers")
    calls = {}
    for line in match.group(1).splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        calls[CELL_PATH.findall(cells[0])[0]] = set(CELL_PATH.findall(cells[1]))
    return calls


def code_of(text):
    """`text` with its // comments blanked, line for line."""
    return "\n".join(line.split("//", 1)[0] for line in text.split("\n"))


def owner(path, rows):
    """The deepest directory with a row that holds `path` (a repo-relative posix path)."""
    parts = path.split("/")[:-1]
    while parts:
        candidate = "/".join(parts)
        if candidate in rows:
            return candidate
        parts.pop()
    return None


def host_directory(header):
    """The directory of a "host/..." header, or None for a header outside the host."""
    if not header.startswith("host/") or header.startswith("host/protocol/proto/"):
        return None
    return header.rsplit("/", 1)[0]


def allows(row_dir, allowed, target_dir):
    if target_dir == row_dir:
        return True
    return any(target_dir == entry or target_dir.startswith(entry + "/") for entry in allowed)


def main():
    repo = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    rows = read_table(repo / "ARCHITECTURE.md")
    problems = []
    for directory in rows:
        if not (repo / directory).is_dir():
            problems.append(f"ARCHITECTURE.md: the table names {directory}, which does not exist")
    sources = sorted(
        p for p in (repo / "host").rglob("*")
        if p.suffix in (".h", ".cpp") and "host/protocol/proto" not in p.as_posix())
    for source in sources:
        relative = source.relative_to(repo).as_posix()
        row_dir = owner(relative, rows)
        if row_dir is None or row_dir != relative.rsplit("/", 1)[0]:
            problems.append(f"{relative}: its directory has no row in ARCHITECTURE.md")
            continue
        allowed, families = rows[row_dir]
        text = source.read_text(encoding="utf-8")
        for match in INCLUDE.finditer(text):
            header = match.group(2)
            line = text.count("\n", 0, match.start()) + 1
            target = host_directory(header)
            if target is not None:
                if not allows(row_dir, allowed, target):
                    problems.append(f"{relative}:{line}: includes {header}, but {row_dir} may "
                                    f"not include {target} (ARCHITECTURE.md)")
                continue
            for family, pattern in FAMILIES.items():
                if pattern.search(header) and family not in families:
                    problems.append(f"{relative}:{line}: includes {header} ({family}), which "
                                    f"{row_dir} may not (ARCHITECTURE.md)")
    calls = read_calls(repo / "ARCHITECTURE.md")
    for name, files in calls.items():
        for listed in sorted(files - {s.relative_to(repo).as_posix() for s in sources}):
            problems.append(f"ARCHITECTURE.md: {name} is listed for {listed}, which does not exist")
        used = re.compile(r"\b" + re.escape(name) + r"\b")
        for source in sources:
            relative = source.relative_to(repo).as_posix()
            if relative in files:
                continue
            code = code_of(source.read_text(encoding="utf-8"))
            for found in used.finditer(code):
                line = code.count("\n", 0, found.start()) + 1
                problems.append(f"{relative}:{line}: uses {name}, which only "
                                f"{', '.join(sorted(files))} may (ARCHITECTURE.md, one way into "
                                f"Lua)")
    for problem in problems:
        print(problem)
    print(f"layers: {len(sources)} files, {len(rows)} directories, {len(calls)} calls, "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
