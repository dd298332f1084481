"""A provider started in debug (reattach) mode, so that the benchmark, not the CLI, owns its
process and can read its CPU time and memory across several CLI commands."""

import json
import os
import re
import signal
import subprocess
import threading

import process_stats

# Both luaform (--debug) and terraform-plugin-go (ServeOpts.Debug) print this shell form.
_REATTACH_LINE = re.compile(r"TF_REATTACH_PROVIDERS='(\{.*\})'")


class DebugProvider:
    """Starts `command` with `env` and waits for its TF_REATTACH_PROVIDERS value."""

    def __init__(self, command, env, startup_timeout=60):
        self._process = subprocess.Popen(
            command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        self._stderr_tail = []
        self._reattach = None
        self._announced = threading.Event()
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        threading.Thread(target=self._read_stdout, daemon=True).start()
        if not self._announced.wait(startup_timeout) or self._reattach is None:
            self.stop()
            raise RuntimeError(
                f"{command[0]} printed no TF_REATTACH_PROVIDERS line within {startup_timeout} s;"
                " its stderr ended with:\n" + "".join(self._stderr_tail[-20:]))
        self.reattach = self._reattach

    @property
    def pid(self):
        return self._process.pid

    def cpu_seconds(self):
        return process_stats.cpu_seconds(self.pid)

    def peak_rss_kib(self):
        return process_stats.peak_rss_kib(self.pid)

    def reset_peak_rss(self):
        process_stats.reset_peak_rss(self.pid)

    def stop(self):
        """Ctrl-C, as a person ends a debug session; then SIGKILL if it hangs."""
        if self._process.poll() is None:
            self._process.send_signal(signal.SIGINT)
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    def _read_stdout(self):
        for line in self._process.stdout:
            found = _REATTACH_LINE.search(line)
            if found and self._reattach is None:
                json.loads(found.group(1))  # not JSON: fail here rather than in the CLI
                self._reattach = found.group(1)
                self._announced.set()
        self._announced.set()  # the process ended without announcing itself

    def _drain_stderr(self):
        for line in self._process.stderr:
            self._stderr_tail = (self._stderr_tail + [line])[-50:]


def environment_with(extra):
    env = dict(os.environ)
    env.update(extra)
    return env
