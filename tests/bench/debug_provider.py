"""A provider started in debug (reattach) mode, so that the benchmark, not the CLI, owns its
process and can read its CPU time and memory across several CLI commands."""

import signal
import subprocess
import sys
from pathlib import Path

import process_stats

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "e2e"))
from support.debug_mode import start_debug  # noqa: E402  (shared with the e2e scenario of --debug)


class DebugProvider:
    """Starts `command` with `env` and waits for its TF_REATTACH_PROVIDERS value."""

    def __init__(self, command, env, startup_timeout=60):
        self._process, self.reattach = start_debug(command, env, startup_timeout)

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

