"""Scenarios for test_shared_servers.py, which runs this file in a pytest of its own (the name
keeps it out of the suite): each writes down which etcd-server it was given and in which
namespace, and checks that a key it puts is its own."""
import fcntl
import json
import os

import pytest

from support import shared_servers
@pytest.mark.parametrize("scenario", range(4))
def test_probe(etcd, scenario):
    etcd.put("mine", str(scenario))
    record = json.loads((shared_servers.run_directory() / "etcd.json").read_text())
    with open(os.environ["LUAFORM_E2E_PROBE_OUT"], "a") as out:
        fcntl.flock(out, fcntl.LOCK_EX)
        out.write(json.dumps({"worker": os.getpid(), "url": etcd.url, "pid": record["pid"],
                              "namespace": etcd.namespace,
                              "run": str(shared_servers.run_directory())}) + "\n")
    assert etcd.get("mine")["value"] == str(scenario)
