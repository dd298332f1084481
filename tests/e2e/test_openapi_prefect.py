"""A provider served from an OpenAPI 3.1 description: tests/e2e/providers/prefect is the
description a Prefect server publishes and a dozen lines of provider.lua, applied against that
server on loopback (support/prefect_service.py). Prefect answers updates with 204 and no body,
writes nullable fields as anyOf [X, null], declares no 404, lists through POST .../filter
with an offset, at most 200 a page, and answers secrets as "********": what a mapping must
absorb."""
import json

from support.harness import planned_actions, required_providers, resources, squash
from support.prefect_service import prefect  # noqa: F401  (the fixture)


def config(prefect, body: str) -> str:
    return required_providers("prefect") + f"""
provider "prefect" {{
  base_url = "{prefect.url}"
}}
""" + body


def values(tofu, address: str) -> dict:
    return resources(tofu.state())[address]["values"]


def variables_and_pools(names: dict, tags: str, limit: int, paused: str = "false") -> str:
    return f"""
resource "prefect_variable" "v" {{
  name  = "{names['variable']}"
  value = jsonencode({{ region = "eu", replicas = 3 }})
  tags  = [{tags}]
}}

resource "prefect_work_pool" "pool" {{
  name              = "{names['pool']}"
  type              = "process"
  concurrency_limit = {limit}
  is_paused         = {paused}
}}

resource "prefect_flow" "f" {{
  name = "{names['flow']}"
  tags = [{tags}]
}}

resource "prefect_global_concurrency_limit" "gcl" {{
  name  = "{names['gcl']}"
  limit = {limit}
}}
"""


def test_each_type_settles_updates_drifts_and_is_imported(make_tofu, test_provider, prefect):
    provider = test_provider("prefect")
    tofu = make_tofu({"prefect": provider})
    names = {kind: prefect.unique(kind) for kind in ("variable", "pool", "flow", "gcl")}

    tofu.write(config(prefect, variables_and_pools(names, '"a"', 2)))
    tofu.apply()
    variable = values(tofu, "prefect_variable.v")
    status, served = prefect.request("GET", f"/variables/{variable['id']}")
    assert status == 200 and served["value"] == {"region": "eu", "replicas": 3}
    pool_id = values(tofu, "prefect_work_pool.pool")["id"]
    assert pool_id == names["pool"]  # work pools are addressed by name
    # What the server fills in (a default queue, created/updated) is read back after the 201.
    assert values(tofu, "prefect_work_pool.pool")["default_queue_id"]
    assert tofu.plan_exit_code() == 0

    # In place: every PATCH answers 204 with no body; the read after it fills the state.
    tofu.write(config(prefect, variables_and_pools(names, '"a", "b"', 5, paused="true")))
    code, plan = tofu.plan()
    assert planned_actions(plan) == {"prefect_variable.v": ["update"],
                                     "prefect_work_pool.pool": ["update"],
                                     "prefect_flow.f": ["update"],
                                     "prefect_global_concurrency_limit.gcl": ["update"]}
    tofu.apply()
    status, pool = prefect.request("GET", f"/work_pools/{names['pool']}")
    assert (pool["concurrency_limit"], pool["is_paused"]) == (5, True)
    assert prefect.request("GET", f"/variables/{variable['id']}")[1]["tags"] == ["a", "b"]
    assert tofu.plan_exit_code() == 0

    # Drift made through the API is put back.
    assert prefect.request("PATCH", f"/v2/concurrency_limits/{names['gcl']}",
                           {"limit": 9})[0] == 204
    code, plan = tofu.plan()
    assert planned_actions(plan) == {"prefect_global_concurrency_limit.gcl": ["update"]}
    tofu.apply()
    assert prefect.request("GET", f"/v2/concurrency_limits/{names['gcl']}")[1]["limit"] == 5

    # Deleted outside: Prefect answers 404 (its description declares none); the plan creates
    # it again.
    assert prefect.request("DELETE", f"/variables/{variable['id']}")[0] == 204
    code, plan = tofu.plan()
    assert planned_actions(plan) == {"prefect_variable.v": ["create"]}
    tofu.apply()
    assert tofu.plan_exit_code() == 0

    # A new name replaces a work pool (the description cannot say so; provider.lua does).
    renamed = dict(names, pool=names["pool"] + "-2")
    tofu.write(config(prefect, variables_and_pools(renamed, '"a", "b"', 5, paused="true")))
    code, plan = tofu.plan()
    assert planned_actions(plan) == {"prefect_work_pool.pool": ["delete", "create"]}
    tofu.apply()
    assert prefect.request("GET", f"/work_pools/{names['pool']}")[0] == 404

    # Imported by id, each plans nothing.
    other = make_tofu({"prefect": provider}, name="imported")
    other.write(config(prefect, variables_and_pools(renamed, '"a", "b"', 5, paused="true")))
    for address in ("prefect_variable.v", "prefect_work_pool.pool", "prefect_flow.f",
                    "prefect_global_concurrency_limit.gcl"):
        other.run("import", address, values(tofu, address)["id"])
    assert other.plan_exit_code() == 0

    tofu.destroy()
    assert prefect.request("GET", f"/work_pools/{renamed['pool']}")[0] == 404
    assert prefect.request("GET", f"/v2/concurrency_limits/{names['gcl']}")[0] == 404


def test_variables_are_listed_over_pages_of_the_filter(make_tofu, test_provider, prefect):
    """The list resource reads POST /variables/filter page by page (offset and limit in the
    body): 230 variables take three pages of 100.

    The server is the run's, shared, and lists by name (NAME_ASC) with an offset, so a variable
    deleted while this listing pages, if its name sorts before ours, shifts ours a place and one
    is missed: the server's answer, not the provider's. So the names start with "0" (before the
    letters every other scenario's names start with) and are left on the server: the other
    CLI's run of this scenario pages through the same list at the same time."""
    tofu = make_tofu({"prefect": test_provider("prefect")})
    if "terraform" not in tofu.binary.name:
        return  # OpenTofu has no `query`
    prefix = prefect.unique("0-paged")
    made = []
    for i in range(230):
        status, variable = prefect.request("POST", "/variables/",
                                           {"name": f"{prefix}-{i:03d}", "value": i})
        assert status == 201, variable
        made.append(variable["id"])
    tofu.write(config(prefect, ""))
    (tofu.workdir / "main.tfquery.hcl").write_text("""
list "prefect_variable" "all" {
  provider = prefect
  limit    = 100000
}
""")
    result = tofu.run("query", "-json")
    found = [json.loads(line)["list_resource_found"] for line in result.stdout.splitlines()
             if line.startswith("{") and '"list_resource_found"' in line]
    listed = {f["identity"]["id"] for f in found}
    assert set(made) <= listed, f"{len(set(made) - listed)} of 230 not listed"


def test_a_refused_create_names_the_operation_and_the_server_s_reason(make_tofu, test_provider,
                                                                      prefect):
    tofu = make_tofu({"prefect": test_provider("prefect")})
    tofu.write(config(prefect, """
resource "prefect_variable" "bad" {
  name  = "Not A Valid Name"
  value = jsonencode("x")
}
"""))
    result = tofu.run("apply", "-auto-approve", "-input=false", ok=(1,))
    text = squash(result.stderr)
    assert "POST /variables/ (create_variable_variables__post) answered 422" in text, text
    assert resources(tofu.state()) == {}


def secret_block(prefect) -> tuple[str, str]:
    """The ids of the server's own "secret" block type and of its schema, whose one field,
    `value`, the server keeps secret: it answers "********" for it unless asked for secrets."""
    status, block_types = prefect.request("POST", "/block_types/filter",
                                          {"block_types": {"slug": {"any_": ["secret"]}}})
    assert status == 200 and len(block_types) == 1, block_types
    type_id = block_types[0]["id"]
    status, schemas = prefect.request("POST", "/block_schemas/filter",
                                      {"block_schemas": {"block_type_id": {"any_": [type_id]}}})
    assert status == 200 and schemas, schemas
    return type_id, schemas[0]["id"]


def collision_options(tofu, strategy: str) -> str:
    """An object in a property: a nested attribute over protocol 6, its JSON over protocol 5."""
    options = f'{{ collision_strategy = "{strategy}" }}'
    return f"jsonencode({options})" if tofu.protocol == 5 else options


def deployment_config(names: dict, flow_id: str, pool: str, description: str,
                      options: str) -> str:
    return f"""
resource "prefect_deployment" "d" {{
  name           = "{names['deployment']}"
  flow_id        = {flow_id}
  work_pool_name = {pool}
  entrypoint     = "flows.py:hello"
  description    = "{description}"
  parameters     = jsonencode({{ who = "world", times = 2 }})
  tags           = ["etl"]

  concurrency_options = {options}
}}
"""


def block_document_config(names: dict, ids: tuple[str, str], secret: str) -> str:
    return f"""
resource "prefect_block_document" "token" {{
  name            = "{names['block']}"
  block_type_id   = "{ids[0]}"
  block_schema_id = "{ids[1]}"
  data            = jsonencode({{ value = "{secret}" }})
}}
"""


def deployment_and_block(tofu, names: dict, ids: tuple[str, str], description: str,
                         secret: str, strategy: str = "ENQUEUE") -> str:
    return f"""
resource "prefect_flow" "f" {{
  name = "{names['flow']}"
}}

resource "prefect_work_pool" "pool" {{
  name = "{names['pool']}"
  type = "process"
}}
""" + deployment_config(names, "prefect_flow.f.id", "prefect_work_pool.pool.name", description,
                        collision_options(tofu, strategy)) \
        + block_document_config(names, ids, secret)


def test_deployments_and_secret_blocks_settle_update_and_import(make_tofu, test_provider,
                                                               prefect):
    """A deployment of a flow on a work pool, and a block document of the server's "secret"
    type: the server answers the secret as "********", which the read keeps as the state has
    it, so the plan settles; the secret is sent when it changes and never printed."""
    provider = test_provider("prefect")
    tofu = make_tofu({"prefect": provider})
    names = {kind: prefect.unique(kind) for kind in ("flow", "pool", "deployment", "block")}
    ids = secret_block(prefect)

    tofu.write(config(prefect, deployment_and_block(tofu, names, ids, "first",
                                                    "tok-4711-first")))
    result = tofu.apply()
    assert "tok-4711" not in result.stdout + result.stderr
    deployment = values(tofu, "prefect_deployment.d")
    status, served = prefect.request("GET", f"/deployments/{deployment['id']}")
    assert status == 200 and served["parameters"] == {"who": "world", "times": 2}
    assert served["work_pool_name"] == names["pool"] and served["tags"] == ["etl"]
    assert served["concurrency_options"]["collision_strategy"] == "ENQUEUE"
    if tofu.protocol == 6:  # typed: the server's default for the field left out is kept
        assert deployment["concurrency_options"]["collision_strategy"] == "ENQUEUE"
    block_id = values(tofu, "prefect_block_document.token")["id"]
    status, masked = prefect.request("GET", f"/block_documents/{block_id}")
    assert status == 200 and masked["data"] == {"value": "********"}
    status, revealed = prefect.request("GET", f"/block_documents/{block_id}?include_secrets=true")
    assert revealed["data"] == {"value": "tok-4711-first"}
    assert json.loads(values(tofu, "prefect_block_document.token")["data"]) == \
        {"value": "tok-4711-first"}
    assert tofu.plan_exit_code() == 0

    # In place: the deployment's description and the secret, each by its PATCH.
    tofu.write(config(prefect, deployment_and_block(tofu, names, ids, "second",
                                                    "tok-4711-second", "CANCEL_NEW")))
    code, plan = tofu.plan()
    assert planned_actions(plan) == {"prefect_deployment.d": ["update"],
                                     "prefect_block_document.token": ["update"]}
    result = tofu.apply()
    assert "tok-4711" not in result.stdout + result.stderr
    status, served = prefect.request("GET", f"/deployments/{deployment['id']}")
    assert served["description"] == "second"
    assert served["concurrency_options"]["collision_strategy"] == "CANCEL_NEW"
    status, revealed = prefect.request("GET", f"/block_documents/{block_id}?include_secrets=true")
    assert revealed["data"] == {"value": "tok-4711-second"}
    assert tofu.plan_exit_code() == 0

    # Drift made through the API is put back.
    assert prefect.request("PATCH", f"/deployments/{deployment['id']}",
                           {"description": "changed outside"})[0] == 204
    code, plan = tofu.plan()
    assert planned_actions(plan) == {"prefect_deployment.d": ["update"]}
    tofu.apply()

    # Imported by id: the deployment plans nothing; the block document, whose secret the
    # server shows to nobody, plans to send it once.
    other = make_tofu({"prefect": provider}, name="imported")
    other.write(config(prefect, deployment_config(
        names, f'"{deployment["flow_id"]}"', f'"{names["pool"]}"', "second",
        collision_options(tofu, "CANCEL_NEW")) + block_document_config(names, ids,
                                                                       "tok-4711-second")))
    other.run("import", "prefect_deployment.d", deployment["id"])
    other.run("import", "prefect_block_document.token", block_id)
    code, plan = other.plan()
    assert planned_actions(plan) == {"prefect_block_document.token": ["update"]}
    other.apply()
    assert other.plan_exit_code() == 0
    other.run("state", "rm", "prefect_deployment.d", "prefect_block_document.token")

    tofu.destroy()
    assert prefect.request("GET", f"/deployments/{deployment['id']}")[0] == 404
    assert prefect.request("GET", f"/block_documents/{block_id}")[0] == 404
