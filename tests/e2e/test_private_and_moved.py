"""Private data (d:private / d:set_private) and `moved` blocks across resource types
(move_state), through tests/e2e/providers/lease against its service on loopback: a note keeps
its version in private data and sends it back on update, and a note becomes a memo without being
destroyed."""
import base64
import json

import pytest

from support.harness import TofuError, planned_actions, planned_change, resources, squash
from support.lease_config import config


def test_private_data_is_kept_with_the_state_and_handed_back(lease, leases):
    lease.write(config(leases.url))
    lease.apply()
    note = list(leases.api.notes.values())[0]
    raw = json.loads((lease.workdir / "terraform.tfstate").read_text())
    instance = raw["resources"][0]["instances"][0]
    assert json.loads(base64.b64decode(instance["private"])) == {"etag": note["etag"]}
    assert "etag" not in json.dumps(resources(lease.state())["lease_note.n"]["values"])

    # Changed elsewhere: refresh reads the new version into private data, and the update
    # sends it back as If-Match (the service refuses a stale one with 412).
    note["etag"] = "changed-elsewhere"
    note["text"] = "edited"
    lease.apply()
    assert leases.api.if_match == ["changed-elsewhere"]
    assert note["text"] == "hello"
    assert lease.plan_exit_code() == 0


MEMO = """
resource "lease_memo" "m" {
  provider = lease.authed
  body     = "hello"
}

moved {
  from = lease_note.n
  to   = lease_memo.m
}
"""


def test_a_moved_block_across_types_keeps_the_object(lease, leases):
    lease.write(config(leases.url))
    lease.apply()
    [note] = leases.api.notes.values()

    # lease_note.n becomes lease_memo.m: move_state carries id and text over, the plan has
    # nothing to create or destroy, and the private etag came along (the update uses it).
    lease.write(config(leases.url, resource=MEMO))
    _, plan = lease.plan()  # a move alone is a change to the state, so exit code 2
    assert planned_actions(plan) == {}
    assert planned_change(plan, "lease_memo.m")["actions"] == ["no-op"]
    lease.apply()
    state = resources(lease.state())
    assert list(state) == ["lease_memo.m"]
    assert state["lease_memo.m"]["values"] == {"id": note["id"], "body": "hello"}
    assert list(leases.api.notes) == [note["id"]]

    lease.write(config(leases.url, resource=MEMO.replace('"hello"', '"edited"')))
    lease.apply()
    assert note["text"] == "edited" and leases.api.if_match[-1] != ""


def test_a_move_the_target_does_not_take_is_refused_and_keeps_the_state(lease, leases):
    lease.write(config(leases.url, resource=MEMO.split("moved")[0]))
    lease.apply()
    back = """
resource "lease_note" "n" {
  provider = lease.authed
  text     = "hello"
}

moved {
  from = lease_memo.m
  to   = lease_note.n
}
"""
    lease.write(config(leases.url, resource=back))
    with pytest.raises(TofuError) as failure:
        lease.plan()
    message = squash(str(failure.value))
    assert "Cannot move lease_memo to lease_note" in message
    assert "declares no move_state function" in message
    assert list(resources(lease.state())) == ["lease_memo.m"]
