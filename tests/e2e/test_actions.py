"""Actions (Terraform 1.14 onwards): the restapi provider's `restapi_request` sends one request to
the API, invoked with `terraform apply -invoke` or by a resource's action_trigger. Its progress
shows in the CLI as it goes, a failure fails the apply, its plan-time check fails the plan, and
Ctrl-C ends it. OpenTofu 1.12 has no action blocks: the same provider keeps working there."""
import signal
import time

import pytest

from support.harness import required_providers, resources, squash
from support.object_api import ObjectApi, Served

TOKEN = "action-token-1"


@pytest.fixture
def api():
    served = Served(ObjectApi(token=TOKEN))
    yield served
    served.stop()


def config(url: str, body: str) -> str:
    return required_providers("restapi") + f"""
provider "restapi" {{
  uri          = "{url}"
  bearer_token = "{TOKEN}"
  retries      = 0
}}
""" + body


def request_action(name: str, arguments: str) -> str:
    return f"""
action "restapi_request" "{name}" {{
  config {{
    {arguments}
  }}
}}
"""


def terraform_only(tofu) -> bool:
    """True for HashiCorp Terraform; OpenTofu is checked to work as before instead."""
    if "terraform" in tofu.binary.name:
        return True
    tofu.write(config(tofu.extra_env["API_URL"], """
resource "restapi_object" "o" {
  path = "/objects"
  data = jsonencode({ name = "plain" })
}
"""))
    tofu.apply()
    assert resources(tofu.state())["restapi_object.o"]["values"]["path"] == "/objects"
    return False


@pytest.fixture
def cli(make_tofu, restapi_dir, api):
    tofu = make_tofu({"restapi": restapi_dir})
    tofu.extra_env["API_URL"] = api.url
    return tofu


def test_an_action_invoked_from_the_cli_runs_and_shows_its_progress(cli, api):
    if not terraform_only(cli):
        return
    cli.write(config(api.url, request_action(
        "announce", 'path = "/objects"\n    data = jsonencode({ name = "release 1.2" })')))

    result = cli.run("apply", "-auto-approve", "-input=false",
                     "-invoke=action.restapi_request.announce")

    shown = squash(result.stdout)
    assert "Action started: action.restapi_request.announce" in shown, shown
    assert "action.restapi_request.announce (triggered by CLI): POST /objects" in shown, shown
    assert "POST /objects: status 201" in shown, shown
    assert "Action complete: action.restapi_request.announce" in shown, shown
    assert [o["name"] for o in api.api.objects.values()] == ["release 1.2"]
    assert resources(cli.state()) == {}  # an action changes nothing in state


def test_an_action_trigger_runs_the_action_after_the_resource_is_created(cli, api):
    if not terraform_only(cli):
        return
    cli.write(config(api.url, request_action(
        "created", 'path = "/objects"\n    data = jsonencode({ name = "hook" })') + """
resource "restapi_object" "o" {
  path = "/objects"
  data = jsonencode({ name = "thing" })
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.restapi_request.created]
    }
  }
}
"""))

    result = cli.apply()

    assert "Action complete: action.restapi_request.created (triggered by restapi_object.o)" in \
        squash(result.stdout), result.stdout
    names = [o["name"] for o in sorted(api.api.objects.values(), key=lambda o: int(o["id"]))]
    assert names == ["thing", "hook"]
    # Nothing changes, so the next apply triggers nothing.
    cli.apply()
    assert len(api.api.objects) == 2


def test_a_failing_action_fails_the_apply_with_its_message(cli, api):
    if not terraform_only(cli):
        return
    cli.write(config(api.url, request_action("missing",
                                             'method = "DELETE"\n    path = "/objects/42"')))

    result = cli.run("apply", "-auto-approve", "-input=false",
                     "-invoke=action.restapi_request.missing", ok=(1,))

    text = squash(result.stdout + result.stderr)
    # Terraform 1.15 says "Error when invoking action"; 1.16 names the action that failed.
    assert ("Error: Error when invoking action" in text
            or "Action failed: action.restapi_request.missing" in text), text
    assert "DELETE /objects/42: status 404" in text, text
    assert "restapi_request: invoke failed at action_request.lua:" in text, text


def test_the_plan_time_check_fails_the_plan(cli, api):
    if not terraform_only(cli):
        return
    cli.write(config(api.url, request_action(
        "odd", 'method = "GET"\n    path = "/objects"\n    data = jsonencode({ a = 1 })')))

    result = cli.run("apply", "-auto-approve", "-input=false", "-invoke=action.restapi_request.odd",
                     ok=(1,))

    assert "Error: a GET request sends no body: drop data or use another method" in \
        squash(result.stderr), result.stderr
    assert api.api.seen() == []


def test_ctrl_c_ends_a_running_action(cli, api):
    if not terraform_only(cli):
        return
    api.api.stall("POST", 30)
    cli.write(config(api.url, request_action("slow", 'path = "/objects"')))
    process = cli.start("apply", "-auto-approve", "-input=false",
                        "-invoke=action.restapi_request.slow")
    deadline = time.monotonic() + 60
    while not api.api.seen("POST") and time.monotonic() < deadline:
        time.sleep(0.05)  # the request is on its way and the API sits on it
    interrupted = time.monotonic()
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert time.monotonic() - interrupted < 10, stdout + stderr
    assert process.returncode == 1, stdout + stderr
    assert "stopped by StopProvider" in squash(stdout + stderr), stdout + stderr


@pytest.mark.only_pairs("terraform116:6", "terraform116:5")
def test_terraform_116s_destroy_events_and_on_failure_run_the_provider_s_actions(cli, api):
    """Terraform 1.16 adds before_destroy and after_destroy events, and on_failure (halt, taint
    or continue) to action triggers: the provider's actions run on them unchanged."""
    cli.write(config(api.url, request_action(
        "farewell", 'path = "/objects"\n    data = jsonencode({ name = "farewell" })')
        + request_action("missing", 'method = "DELETE"\n    path = "/objects/42"') + """
resource "restapi_object" "o" {
  path = "/objects"
  data = jsonencode({ name = "thing" })
  lifecycle {
    action_trigger {
      events  = [before_destroy]
      actions = [action.restapi_request.farewell]
    }
    action_trigger {
      events     = [after_create]
      actions    = [action.restapi_request.missing]
      on_failure = continue
    }
  }
}
"""))
    # The failing action after create does not fail the apply: on_failure = continue.
    created = cli.apply()
    assert "Action failed: action.restapi_request.missing" in squash(created.stdout + created.stderr)
    assert [o["name"] for o in api.api.objects.values()] == ["thing"]
    destroyed = cli.destroy()
    assert "Action complete: action.restapi_request.farewell (triggered by restapi_object.o)" in \
        squash(destroyed.stdout), destroyed.stdout
    assert [o["name"] for o in api.api.objects.values()] == ["farewell"]
