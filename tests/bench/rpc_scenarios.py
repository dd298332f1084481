"""Scenarios 1, 2 and 6: the provider driven directly over gRPC by luaform_bench_rpc
(tests/bench/tools), which starts it, times the calls and reads its CPU time and memory."""

import json
import statistics
import subprocess
import tempfile

import subjects


def run_client(client, mode, options, subject, timeout=3600):
    command = [str(client), mode, *options, "--", *subject.command]
    done = subprocess.run(command, env=subject.environment(), capture_output=True, text=True,
                          timeout=timeout, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode}:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


COLD_ROUNDS = 3


def cold_start(client, hosts, peer_binary, echo, type_counts, repeat):
    """Exec to handshake line, and to the first GetProviderSchema answer. The subjects take
    turns, COLD_ROUNDS rounds of REPEAT starts each, and each figure is the median of the
    rounds' medians: a few milliseconds are at stake, and a burst of other work on the machine
    then lands on every subject alike instead of on whichever one was running."""
    results = {}
    with tempfile.TemporaryDirectory(prefix="luaform-bench-cold-") as scratch:
        for count in type_counts:
            lua_dir = subjects.lua_provider_with_types(f"{scratch}/types-{count}", count)
            rounds = {}
            # `hosts`: the luaform subjects (their hosts and names) to start on the provider.
            starts = [subjects.luaform(h.command[0], lua_dir, name=h.name) for h in hosts]
            for _ in range(COLD_ROUNDS):
                for subject in (*starts, subjects.peer(peer_binary, count),
                                subjects.floor(echo)):
                    rounds.setdefault(subject.name, []).append(run_client(
                        client, "cold", ["--repeat", str(repeat)], subject))
            for name, runs in rounds.items():
                # The floor answers with an empty schema; the two providers must serve all.
                served = {r["resource_types"] for r in runs}
                if name != "floor" and served != {count}:
                    raise RuntimeError(f"{name} served {served} resource types, not {count}")
                results[(count, name)] = {
                    "handshake_ms_p50": statistics.median(r["handshake_ms_p50"] for r in runs),
                    "schema_ms_p50": statistics.median(r["schema_ms_p50"] for r in runs),
                    "rss_kib_max": max(r["rss_kib_max"] for r in runs),
                }
    return results


def rpc_latency(client, all_subjects, concurrencies, calls):
    """PlanResourceChange and ApplyResourceChange of bench_item (10 attributes)."""
    return {(c, s.name): run_client(client, "rpc", ["--calls", str(calls), "--concurrency", str(c)],
                                    s)
            for c in concurrencies for s in all_subjects}


def big_sets(client, all_subjects, sizes, repeat, timeout):
    """One bench_bigset planned with N set elements, unchanged and with one element changed."""
    results = {}
    for size in sizes:
        for change in ("none", "one"):
            for subject in all_subjects:
                results[(size, change, subject.name)] = run_client(
                    client, "bigset",
                    ["--elements", str(size), "--change", change, "--repeat", str(repeat),
                     "--timeout", str(timeout)],
                    subject, timeout=timeout * (repeat + 2) + 60)
    return results
