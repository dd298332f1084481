"""OAuth 2.0's client credentials grant against real parts (tests/e2e/support/oauth_gateway.py:
oidc-provider issuing JWT access tokens, Apache's mod_auth_openidc checking them in front of
json-server): a provider served from a description whose security scheme is that flow
(tests/e2e/providers/gated) fetches a token, sends it, renews it before it ends within a long
call, replaces one the API refuses, and says so when the token endpoint refuses it, never
showing the secret or a token."""
import time

import pytest

from support.harness import TofuError, required_providers, resources
from support.oauth_gateway import CLIENT_ID, CLIENT_SECRET, TOKEN_SECONDS


def post_config(url: str, title: str, views: int) -> str:
    return required_providers("gated") + f"""
provider "gated" {{
  base_url = "{url}"
}}

resource "gated_post" "p" {{
  title = "{title}"
  views = {views}
}}
"""


def survey_config(url: str, pause: float) -> str:
    return required_providers("gated") + f"""
provider "gated" {{
  base_url = "{url}"
}}

resource "gated_survey" "s" {{
  pause = {pause}
}}
"""


@pytest.fixture
def gated_tofu(make_tofu, test_provider):
    tofu = make_tofu({"gated": test_provider("gated")})
    # The credentials from the environment, as the provider's arguments default to.
    tofu.extra_env = {"GATED_CLIENT_ID": CLIENT_ID, "GATED_CLIENT_SECRET": CLIENT_SECRET}
    return tofu


def assert_nothing_secret_in(texts: list[str], tokens: list[str]) -> None:
    for text in texts:
        assert CLIENT_SECRET not in text
        for token in tokens:
            assert token not in text


def test_a_described_api_behind_oauth2_is_served_with_the_tokens_the_provider_fetches(
        gated_tofu, gated):
    tofu = gated_tofu
    tofu.write(post_config(gated.url, "first", 1))
    applied = tofu.apply()
    post_id = resources(tofu.state())["gated_post.p"]["values"]["id"]
    assert gated.backend.request("GET", f"/posts/{post_id}") == (
        200, {"id": int(post_id), "title": "first", "views": 1})
    assert tofu.plan_exit_code() == 0

    tofu.write(post_config(gated.url, "second", 2))
    updated = tofu.apply()
    assert gated.backend.request("GET", f"/posts/{post_id}")[1]["title"] == "second"
    assert tofu.plan_exit_code() == 0

    tofu.destroy()
    assert gated.backend.request("GET", f"/posts/{post_id}")[0] == 404

    # Every request reached the API with a token; none was refused (tokens last a few seconds
    # and each command's provider fetched its own).
    answered = gated.answered()
    assert {"POST", "GET", "PUT", "DELETE"} <= {request.split()[0] for _, request, _ in answered}
    assert all(authorization.startswith("Bearer ") for _, _, authorization in answered)
    assert gated.refusals() == []
    assert_nothing_secret_in([applied.stdout, applied.stderr, updated.stdout,
                              tofu.log.read_text(errors="replace")], gated.tokens())


@pytest.mark.only_pairs("tofu:6")
def test_a_call_that_outlives_its_token_fetches_another_before_the_first_ends(gated_tofu, gated):
    # One create asks the API twice, longer apart than a token lasts: the second request
    # carries a new token, fetched before the old one ended, so the API refuses nothing.
    gated_tofu.write(survey_config(gated.url, TOKEN_SECONDS + 2))
    gated_tofu.apply()
    assert resources(gated_tofu.state())["gated_survey.s"]["values"]["counts"] == [0, 0]
    assert len(gated.tokens()) == 2
    assert gated.refusals() == []


def wait_for_request(space, path: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if any(request == path for _, request, _ in space.answered()):
            return
        time.sleep(0.05)
    raise AssertionError(f"no {path} reached the gateway in {seconds} s: {space.answered()}")


@pytest.mark.only_pairs("tofu:6")
def test_a_token_the_api_refuses_is_replaced_once_and_a_refused_secret_is_an_error(
        gated_tofu, own_gateway):
    tofu = gated_tofu
    space = own_gateway.space
    # Tokens last a minute here: the one the create starts with is still due to last when the
    # issuer and the gateway start anew between its two requests, with a new signing key.
    tofu.write(survey_config(space.url, 4))
    running = tofu.start("apply", "-auto-approve", "-input=false")
    wait_for_request(space, f"GET {space.prefix}posts")
    own_gateway.restart()
    stdout, stderr = running.communicate(timeout=300)
    assert running.returncode == 0, stderr
    assert resources(tofu.state())["gated_survey.s"]["values"]["counts"] == [0, 0]
    # The old token refused once, then the request again with a new one.
    assert space.refusals() == [f"GET {space.prefix}posts"]
    assert len(space.tokens()) == 2

    # A secret the token endpoint refuses fails the command, naming the endpoint and quoting
    # its error, not the secret.
    wrong = "not-the-secret-7c1e"
    tofu.extra_env["GATED_CLIENT_SECRET"] = wrong
    tofu.write(survey_config(space.url, 0))
    with pytest.raises(TofuError) as failed:
        tofu.apply()
    text = str(failed.value)
    assert (f"the OAuth2 token endpoint (POST {own_gateway.space.gateway}/oauth/token) "
            "answered 401") in text, text
    assert "invalid_client" in text
    assert wrong not in text and CLIENT_SECRET not in text
    assert_nothing_secret_in([stdout, stderr], space.tokens())
