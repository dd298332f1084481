"""Ephemeral resources (ephemeral_*.lua) and write-only attributes, driven by the real
CLI against a credentials service on loopback (tests/e2e/support/lease_api.py): a lease is opened for
each plan and apply, renewed while a slow create outlives its time-to-live, revoked at the end,
and its token reaches neither the state nor a saved plan. A write-only attribute takes a literal
or an ephemeral value to the API and to neither file."""
import json

import pytest

from support.harness import (SOURCE_PREFIX, TEST_PROVIDERS_DIR, TofuError, assert_script_error,
                     parse_json, required_providers, resources, run_schema, squash)
from support.lease_config import config, saved_texts


def test_a_lease_is_opened_renewed_and_revoked_and_its_token_is_never_saved(lease, leases):
    # The lease lives 2 s and the note takes 3 s to write: the write succeeds only if the
    # CLI renewed the lease in between (the script asks for a renewal at half the TTL).
    lease.write(config(leases.url, delay=3, ttl=2))
    lease.apply()
    api = leases.api
    assert list(api.notes.values())[0]["text"] == "hello"
    assert api.refused == []
    # One lease for the plan, one for the apply; every one was revoked by its close.
    assert len(api.leases) == 2
    assert all(lease_.revoked for lease_ in api.leases.values())
    assert max(lease_.renewals for lease_ in api.leases.values()) >= 1

    # Nothing ephemeral is saved: not in state, not in a saved plan.
    lease.write(config(leases.url, text="changed"))
    code, plan = lease.plan()
    assert code == 2
    state_text = saved_texts(lease.workdir)
    for token in api.tokens():
        assert token not in state_text
    assert list(resources(lease.state())) == ["lease_note.n"]
    assert all(lease_.revoked for lease_ in api.leases.values())


def test_a_failing_open_names_the_script_and_line(lease, leases):
    lease.write(config(leases.url, role="nobody"))
    with pytest.raises(TofuError) as failure:
        lease.apply()
    message = squash(str(failure.value))
    assert "lease_token: open failed" in message
    script = (TEST_PROVIDERS_DIR / "lease" / "ephemeral_token.lua").read_text().splitlines()
    line = next(n for n, text in enumerate(script, 1) if 'client:post("/leases"' in text)
    assert_script_error(message, "POST", f"ephemeral_token.lua:{line}")
    assert "403" in message
    assert leases.api.notes == {}


def test_the_schema_the_cli_reports_lists_the_ephemeral_resource(make_tofu, test_provider):
    provider_dir = test_provider("lease")
    result = run_schema(provider_dir / "terraform-provider-lease")
    assert result.returncode == 0, result.stderr
    ours = json.loads(result.stdout)["provider_schemas"][SOURCE_PREFIX + "lease"]
    work = make_tofu({"lease": provider_dir})
    work.write(required_providers("lease"))
    cli = parse_json(work.run("providers", "schema", "-json", "-no-color").stdout)
    theirs = cli["provider_schemas"][SOURCE_PREFIX + "lease"]
    assert ours == theirs
    token = theirs["ephemeral_resource_schemas"]["lease_token"]["block"]["attributes"]
    assert set(token) == {"role", "ttl", "token"}
    assert token["token"] == {"type": "string", "description_kind": "plain", "computed": True,
                              "sensitive": True}


def test_write_only_values_reach_the_api_and_neither_state_nor_plan(lease, leases):
    literal = "hunter2-written-once"
    lease.write(config(leases.url, note=f'secret = "{literal}"\n  secret_version = 1'))
    lease.apply()
    note = list(leases.api.notes.values())[0]
    assert note["secret"] == literal
    values = resources(lease.state())["lease_note.n"]["values"]
    assert values["secret"] is None and values["secret_version"] == 1
    # Nothing to change: a write-only value is not compared with anything.
    code, _ = lease.plan()
    assert code == 0
    assert literal not in saved_texts(lease.workdir)

    # An ephemeral value may go where a write-only attribute is: a new version sends it.
    lease.write(config(leases.url, note="secret = ephemeral.lease_token.writer.token\n"
                                        "  secret_version = 2"))
    code, plan = lease.plan()
    assert code == 2
    lease.apply()
    assert note["secret"] in leases.api.tokens()
    texts = saved_texts(lease.workdir)
    for token in leases.api.tokens():
        assert token not in texts
    assert lease.plan_exit_code() == 0


def test_an_ephemeral_value_in_an_ordinary_attribute_is_refused_by_the_cli(lease, leases):
    lease.write(config(leases.url, text="${ephemeral.lease_token.writer.token}"))
    with pytest.raises(TofuError) as failure:
        lease.apply()
    assert "ephemeral" in squash(str(failure.value)).lower()
    assert leases.api.notes == {}
