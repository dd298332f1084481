"""Scenario 7: a provider served from an OpenAPI description, beside the same types written as
Lua scripts (issue 40's targets). Cold start: GitHub's description (npm @octokit/openapi) served
with nothing said in Lua, and the scripts that declare exactly its schema (schema_scripts.py; the
two `--schema` answers are checked to be equal). Per call: bench_object, mapped from
openapi_provider/objects.openapi.json, and bench_object_script, the same type written by hand,
served by one process against the object API of scenario 5."""

import json
import os
import shutil
import statistics
import subprocess
import tarfile
import tempfile
from pathlib import Path

import rpc_scenarios
import schema_scripts
import subjects
from cli_scenarios import CountingServer, object_api

OCTOKIT_VERSION = "23.0.2"
GITHUB_DOCUMENT = "api.github.com.json"
OPENAPI_PROVIDER = Path(__file__).resolve().parent / "openapi_provider"


def github_description(cache_root):
    """GitHub's description from the npm package @octokit/openapi, fetched once into the cache."""
    target = Path(cache_root) / f"octokit-openapi-{OCTOKIT_VERSION}" / GITHUB_DOCUMENT
    if target.exists():
        return target
    if shutil.which("npm") is None:
        raise RuntimeError("scenario 7 needs npm to fetch @octokit/openapi "
                           "(apt-get install npm, as tests/setup/install-deps.sh does)")
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="luaform-bench-npm-") as scratch:
        subprocess.run(["npm", "pack", "--silent", f"@octokit/openapi@{OCTOKIT_VERSION}"],
                       cwd=scratch, check=True, capture_output=True, timeout=600)
        (packed,) = Path(scratch).glob("*.tgz")
        with tarfile.open(packed) as archive:
            member = archive.extractfile(f"package/generated/{GITHUB_DOCUMENT}")
            partial = target.with_suffix(".part")
            partial.write_bytes(member.read())
            partial.replace(target)
    return target


def schema_of(host, directory, env=None):
    done = subprocess.run([str(host), "--schema"], capture_output=True, text=True, timeout=300,
                          check=False,
                          env={**os.environ, **(env or {}), "LUAFORM_PROVIDER_DIR": str(directory),
                               "LUAFORM_PROVIDER_NAME": "github"})
    if done.returncode != 0 or done.stderr.strip():
        raise RuntimeError(f"luaform --schema in {directory} exited {done.returncode}:\n"
                           f"{done.stderr[-3000:]}")
    return json.loads(done.stdout)


def github_providers(host, cache_root, scratch):
    """The mapped provider's directory and the scripts' directory, serving one schema."""
    mapped = Path(scratch) / "mapped"
    mapped.mkdir()
    shutil.copy(github_description(cache_root), mapped / GITHUB_DOCUMENT)
    (mapped / "provider.lua").write_text(
        'local tf = require("luaform")\n\n'
        f'return tf.openapi.provider {{ document = "{GITHUB_DOCUMENT}", env_prefix = "GITHUB" }}\n')
    answer = schema_of(host, mapped)
    scripts = Path(scratch) / "scripts"
    types = schema_scripts.write_scripts(answer, "github", scripts)
    if schema_of(host, scripts) != answer:
        raise RuntimeError(f"the scripts in {scripts} do not serve the schema {mapped} serves")
    return mapped, scripts, types


# How many first starts (the description read and mapped, its model written) are timed in
# each round: each takes most of a second.
FIRST_STARTS = 5


def cold_start(client, host, cache_root, repeat):
    """Exec to handshake and to the schema answer, taking turns as scenario 1 does: the mapped
    provider with its model kept from an earlier start (LUAFORM_OPENAPI_CACHE; the first of its
    starts, before the timed ones, writes it), the scripts, and the mapped provider's first start, each in a cache
    directory of its own that holds nothing yet."""
    with tempfile.TemporaryDirectory(prefix="luaform-bench-openapi-") as scratch:
        mapped, scripts, types = github_providers(host, cache_root, scratch)
        kept = subjects.luaform(host, mapped, "github")
        kept.env["LUAFORM_OPENAPI_CACHE"] = str(Path(scratch) / "kept-model")
        # Its first start, which keeps the model.
        schema_of(host, mapped, {"LUAFORM_OPENAPI_CACHE": kept.env["LUAFORM_OPENAPI_CACHE"]})
        rounds = {}
        for round_number in range(rpc_scenarios.COLD_ROUNDS):
            for name, subject in (("mapped", kept),
                                  ("scripts", subjects.luaform(host, scripts, "github"))):
                rounds.setdefault(name, []).append(rpc_scenarios.run_client(
                    client, "cold", ["--repeat", str(repeat)], subject))
            for start in range(FIRST_STARTS):
                first = subjects.luaform(host, mapped, "github")
                first.env["LUAFORM_OPENAPI_CACHE"] = str(
                    Path(scratch) / f"first-{round_number}-{start}")
                rounds.setdefault("first", []).append(rpc_scenarios.run_client(
                    client, "cold", ["--repeat", "1"], first))
    results = {}
    for name, runs in rounds.items():
        served = {r["resource_types"] for r in runs}
        if served != {types}:
            raise RuntimeError(f"{name} served {served} resource types, not {types}")
        results[name] = {
            "types": types,
            "handshake_ms_p50": statistics.median(r["handshake_ms_p50"] for r in runs),
            "schema_ms_p50": statistics.median(r["schema_ms_p50"] for r in runs),
            "rss_kib_max": max(r["rss_kib_max"] for r in runs),
        }
    return results


TYPES = {"mapped": "bench_object", "scripts": "bench_object_script"}


def call_costs(client, host, calls, rounds=3):
    """PlanResourceChange and ApplyResourceChange (a create: POST) of the mapped type and of
    the script, each against a fresh object API, taking turns; the median round of each."""
    runs = {}
    for _ in range(rounds):
        for name, type_name in TYPES.items():
            api = object_api.ObjectApi()
            server = CountingServer(api)
            try:
                subject = subjects.luaform(host, OPENAPI_PROVIDER)
                subject.env["BENCH_BASE_URL"] = server.url
                figures = rpc_scenarios.run_client(
                    client, "rpc", ["--calls", str(calls), "--type", type_name], subject)
            finally:
                server.stop()
            # Every apply creates one object; the warm-up calls create some too.
            figures["requests_per_apply"] = len(api.seen()) / len(api.objects)
            runs.setdefault(name, []).append(figures)
    results = {}
    for name, figures in runs.items():
        results[name] = {
            rpc: statistics.median(f[rpc]["provider_cpu_us_per_call"] for f in figures)
            for rpc in ("plan", "apply")}
        results[name]["requests_per_apply"] = figures[0]["requests_per_apply"]
    return results
