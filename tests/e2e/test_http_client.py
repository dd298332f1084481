"""tf.http, the HTTP client scripts get, through a provider (tests/e2e/providers/web) driven by
the real CLI against a real HTTP server on loopback (tests/e2e/support/object_api.py): JSON bodies,
bearer auth, retries on 429/5xx honouring Retry-After, errors that name the script line, the
status and the body, timeouts that end a stalled request, pagination, TLS (with client
certificates), proxies from the environment, and no state lost when the service fails."""
import base64
import re
import signal
import ssl
import threading
import time

import pytest

from support.harness import (TofuError, assert_script_error, planned_actions, required_providers,
                     resources, squash)
from support.forward_proxy import ForwardProxy
from support.loopback import self_signed
from support.object_api import ObjectApi, Served, gzip_of_zeros

TOKEN = "s3cret-token-4417"


@pytest.fixture
def api():
    served = Served(ObjectApi(token=TOKEN))
    yield served
    served.stop()


@pytest.fixture
def web(make_tofu, test_provider):
    return make_tofu({"web": test_provider("web")})


def config(url: str, body: str = "", provider: str = "") -> str:
    return required_providers("web") + f"""
provider "web" {{
  url   = "{url}"
  token = "{TOKEN}"
  {provider}
}}
""" + body


ALPHA = """
resource "web_object" "a" {
  name = "alpha"
  size = 2
  tags = { env = "test" }
}
"""


def test_objects_go_through_their_lifecycle_over_http(web, api):
    web.write(config(api.url, ALPHA))
    web.apply()
    state = resources(web.state())["web_object.a"]["values"]
    assert state["id"] == "1" and state["revision"] == 1
    post = api.api.seen("POST")[0]
    assert post.path == "/objects"
    assert post.headers["Authorization"] == f"Bearer {TOKEN}"
    assert post.headers["Content-Type"] == "application/json"
    assert post.body == '{"name":"alpha","size":2,"tags":{"env":"test"}}'  # keys sorted
    assert web.plan_exit_code() == 0

    # Drift: the API changes the object; the plan puts it back with PUT.
    api.api.objects["1"]["name"] = "renamed elsewhere"
    code, plan = web.plan()
    assert code == 2 and planned_actions(plan) == {"web_object.a": ["update"]}
    web.apply()
    assert api.api.objects["1"]["name"] == "alpha"
    assert resources(web.state())["web_object.a"]["values"]["revision"] == 2

    # Gone outside: read's 404 (allowed) clears the id and the plan creates it again.
    del api.api.objects["1"]
    code, plan = web.plan()
    assert planned_actions(plan) == {"web_object.a": ["create"]}
    web.apply()
    assert list(api.api.objects) == ["2"]

    web.destroy()
    assert api.api.objects == {}
    assert [r.path for r in api.api.seen("DELETE")] == ["/objects/2"]
    # The token is sensitive provider configuration: no log line of the whole run has it.
    assert TOKEN not in web.log.read_text(errors="replace")


def test_503_with_retry_after_and_429_are_retried_after_the_asked_wait(web, api):
    api.api.fail("POST", 503, 1, retry_after="1")
    api.api.fail("POST", 429, 1)
    web.write(config(api.url, ALPHA))
    web.apply()
    posts = api.api.seen("POST")
    assert [p.status for p in posts] == [503, 429, 201]
    assert posts[1].at - posts[0].at >= 0.95  # Retry-After: 1
    assert posts[2].at - posts[1].at < 1.0  # backoff from retry_wait_min = 0.05
    assert list(api.api.objects) == ["1"]  # exactly one object, and it is in state
    assert resources(web.state())["web_object.a"]["values"]["id"] == "1"


def test_errors_name_the_line_status_and_body_and_lose_no_state(web, api):
    web.write(config(api.url, ALPHA, provider="retries = 1"))

    # A 5xx that outlasts the retries: the error names the script line, request, status, body.
    api.api.fail("POST", 500, 5, body='{"error": "database on fire"}')
    result = web.run("apply", "-auto-approve", "-input=false", ok=(1,))
    text = squash(result.stderr)
    assert_script_error(text, f"POST {api.url}/objects: status 500", "resource_object.lua:30")
    assert "database on fire" in text
    assert len(api.api.seen("POST")) == 2  # the first attempt and one retry
    assert resources(web.state()) == {} and api.api.objects == {}

    # A 4xx is the request's fault: no retry.
    api.api.faults.clear()
    api.api.fail("POST", 400, 1, body='{"error": "size must be even"}')
    result = web.run("apply", "-auto-approve", "-input=false", ok=(1,))
    assert "status 400: {\"error\": \"size must be even\"}" in squash(result.stderr)
    assert len(api.api.seen("POST")) == 3

    # Created, then the service fails every read: plan fails, the state keeps the object.
    web.apply()
    api.api.fail("GET", 503, 10)
    result = web.run("plan", "-input=false", ok=(1,))
    # web_object's read is tf.http.crud's own: no line of the script runs, so the error names
    # the request and the script.
    text = squash(result.stderr)
    assert f"Error: GET {api.url}/objects/1: status 503" in text, text
    assert "web_object: read failed in resource_object.lua." in text, text
    api.api.faults.clear()
    assert resources(web.state())["web_object.a"]["values"]["id"] == "1"
    assert web.plan_exit_code() == 0


def test_credentials_the_host_sends_are_hidden_when_a_server_echoes_them(web, api):
    # The server quotes the Authorization header it refused. The host built it from the
    # sensitive password: base64 of "admin:PASSWORD", which the password alone does not match.
    password = "Basic-Pass-5521"
    encoded = base64.b64encode(f"admin:{password}".encode()).decode()
    provider = f'username = "admin"\n  password = "{password}"'
    web.write(config(api.url, ALPHA, provider=provider).replace(f'token = "{TOKEN}"', ""))
    result = web.run("apply", "-auto-approve", "-input=false", ok=(1,))
    text = squash(result.stderr)
    assert "status 401" in text and '"authorization": "Basic ***' in text, text
    log = web.log.read_text(errors="replace")
    for secret in (password, encoded, encoded[:-4]):
        assert secret not in result.stdout + result.stderr and secret not in log, secret


def test_a_response_that_inflates_past_the_bound_is_refused_naming_the_request(web, api):
    # Half a megabyte of gzip that inflates to 512 MiB (libcurl inflates it as it arrives): the
    # body stops at the client's bound, 64 MiB by default, or at what the memory limit leaves.
    bomb = 512 << 20
    gzip_of_zeros(bomb)  # made once, before the create's timeout runs
    web.write(config(api.url, ALPHA))
    api.api.fail("POST", 201, 1, inflates_to=bomb)
    result = web.run("apply", "-auto-approve", "-input=false", ok=(1,))
    text = squash(result.stderr)
    assert f"POST {api.url}/objects: the response body is longer than 67108864 bytes, the " \
        "client's max_response_bytes (default 64 MiB) (1 attempt)" in text, text
    assert "web_object: create failed at resource_object.lua:30." in text, text
    assert resources(web.state()) == {}

    web.extra_env["LUAFORM_MEMORY_LIMIT_MB"] = "48"
    api.api.fail("POST", 201, 1, inflates_to=bomb)
    result = web.run("apply", "-auto-approve", "-input=false", ok=(1,))
    text = squash(result.stderr)
    assert "under its memory limit (LUAFORM_MEMORY_LIMIT_MB)" in text, text
    assert "the response body is longer than" in text, text


def test_an_unreachable_server_is_retried_then_reported(web, api):
    closed = api.url
    api.stop()  # nothing listens on that port any more
    web.write(config(closed, ALPHA, provider="retries = 2"))
    result = web.run("apply", "-auto-approve", "-input=false", ok=(1,))
    text = squash(result.stderr)
    assert f"POST {closed}/objects:" in text and "(3 attempts)" in text, text
    assert "connect" in text.lower()
    assert resources(web.state()) == {}


def test_the_operation_timeout_ends_a_stalled_request(web, api):
    api.api.stall("POST", 30)
    web.write(config(api.url, ALPHA))
    started = time.monotonic()
    result = web.run("apply", "-auto-approve", "-input=false", ok=(1,))
    elapsed = time.monotonic() - started
    assert_script_error(squash(result.stderr), "create did not finish within its timeout of 3s",
                        "resource_object.lua:30")
    assert elapsed < 20, elapsed  # the 30 s answer was not waited for
    assert resources(web.state()) == {}


def test_a_paginated_listing_is_read_page_by_page_on_one_connection(web, api):
    for i, name in enumerate(["ant", "bee", "cat", "dog", "eel"], start=1):
        api.api.objects[str(i)] = {"id": str(i), "name": name, "revision": 1}
    web.write(config(api.url, """
data "web_objects" "all" {
  per_page = 2
}

output "names" {
  value = data.web_objects.all.names
}
"""))
    web.apply()
    assert web.outputs()["names"] == ["ant", "bee", "cat", "dog", "eel"]
    # Each run reads the listing once per data source read (plan and apply share a run here).
    pages = [r for r in api.api.seen("GET") if r.path.startswith("/objects?")]
    assert [p.path for p in pages[:3]] == ["/objects?per_page=2", "/objects?per_page=2&page=2",
                                            "/objects?per_page=2&page=3"]
    assert len({p.connection for p in pages[:3]}) == 1  # the client kept its connection


@pytest.fixture
def tls_api(tmp_path):
    key, cert = self_signed(tmp_path, "server", "/CN=127.0.0.1", "IP:127.0.0.1")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    served = Served(ObjectApi(token=TOKEN), tls=context)
    yield served, cert
    served.stop()


@pytest.fixture
def mutual_tls_api(tmp_path):
    """An HTTPS API that takes only clients with the certificate it trusts."""
    key, cert = self_signed(tmp_path, "server", "/CN=127.0.0.1", "IP:127.0.0.1")
    client_key, client_cert = self_signed(tmp_path, "client", "/CN=luaform-e2e-client",
                                          "DNS:luaform-e2e-client")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    context.verify_mode = ssl.CERT_REQUIRED
    context.load_verify_locations(client_cert)
    served = Served(ObjectApi(token=TOKEN), tls=context)
    yield served, cert, client_cert, client_key
    served.stop()


@pytest.fixture
def proxy(monkeypatch):
    """A forward proxy, with the proxy variables of the test's own environment cleared."""
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy",
                 "ALL_PROXY", "no_proxy", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
    forwarding = ForwardProxy()
    yield forwarding
    forwarding.stop()


def test_https_trusts_the_given_ca_and_refuses_an_unknown_one(web, tls_api):
    served, cert = tls_api
    web.write(config(served.url, ALPHA))
    result = web.run("apply", "-auto-approve", "-input=false", ok=(1,))
    assert "certificate" in squash(result.stderr).lower(), result.stderr
    assert "(1 attempt)" in squash(result.stderr)  # a certificate problem is not retried
    assert served.api.objects == {}

    web.write(config(served.url, ALPHA, provider=f'ca_file = "{cert}"'))
    web.apply()
    assert list(served.api.objects) == ["1"]

    web.write(config(served.url, ALPHA, provider="insecure = true"))
    assert web.plan_exit_code() == 0


def test_https_trusts_the_bundle_ssl_cert_file_names_as_go_providers_do(web, tls_api):
    # The host finds the system's bundle itself (a release host's libcurl has no default);
    # SSL_CERT_FILE replaces it, as it does for a provider written in Go.
    served, cert = tls_api
    web.extra_env["SSL_CERT_FILE"] = str(cert)
    web.write(config(served.url, ALPHA))
    web.apply()
    assert list(served.api.objects) == ["1"]


def test_a_server_that_asks_for_a_client_certificate_gets_the_configured_one(
        web, mutual_tls_api):
    served, ca, client_cert, client_key = mutual_tls_api
    web.write(config(served.url, ALPHA, provider=f'ca_file = "{ca}"\n  retries = 0'))
    result = web.run("apply", "-auto-approve", "-input=false", ok=(1,))
    # How the refusal reads depends on when the server hangs up (a TLS alert, or a closed
    # connection); either way the request is named and nothing was created.
    assert "POST " + served.url + "/objects" in squash(result.stderr)
    assert served.api.objects == {}

    web.write(config(served.url, ALPHA, provider=f"""ca_file     = "{ca}"
  client_cert = "{client_cert}"
  client_key  = "{client_key}"
"""))
    web.apply()
    assert list(served.api.objects) == ["1"]
    assert web.plan_exit_code() == 0


def test_requests_go_through_the_proxy_the_environment_names_unless_no_proxy(web, api, proxy):
    web.extra_env["http_proxy"] = proxy.url
    web.write(config(api.url, ALPHA))
    web.apply()
    assert list(api.api.objects) == ["1"]
    assert ("POST", f"{api.url}/objects") in proxy.forwarded
    through_proxy = len(proxy.forwarded)

    web.extra_env["no_proxy"] = "127.0.0.1"
    assert web.plan_exit_code() == 0  # the refresh reached the API...
    assert len(proxy.forwarded) == through_proxy  # ...straight, not through the proxy


def test_the_proxy_option_sends_requests_through_it_whatever_the_environment(web, api, proxy):
    web.write(config(api.url, ALPHA, provider=f'proxy = "{proxy.url}"'))
    web.apply()
    assert ("POST", f"{api.url}/objects") in proxy.forwarded
    # The headers every request carries unless the script sets its own.
    posted = api.api.seen("POST")[0].headers
    assert posted["Accept"] == "application/json" and posted["User-Agent"] == "luaform"
    assert posted["Content-Type"] == "application/json"


JOB = """
resource "web_job" "j" {
  name = "nightly"
  %s
}
"""


def tainted(web, address: str) -> bool:
    return resources(web.state())[address].get("tainted") is True


def finish_job_after(api, seconds: float, state: str = "done",
                     job_id: str = "1") -> threading.Thread:
    """Plays the API's worker: once job `job_id` exists, it moves to `state` after `seconds`."""
    def work():
        deadline = time.monotonic() + 60
        while job_id not in api.api.objects and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(seconds)
        api.api.objects[job_id]["state"] = state
    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    return worker


def test_wait_for_polls_until_the_api_finishes_the_job(web, api):
    web.write(config(api.url, JOB % ""))
    finish_job_after(api, 1.0)
    web.apply()
    assert resources(web.state())["web_job.j"]["values"]["state"] == "done"
    polls = [r for r in api.api.seen("GET") if r.path == "/objects/1"]
    assert len(polls) >= 3  # it waited, looking again with a growing pause

    # An unexpected state ends the wait with an error at the script's line; the job that was
    # created is kept in state, tainted, for the next apply to replace.
    web.write(config(api.url, JOB % "" + JOB.replace('"j"', '"k"') % ""))
    finish_job_after(api, 0.5, state="failed", job_id="2")
    result = web.run("apply", "-auto-approve", "-input=false", ok=(1,))
    assert_script_error(squash(result.stderr),
                        'tf.wait_for: unexpected state "failed", wanted "done"',
                        "resource_job.lua:16")
    assert resources(web.state())["web_job.k"]["mode"] == "managed"
    assert tainted(web, "web_job.k")


def test_the_create_timeout_ends_a_wait_for(web, api):
    web.write(config(api.url, JOB % 'timeouts {\n    create = "2s"\n  }'))
    started = time.monotonic()
    result = web.run("apply", "-auto-approve", "-input=false", ok=(1,))
    assert time.monotonic() - started < 20
    text = squash(result.stderr)
    # Whichever looks first, the operation's deadline or wait_for's own timeout (both 2 s).
    assert "web_job: create failed at resource_job.lua:16." in text, text
    assert ("create did not finish within its timeout of 2s" in text or
            'timeout while waiting for state to become "done"' in text), text
    assert tainted(web, "web_job.j")


def test_interrupting_the_cli_stops_a_wait_for_promptly(web, api):
    """Ctrl-C: the CLI sends StopProvider, and the wait ends now, not at its 30 s timeout."""
    web.write(config(api.url, JOB % ""))
    process = web.start("apply", "-auto-approve", "-input=false")
    deadline = time.monotonic() + 60
    while not api.api.seen("GET") and time.monotonic() < deadline:
        time.sleep(0.05)  # the job is posted and being polled
    interrupted = time.monotonic()
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert time.monotonic() - interrupted < 10
    assert process.returncode == 1, stdout + stderr
    # In the pause between refreshes (line 16, tf.wait_for) or in a refresh's request (line 22).
    assert "Error: stopped by StopProvider" in squash(stderr), stdout + stderr
    assert re.search(r"web_job: create failed at resource_job\.lua:(16|22)\.", squash(stderr)), \
        stdout + stderr
    # The job exists in the API: the state has it (tainted), so nothing is left behind.
    assert tainted(web, "web_job.j")


PASSPHRASE = "open-sesame-991"


def test_log_lines_reach_the_cli_log_with_sensitive_values_hidden(web, api):
    secret_line = f"size = 2\n  passphrase = \"{PASSPHRASE}\""
    web.write(config(api.url, ALPHA.replace("size = 2", secret_line)))
    web.apply()
    log = web.log.read_text(errors="replace")
    lines = [line for line in log.splitlines() if "provider.terraform-provider-web" in line]
    created = [line for line in lines if "creating alpha" in line]
    assert created and "[DEBUG]" in created[0], lines[-20:]
    assert 'pass="***"' in created[0] and "size=2" in created[0] and \
        "tf_resource_type=web_object" in created[0], created[0]
    configured = [line for line in lines if "configuring with token" in line]
    assert configured and "[INFO]" in configured[0] and "token ***" in configured[0], configured
    # Neither secret is anywhere in the trace log of the run: not in these lines, not elsewhere.
    assert PASSPHRASE not in log and TOKEN not in log

    # TF_LOG_PROVIDER=ERROR keeps the provider's debug and info lines out.
    web.extra_env["TF_LOG_PROVIDER"] = "ERROR"
    web.log.unlink()
    web.write(config(api.url, ALPHA.replace('"alpha"', '"beta"')))
    web.apply()
    log = web.log.read_text(errors="replace")
    assert "creating beta" not in log and "configuring with token" not in log


def test_fail_and_warn_are_shown_at_the_attribute_they_name(web, api):
    web.write(config(api.url, """
resource "web_name" "n" {
  name = "admin"
}
"""))
    result = web.run("apply", "-auto-approve", "-input=false", ok=(1,))
    text = squash(result.stderr)
    assert "Error: Name not allowed" in text, text
    # The CLI quotes the configuration line of the attribute the path names.
    assert 'name = "admin"' in text and '"admin" is kept' in text
    assert "web_name: create failed at resource_name.lua:13." in text, text
    assert resources(web.state()) == {}

    web.write(config(api.url, """
resource "web_name" "n" {
  name   = "ops"
  labels = { env = "dev" }
}
"""))
    result = web.apply()
    text = squash(result.stdout + result.stderr)
    assert "Warning: No team label" in text and "names without one expire" in text, text
    assert 'in resource "web_name" "n": 15: labels = { env = "dev" }' in text, text
    assert resources(web.state())["web_name.n"]["values"]["id"] == "ops"
