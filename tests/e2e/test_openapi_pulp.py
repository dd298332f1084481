"""A provider served from Pulp's own description (tests/e2e/providers/pulp, no Lua beyond
turning it on) against Pulp 3 itself (tests/e2e/support/pulp_service.py): objects named by
links (pulp_href is the id), creates and updates answered 202 with a task the provider follows
to its end, deletes that are tasks too. A repository (created at once, updated by a task), a
distribution serving it (created by a task) and a remote with a write-only password: apply, an
empty plan, an update in place, drift made through the API, import by link, destroy."""
from support.harness import planned_actions, required_providers, resources
from support.pulp_service import ADMIN_PASSWORD

REPOSITORY = "pulp_file_file_repository.r"
DISTRIBUTION = "pulp_file_file_distribution.d"
REMOTE = "pulp_file_file_remote.m"
# The remote's password is writeOnly in Pulp's description: sent, never answered.
REMOTE_SECRET = "remote-secret-7f3a"


def config(pulp, description: str) -> str:
    p = pulp.prefix
    return required_providers("pulp") + f"""
provider "pulp" {{
  base_url = "{pulp.url}"
  username = "admin"
}}

resource "pulp_file_file_repository" "r" {{
  name        = "{p}repository"
  description = "{description}"
}}

resource "pulp_file_file_distribution" "d" {{
  name       = "{p}distribution"
  base_path  = "{p}files"
  repository = pulp_file_file_repository.r.pulp_href
}}

resource "pulp_file_file_remote" "m" {{
  name     = "{p}remote"
  url      = "http://127.0.0.1:9/{p}/PULP_MANIFEST"
  policy   = "on_demand"
  username = "mirror"
  password = "{REMOTE_SECRET}"
}}
"""


def test_objects_named_by_links_and_made_by_tasks_settle_update_drift_import_and_go(
        make_tofu, test_provider, pulp):
    provider = test_provider("pulp")
    tofu = make_tofu({"pulp": provider})
    tofu.extra_env = {"PULP_PASSWORD": ADMIN_PASSWORD}
    tofu.write(config(pulp, "first"))
    tofu.apply()
    state = resources(tofu.state())
    repository = state[REPOSITORY]["values"]
    distribution = state[DISTRIBUTION]["values"]
    # The id is the object's link, whole; the distribution was made by a task, whose
    # created_resources named it.
    assert repository["id"] == repository["pulp_href"]
    assert repository["id"].startswith("/pulp/api/v3/repositories/file/file/")
    assert distribution["id"].startswith("/pulp/api/v3/distributions/file/file/")
    status, served = pulp.request("GET", distribution["id"])
    assert status == 200 and served["base_path"] == f"{pulp.prefix}files"
    assert served["repository"] == repository["id"]
    # A write-only field: Pulp keeps it (its hidden_fields say it is set) and never answers
    # it; the state keeps what was sent, the plan settles, and no output shows it.
    remote = state[REMOTE]["values"]
    assert remote["password"] == REMOTE_SECRET
    status, served = pulp.request("GET", remote["id"])
    assert status == 200 and "password" not in served
    assert {"name": "password", "is_set": True} in served["hidden_fields"]
    assert tofu.plan_exit_code() == 0

    # An update is a task: followed to its end, then read back.
    tofu.write(config(pulp, "second"))
    code, plan = tofu.plan()
    assert planned_actions(plan) == {REPOSITORY: ["update"]}
    tofu.apply()
    assert pulp.request("GET", repository["id"])[1]["description"] == "second"
    assert tofu.plan_exit_code() == 0

    # Drift made through the API is seen, and undone.
    pulp.changed(repository["id"], {"description": "changed outside"})
    code, plan = tofu.plan()
    assert code == 2 and planned_actions(plan) == {REPOSITORY: ["update"]}
    tofu.apply()
    assert pulp.request("GET", repository["id"])[1]["description"] == "second"

    # Import by link, in a working directory of its own.
    importer = make_tofu({"pulp": provider}, name="importer")
    importer.extra_env = tofu.extra_env
    importer.write(config(pulp, "second") + f"""
import {{
  to = {REPOSITORY}
  id = "{repository['id']}"
}}
import {{
  to = {DISTRIBUTION}
  id = "{distribution['id']}"
}}
import {{
  to = {REMOTE}
  id = "{state[REMOTE]['values']['id']}"
}}
""")
    applied = importer.apply()
    imported = resources(importer.state())
    assert imported[REPOSITORY]["values"]["description"] == "second"
    # The imported remote's password, which Pulp never answers, is sent once from the config.
    assert imported[REMOTE]["values"]["password"] == REMOTE_SECRET
    assert REMOTE_SECRET not in applied.stdout + applied.stderr
    assert importer.plan_exit_code() == 0
    importer.run("state", "rm", REPOSITORY, DISTRIBUTION, REMOTE)

    # Deletes are tasks too: each is gone when destroy ends.
    tofu.destroy()
    for address in (REPOSITORY, DISTRIBUTION, REMOTE):
        href = state[address]["values"]["id"]
        assert pulp.request("GET", href)[0] == 404, address
