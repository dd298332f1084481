"""Real servers once per run (shared_servers.py): a pytest of its own runs four scenarios on two
workers; they get one etcd-server between them, each in a namespace of its own, and the server
and the run's directory are gone when that pytest ends."""
import json
import os
import subprocess
import sys
from pathlib import Path

from support import shared_servers
HERE = Path(__file__).resolve().parent


def test_one_server_per_run_shared_in_namespaces_and_stopped_at_its_end(tmp_path):
    out = tmp_path / "probe.jsonl"
    result = subprocess.run(
        [sys.executable, "-m", "pytest", str(HERE / "shared_servers_probe.py"), "-n", "2",
         "-p", "no:cacheprovider", "-q"],
        cwd=HERE, env={**os.environ, "LUAFORM_E2E_PROBE_OUT": str(out)}, text=True,
        capture_output=True, timeout=300, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    seen = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(seen) == 4, seen
    assert len({s["worker"] for s in seen}) == 2, seen  # two processes...
    assert len({(s["url"], s["pid"], s["run"]) for s in seen}) == 1, seen  # ...one server
    assert len({s["namespace"] for s in seen}) == 4, seen
    assert not Path(seen[0]["run"]).exists()
    assert not shared_servers.running(seen[0]["pid"]), "the run's etcd-server still runs"
