"""Load: the host driven directly over gRPC by our own client (tests/bench/tools, mode `load`)
with many concurrent plan/apply/read calls for a bounded time. Every call must succeed, every
answer must carry its own call's data (bench_mirror passes each name through data its whole Lua
state shares, across a pause, so two calls sharing a state at once would swap names), and the
provider's resident memory must stay flat once warm."""
import json
import os
import subprocess

from support.harness import REPO

SECONDS = 15
CONCURRENCY = 16


def test_concurrent_calls_neither_fail_nor_mix_nor_leak(host_binary):
    tool = host_binary.parent.parent / "tests" / "bench" / "luaform_bench_rpc"
    assert tool.is_file(), f"{tool} is missing: build the tree with LUAFORM_BENCH=ON (the default)"
    env = dict(os.environ)
    # ASan keeps freed memory in a quarantine (256 MiB by default) that fills slowly and would
    # look like growth: a small one shows the provider's own memory.
    if "ASAN_OPTIONS" in env:
        env["ASAN_OPTIONS"] += ":quarantine_size_mb=16"
    result = subprocess.run(
        [str(tool), "load", "--seconds", str(SECONDS), "--concurrency", str(CONCURRENCY),
         "--max-rss-growth-kib", "16384", "--",
         "env", f"LUAFORM_PROVIDER_DIR={REPO / 'tests/bench/provider'}",
         "LUAFORM_PROVIDER_NAME=bench", str(host_binary)],
        env=env, text=True, capture_output=True, timeout=SECONDS + 120, check=False)
    assert result.stdout.strip(), result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    print(json.dumps(report))
    assert report["errors"] == 0 and report["mismatches"] == 0, report["first_problem"]
    assert report["rounds"] > 100, report
    assert report["rss_kib"]["growth"] <= 16384, report["rss_kib"]
    assert result.returncode == 0, result.stderr
