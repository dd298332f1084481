"""Scenarios 3, 4 and 5: the real OpenTofu CLI against each provider. The provider is started
by the benchmark in debug (reattach) mode, so its CPU time and peak memory can be read across
`tofu apply` and `tofu plan`; the CLI finds it through TF_REATTACH_PROVIDERS."""

import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from debug_provider import DebugProvider

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "e2e"))
from support import object_api  # noqa: E402  (the e2e suite's JSON API, reused as the REST backend)
from support.loopback import QuietServer  # noqa: E402

REQUIRED_PROVIDERS = """terraform {
  required_providers {
    bench = { source = "luaform/bench" }
  }
}
"""


class Workspace:
    """A directory with one configuration, and the tofu commands run in it."""

    def __init__(self, tofu, reattach, config):
        self._tofu = tofu
        self._scratch = tempfile.TemporaryDirectory(prefix="luaform-bench-cli-")
        self.dir = Path(self._scratch.name)
        (self.dir / "main.tf").write_text(REQUIRED_PROVIDERS + config)
        self._env = dict(os.environ)
        self._env.update({"TF_REATTACH_PROVIDERS": reattach, "TF_IN_AUTOMATION": "1",
                          "TF_INPUT": "0", "CHECKPOINT_DISABLE": "1"})
        self._env.pop("TF_LOG", None)
        self._env.pop("TF_CLI_CONFIG_FILE", None)

    def run(self, *args, expect=(0,)):
        """Runs `tofu ARGS`; returns its wall time in seconds."""
        log = self.dir / "tofu.log"
        started = time.monotonic()
        with open(log, "w", encoding="utf-8") as out:
            done = subprocess.run([self._tofu, *args, "-no-color"], cwd=self.dir, env=self._env,
                                  stdout=out, stderr=subprocess.STDOUT, check=False)
        elapsed = time.monotonic() - started
        if done.returncode not in expect:
            tail = log.read_text(encoding="utf-8", errors="replace")[-4000:]
            raise RuntimeError(f"tofu {' '.join(args)} exited {done.returncode}:\n{tail}")
        return elapsed

    def close(self):
        self._scratch.cleanup()


class Measured:
    """Wall time, provider CPU seconds and provider peak RSS of one CLI command."""

    def __init__(self, provider, workspace):
        self._provider = provider
        self._workspace = workspace

    def run(self, *args, expect=(0,)):
        self._provider.reset_peak_rss()
        cpu_before = self._provider.cpu_seconds()
        wall = self._workspace.run(*args, expect=expect)
        return {"wall_s": wall, "cpu_s": self._provider.cpu_seconds() - cpu_before,
                "rss_kib": self._provider.peak_rss_kib()}


def _session(tofu, subject, config):
    provider = DebugProvider([*subject.command, subject.debug_flag], subject.environment())
    workspace = Workspace(tofu, provider.reattach, config)
    workspace.run("init")
    return provider, workspace, Measured(provider, workspace)


def _close(provider, workspace):
    provider.stop()
    workspace.close()


def plan_runs(count):
    """How many times a plan of COUNT resources runs; the run of median provider CPU is kept.
    A plan changes nothing, so short ones are repeated: the provider's CPU time is read in
    clock ticks of 10 ms, a few percent of a 1,000-resource plan, and the CLI beside it on
    the same cores adds as much again from one run to the next."""
    return max(1, min(5, 3000 // count))


def many_resources(tofu, cli_subjects, counts):
    """`tofu apply` then `tofu plan` (which must find nothing to do) of COUNT bench_items."""
    results = {}
    for count in counts:
        config = f"""
resource "bench_item" "r" {{
  count = {count}
  s1 = "value-${{count.index}}"
  s2 = "two"
  s3 = "three"
  s4 = "four"
  n1 = count.index
  n2 = 2
  n3 = 3.5
  b1 = true
  b2 = false
}}
"""
        for subject in cli_subjects:
            provider, workspace, measured = _session(tofu, subject, config)
            try:
                apply = measured.run("apply", "-auto-approve")
                plans = [measured.run("plan", "-detailed-exitcode")
                         for _ in range(plan_runs(count))]
                plan = sorted(plans, key=lambda p: p["cpu_s"])[len(plans) // 2]
            finally:
                _close(provider, workspace)
            results[(count, subject.name)] = {"apply": apply, "plan": plan}
    return results


def slow_creates(tofu, cli_subjects, count, delay_ms, parallelism):
    """COUNT resources whose create waits DELAY_MS, applied with -parallelism."""
    config = f"""
resource "bench_sleep" "r" {{
  count    = {count}
  delay_ms = {delay_ms}
}}
"""
    results = {}
    for subject in cli_subjects:
        provider, workspace, measured = _session(tofu, subject, config)
        try:
            results[subject.name] = measured.run("apply", "-auto-approve",
                                                 f"-parallelism={parallelism}")
        finally:
            _close(provider, workspace)
    return results


class CountingServer(QuietServer):
    """The JSON object API, also counting the TCP connections clients opened (each one is
    handed to process_request once, on the serving thread)."""

    def __init__(self, api):
        super().__init__(("127.0.0.1", 0), object_api.handler_for(api))
        self.daemon_threads = True
        self.connections = 0
        self.url = f"http://127.0.0.1:{self.server_address[1]}"
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)
        self._thread.start()

    def process_request(self, request, client_address):
        self.connections += 1
        super().process_request(request, client_address)

    def stop(self):
        self.shutdown()
        self.server_close()


def rest_creates(tofu, cli_subjects, count, parallelism):
    """COUNT bench_rest objects created through a real HTTP API on loopback."""
    results = {}
    for subject in cli_subjects:
        api = object_api.ObjectApi()
        server = CountingServer(api)
        config = f"""
resource "bench_rest" "r" {{
  count    = {count}
  endpoint = "{server.url}"
  name     = "object-${{count.index}}"
}}
"""
        provider, workspace, measured = _session(tofu, subject, config)
        try:
            figures = measured.run("apply", "-auto-approve", f"-parallelism={parallelism}")
        finally:
            _close(provider, workspace)
            server.stop()
        figures["connections"] = server.connections
        figures["requests"] = len(api.seen())
        figures["objects"] = len(api.objects)
        results[subject.name] = figures
    return results

