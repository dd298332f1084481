"""State stores in Lua (Terraform 1.16's state store experiment, protocol 6 only): Terraform's
own state kept through a provider. providers/etcd's etcd_state on the run's etcd-server: init,
apply, workspaces, state pull and push, a second CLI refused while the first holds the lock,
force-unlock of a lock a dead CLI left, and etcd going away in the middle of an apply, which
loses nothing. tests/e2e/providers/hangar's hangar_files streams states in chunks of 256 bytes,
so every read and write crosses the protocol in many chunks."""
import json
import time

import pytest

from support.harness import required_providers, resources, squash

pytestmark = pytest.mark.only_pairs("terraform116:6")

SLOW = """
resource "terraform_data" "slow" {
  triggers_replace = "%s"
  provisioner "local-exec" {
    command = "sleep %d"
  }
}
"""


def store_config(etcd, body: str = "", lock_ttl: int = 60) -> str:
    """A configuration whose state is in `etcd`, under the scenario's namespace."""
    return required_providers("etcd") + f"""
terraform {{
  state_store "etcd_state" {{
    provider "etcd" {{
      endpoint = "{etcd.url}"
      retries  = 0
      {etcd.provider_prefix()}
    }}
    lock_ttl = {lock_ttl}
  }}
}}
""" + body


def stored(etcd, workspace: str = "default") -> dict | None:
    entry = etcd.get(f"terraform/states/{workspace}")
    return json.loads(entry["value"]) if entry else None


def lock_of(etcd, workspace: str = "default") -> dict | None:
    entry = etcd.get(f"terraform/locks/{workspace}")
    return json.loads(entry["value"]) if entry else None


def in_store(tofu):
    """A CLI run with the state store experiment on."""
    tofu.extra_env["TF_ENABLE_PLUGGABLE_STATE_STORAGE"] = "1"
    return tofu


def test_state_lives_in_etcd_through_apply_workspaces_pull_and_push(make_tofu, etcd_dir, etcd):
    tofu = in_store(make_tofu({"etcd": etcd_dir}))
    tofu.write(store_config(etcd, """
resource "terraform_data" "note" {
  input = "first"
}
"""))
    tofu.run("init", "-input=false")
    assert not (tofu.workdir / "terraform.tfstate").exists()
    tofu.apply()
    state = stored(etcd)
    assert state["serial"] >= 1
    assert [r["name"] for r in state["resources"]] == ["note"]
    assert lock_of(etcd) is None  # the apply released its lock
    assert tofu.plan_exit_code() == 0  # read back from etcd: nothing to do

    pulled = json.loads(tofu.run("state", "pull").stdout)
    assert pulled == stored(etcd)
    # A state pushed with a higher serial replaces the stored one, whole.
    pulled["serial"] += 1
    pulled["outputs"] = {"pushed": {"value": "yes", "type": "string"}}
    (tofu.workdir / "pushed.tfstate").write_text(json.dumps(pulled))
    tofu.run("state", "push", "pushed.tfstate")
    assert stored(etcd)["outputs"]["pushed"]["value"] == "yes"
    assert stored(etcd)["serial"] >= pulled["serial"]

    tofu.run("workspace", "new", "-no-color", "dev")
    tofu.apply()
    assert [r["name"] for r in stored(etcd, "dev")["resources"]] == ["note"]
    listed = tofu.run("workspace", "list", "-no-color").stdout.split()
    assert "default" in listed and "dev" in listed
    tofu.destroy()
    tofu.run("workspace", "select", "-no-color", "default")
    tofu.run("workspace", "delete", "-no-color", "dev")
    assert stored(etcd, "dev") is None
    assert "dev" not in tofu.run("workspace", "list", "-no-color").stdout.split()
    assert [r["name"] for r in stored(etcd)["resources"]] == ["note"]  # default untouched
    tofu.destroy()


def test_a_bad_state_store_argument_is_an_error_naming_it(make_tofu, etcd_dir, etcd):
    tofu = in_store(make_tofu({"etcd": etcd_dir}))
    tofu.write(store_config(etcd, lock_ttl=5))
    refused = squash(tofu.run("init", "-input=false", ok=(1,)).stderr)
    assert "expected lock_ttl to be between 10 and 86400, got 5" in refused, refused
    assert stored(etcd) is None and lock_of(etcd) is None  # nothing was touched


def test_a_second_cli_is_refused_while_the_first_holds_the_lock(make_tofu, etcd_dir, etcd):
    first = in_store(make_tofu({"etcd": etcd_dir}, name="first"))
    first.write(store_config(etcd, SLOW % ("a", 8)))
    first.run("init", "-input=false")
    second = in_store(make_tofu({"etcd": etcd_dir}, name="second"))
    second.write(store_config(etcd, SLOW % ("a", 8)))
    second.run("init", "-input=false")

    running = first.start("apply", "-auto-approve", "-input=false")
    try:
        deadline = time.monotonic() + 60
        while lock_of(etcd) is None and time.monotonic() < deadline and running.poll() is None:
            time.sleep(0.2)
        held = lock_of(etcd)
        assert held is not None, running.communicate()
        assert held["operation"] == "OperationTypeApply"
        assert int(etcd.get("terraform/locks/default")["lease"]) != 0  # on a lease
        refused = second.run("plan", "-input=false", ok=(1,))
        text = squash(refused.stderr)
        assert "Error acquiring the state lock" in text
        assert f'state "default" is locked by lock {held["id"]} (OperationTypeApply' in text
    finally:
        out, err = running.communicate(timeout=120)
    assert running.returncode == 0, err
    assert lock_of(etcd) is None
    assert second.plan_exit_code() == 0  # the first's state, read from etcd


def test_force_unlock_frees_a_lock_a_dead_cli_left(make_tofu, etcd_dir, etcd):
    tofu = in_store(make_tofu({"etcd": etcd_dir}))
    tofu.write(store_config(etcd, SLOW % ("b", 0)))
    tofu.run("init", "-input=false")
    tofu.apply()
    # What a CLI killed while applying leaves behind (its lease not yet run out).
    etcd.put("terraform/locks/default", json.dumps(
        {"id": "dead-cli", "operation": "OperationTypeApply", "created": "2026-01-01T00:00:00Z"}))
    refused = tofu.run("plan", "-input=false", ok=(1,))
    assert 'locked by lock dead-cli (OperationTypeApply, since 2026-01-01T00:00:00Z)' in \
        squash(refused.stderr)
    wrong = tofu.run("force-unlock", "-force", "someone-else", ok=(1,))
    assert "not by lock someone-else" in squash(wrong.stderr)
    assert lock_of(etcd)["id"] == "dead-cli"
    tofu.run("force-unlock", "-force", "dead-cli")
    assert lock_of(etcd) is None
    assert tofu.plan_exit_code() == 0
    tofu.destroy()


def test_the_lock_of_a_cli_killed_mid_apply_expires_with_its_lease(make_tofu, etcd_dir, etcd):
    tofu = in_store(make_tofu({"etcd": etcd_dir}))
    tofu.write(store_config(etcd, SLOW % ("f", 30), lock_ttl=10))
    tofu.run("init", "-input=false")
    running = tofu.start("apply", "-auto-approve", "-input=false")
    deadline = time.monotonic() + 60
    while lock_of(etcd) is None and time.monotonic() < deadline and running.poll() is None:
        time.sleep(0.2)
    assert lock_of(etcd) is not None, running.communicate()
    running.kill()  # no unlock: the lock stays until its lease runs out
    running.communicate()
    assert lock_of(etcd) is not None
    deadline = time.monotonic() + 30
    while lock_of(etcd) is not None and time.monotonic() < deadline:
        time.sleep(0.5)
    assert lock_of(etcd) is None
    code = tofu.plan_exit_code()  # the store is usable again
    assert code == 2  # the killed apply saved nothing: the resource is still to create


def test_etcd_going_away_during_an_apply_loses_nothing(make_tofu, etcd_dir, own_etcd):
    tofu = in_store(make_tofu({"etcd": etcd_dir}))
    tofu.write(store_config(own_etcd, SLOW % ("c", 0)))
    tofu.run("init", "-input=false")
    tofu.apply()
    before = stored(own_etcd)

    tofu.write(store_config(own_etcd, SLOW % ("d", 6)))
    running = tofu.start("apply", "-auto-approve", "-input=false")
    deadline = time.monotonic() + 60
    while lock_of(own_etcd) is None and time.monotonic() < deadline and running.poll() is None:
        time.sleep(0.2)
    assert lock_of(own_etcd) is not None, running.communicate()
    own_etcd.stop()  # while the provisioner sleeps: the state cannot be written
    out, err = running.communicate(timeout=180)
    assert running.returncode == 1
    text = squash(err)
    assert "Failed to save state" in text or "Failed to persist state" in text, text
    errored = tofu.workdir / "errored.tfstate"
    assert errored.exists(), text  # the CLI kept what the store could not take

    own_etcd.start()
    # The stored state is the last whole one, not part of the new one.
    assert stored(own_etcd) == before
    held = lock_of(own_etcd)
    if held is not None:  # the unlock could not reach etcd either
        tofu.run("force-unlock", "-force", held["id"])
    tofu.run("state", "push", "errored.tfstate")
    recovered = stored(own_etcd)
    assert recovered["serial"] > before["serial"]
    slow = [r for r in recovered["resources"] if r["name"] == "slow"][0]
    assert slow["instances"][0]["attributes"]["triggers_replace"]["value"] == "d"
    assert tofu.plan_exit_code() == 0
    tofu.destroy()


def test_states_stream_in_many_chunks_both_ways(make_tofu, test_provider):
    tofu = in_store(make_tofu({"hangar": test_provider("hangar")}))
    states = tofu.workdir / "states"
    notes = "\n".join(f'  n{i} = "{"é" * 40}{i}"' for i in range(40))
    tofu.write(required_providers("hangar") + f"""
terraform {{
  state_store "hangar_files" {{
    provider "hangar" {{}}
    directory = "{states}"
  }}
}}
resource "terraform_data" "big" {{
  input = {{
{notes}
  }}
}}
""")
    tofu.run("init", "-input=false")
    tofu.apply()
    written = (states / "default.tfstate").read_bytes()
    assert len(written) > 20 * 256  # many chunks of 256 bytes
    state = json.loads(written)
    assert state["resources"][0]["instances"][0]["attributes"]["input"]["value"]["n7"] == "é" * 40 + "7"
    assert tofu.plan_exit_code() == 0  # read back through the same chunks: nothing changes
    assert json.loads(tofu.run("state", "pull").stdout) == state
    # Exactly a multiple of the chunk size and one byte less read back too.
    # Exactly a multiple of the chunk size, and one byte less, read back too (padded in an
    # output, which the CLI keeps).
    chunks = len(written) // 256 + 2
    for size in (256 * chunks, 256 * chunks - 1):
        padded = dict(state, outputs={"pad": {"value": "", "type": "string"}})
        unpadded = len(json.dumps(padded, ensure_ascii=False).encode())
        padded["outputs"]["pad"]["value"] = "x" * (size - unpadded)
        (states / "default.tfstate").write_bytes(json.dumps(padded, ensure_ascii=False).encode())
        assert len((states / "default.tfstate").read_bytes()) == size
        pulled = json.loads(tofu.run("state", "pull").stdout)
        assert pulled["outputs"]["pad"]["value"] == padded["outputs"]["pad"]["value"]
    (states / "default.tfstate").write_bytes(written)
    assert "big" in [r["address"].split(".")[-1] for r in resources(tofu.state()).values()]
    tofu.destroy()


def rest_store_config(api, body: str = "") -> str:
    """A configuration whose state is kept as objects of `api` (json-server)."""
    return required_providers("restapi") + f"""
terraform {{
  state_store "restapi_state" {{
    provider "restapi" {{
      uri     = "{api.url}"
      retries = 0
    }}
  }}
}}
""" + body


def test_state_lives_as_objects_of_a_json_api(make_tofu, restapi_dir, json_server):
    tofu = in_store(make_tofu({"restapi": restapi_dir}))
    tofu.write(rest_store_config(json_server, SLOW % ("e", 0)))
    tofu.run("init", "-input=false")
    tofu.apply()
    status, stored_state = json_server.request("GET", "/tfstates/default")
    assert status == 200
    state = json.loads(stored_state["state"])
    assert [r["name"] for r in state["resources"]] == ["slow"]
    assert json_server.request("GET", "/tflocks")[1] == []  # released after the apply
    assert tofu.plan_exit_code() == 0
    assert json.loads(tofu.run("state", "pull").stdout) == state

    tofu.run("workspace", "new", "-no-color", "dev")
    tofu.apply()
    assert sorted(o["id"] for o in json_server.request("GET", "/tfstates")[1]) == \
        ["default", "dev"]
    tofu.destroy()
    tofu.run("workspace", "select", "-no-color", "default")
    tofu.run("workspace", "delete", "-no-color", "dev")
    assert json_server.request("GET", "/tfstates/dev")[0] == 404

    # A lock someone holds refuses the plan, naming them; force-unlock with their id frees it.
    json_server.request("POST", "/tflocks", {"id": "default", "lock_id": "other-cli",
                                             "operation": "OperationTypeApply",
                                             "created": "2026-01-01T00:00:00Z"})
    refused = tofu.run("plan", "-input=false", ok=(1,))
    assert 'state "default" is locked by lock other-cli (OperationTypeApply' in \
        squash(refused.stderr)
    tofu.run("force-unlock", "-force", "other-cli")
    assert json_server.request("GET", "/tflocks")[1] == []
    tofu.destroy()
    assert json.loads(json_server.request("GET", "/tfstates/default")[1]["state"])[
        "resources"] == []
