"""providers/etcd against Debian's real etcd-server on loopback: keys with plan-empty-after-
apply, drift when a key changes or disappears outside, leases, import-verify, the key and range
data sources, the provider's prefix, and a clear error that loses no state when etcd is down."""
from support.harness import planned_actions, required_providers, resources, squash


def config(etcd, body: str, prefix: str = "") -> str:
    """`body` with a provider for `etcd`'s keys, under `prefix` in the scenario's namespace."""
    return required_providers("etcd") + f"""
provider "etcd" {{
  endpoint = "{etcd.url}"
  retries  = 1
  {etcd.provider_prefix(prefix)}
}}
""" + body


KEY = """
resource "etcd_key" "mode" {
  key   = "app/mode"
  value = "%s"
}
"""


def values(tofu, address="etcd_key.mode") -> dict:
    return resources(tofu.state())[address]["values"]


def test_a_key_lives_drifts_and_is_imported(make_tofu, etcd_dir, etcd):
    tofu = make_tofu({"etcd": etcd_dir})
    tofu.write(config(etcd, KEY % "blue"))
    tofu.apply()
    assert etcd.get("app/mode")["value"] == "blue"
    state = values(tofu)
    assert state["id"] == "app/mode" and state["version"] == 1 and state["lease_id"] == ""
    assert tofu.plan_exit_code() == 0

    etcd.put("app/mode", "green")  # changed outside: the plan puts it back
    code, plan = tofu.plan()
    assert planned_actions(plan) == {"etcd_key.mode": ["update"]}
    tofu.apply()
    assert etcd.get("app/mode")["value"] == "blue"
    assert values(tofu)["version"] == 3 and tofu.plan_exit_code() == 0

    etcd.delete("app/mode")  # gone outside: the plan creates it again
    code, plan = tofu.plan()
    assert planned_actions(plan) == {"etcd_key.mode": ["create"]}
    tofu.apply()

    other = make_tofu({"etcd": etcd_dir}, name="imported")
    other.write(config(etcd, KEY % "blue"))
    other.run("import", "etcd_key.mode", "app/mode")
    imported = values(other)
    assert {k: imported[k] for k in ("id", "key", "value", "version", "mod_revision")} == \
        {k: values(tofu)[k] for k in ("id", "key", "value", "version", "mod_revision")}
    assert other.plan_exit_code() == 0
    result = other.run("import", "etcd_key.mode", "no/such/key", ok=(1,))
    assert 'etcd has no key "no/such/key"' in squash(result.stderr)

    tofu.destroy()
    assert etcd.get("app/mode") is None


def test_a_ttl_puts_the_key_on_a_lease(make_tofu, etcd_dir, etcd):
    tofu = make_tofu({"etcd": etcd_dir})
    tofu.write(config(etcd, """
resource "etcd_key" "session" {
  key   = "sessions/s1"
  value = "token-less"
  ttl   = 300
}
"""))
    tofu.apply()
    lease = values(tofu, "etcd_key.session")["lease_id"]
    assert lease != "" and etcd.get("sessions/s1")["lease"] == lease
    assert 250 < etcd.lease_ttl(lease) <= 300
    assert tofu.plan_exit_code() == 0
    tofu.destroy()
    assert etcd.get("sessions/s1") is None and etcd.lease_ttl(lease) == -1  # revoked


def test_data_sources_read_a_key_and_a_prefix_under_the_provider_prefix(
        make_tofu, etcd_dir, etcd):
    for key, value in [("team/a/db", "pg"), ("team/a/cache", "redis"), ("team/b/db", "mysql"),
                       ("other/x", "1")]:
        etcd.put(key, value)
    tofu = make_tofu({"etcd": etcd_dir})
    tofu.write(config(etcd, """
data "etcd_key" "db" {
  key = "a/db"
}

data "etcd_range" "a" {
  prefix = "a/"
}

resource "etcd_key" "queue" {
  key   = "a/queue"
  value = "rabbit"
}

output "db" {
  value = data.etcd_key.db.value
}

output "a" {
  value = data.etcd_range.a.values
}
""", prefix="team/"))
    tofu.apply()
    assert tofu.outputs() == {"db": "pg", "a": {"a/cache": "redis", "a/db": "pg"}}
    assert etcd.get("team/a/queue")["value"] == "rabbit"  # the provider's prefix, in etcd

    tofu.write(config(etcd, 'data "etcd_key" "nope" {\n  key = "a/nope"\n}\n',
                      prefix="team/"))
    result = tofu.run("plan", "-input=false", ok=(1,))
    text = squash(result.stderr)
    assert "No such key" in text and 'key = "a/nope"' in text, text


def test_etcd_down_is_a_clear_error_and_the_state_is_kept(make_tofu, etcd_dir, own_etcd):
    tofu = make_tofu({"etcd": etcd_dir})
    tofu.write(config(own_etcd, KEY % "blue"))
    tofu.apply()
    kept = values(tofu)
    own_etcd.stop()
    result = tofu.run("plan", "-input=false", ok=(1,))
    text = squash(result.stderr)
    assert f"POST {own_etcd.url}/v3/kv/range" in text and "(2 attempts)" in text, text
    assert values(tofu) == kept
    own_etcd.start()
    assert tofu.plan_exit_code() == 0
