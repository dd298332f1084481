"""Text that is not UTF-8 on its way to the CLI (issue 37). Protobuf's strings must be UTF-8, and
the CLI refuses a whole answer over one bad byte ("string field contains invalid UTF-8"), the
new state of an apply with it. So a script's warning, a function's error, an HTTP error quoting
a body cut inside a character or written in Latin-1, and a listed object's name each arrive with
U+FFFD for what is not UTF-8, and the state they came with is kept. A listed name's control
characters are escaped, so it cannot forge a result line of `terraform query`."""
import pytest

from support.harness import assert_script_error, required_providers, resources, squash
from support.object_api import ObjectApi, Served

FFFD = "\ufffd"


def state_list(tofu) -> list[str]:
    return tofu.run("state", "list").stdout.split()


# An HTTP error quoting the body (tests/e2e/providers/web against tests/e2e/support/object_api.py)


@pytest.fixture
def api():
    served = Served(ObjectApi())
    yield served
    served.stop()


@pytest.fixture
def web(make_tofu, test_provider):
    return make_tofu({"web": test_provider("web")})


def web_config(url: str, resource: str) -> str:
    return required_providers("web") + f"""
provider "web" {{
  url     = "{url}"
  retries = 0
}}
""" + resource


# web_job's create posts the job, sets its id, then polls the job with GET (resource_job.lua:22).
JOB = """
resource "web_job" "j" {
  name = "nightly"
}
"""


def test_a_create_failing_on_an_error_body_cut_inside_a_character_keeps_its_object(web, api):
    # The host quotes 512 bytes of an error body: here an é is bytes 511 and 512.
    body = "x" * 511 + "é and what follows"
    assert body.encode()[511:513] == "é".encode()
    api.api.fail("GET", 409, 1, body=body)
    web.write(web_config(api.url, JOB))

    result = web.run("apply", "-auto-approve", "-input=false", ok=(1,))

    text = squash(result.stderr)
    assert "invalid UTF-8" not in text, result.stderr
    assert_script_error(text, f"GET {api.url}/objects/1: status 409: xxx", "resource_job.lua:22")
    # Cut before the é, not through it, and marked as cut.
    assert "x" * 511 + "..." in text.replace(" ", ""), text
    assert FFFD not in text, text
    # The job was created (its id set) before the failure: kept, tainted, to be replaced.
    assert state_list(web) == ["web_job.j"]
    assert resources(web.state())["web_job.j"].get("tainted") is True


def test_an_error_body_in_latin1_is_quoted_with_replacement_characters(web, api):
    api.api.fail("POST", 409, 1, body="{\"error\": \"d\u00e9j\u00e0 pris\"}".encode("latin-1"))
    web.write(web_config(api.url, """
resource "web_object" "o" {
  name = "taken"
}
"""))

    result = web.run("apply", "-auto-approve", "-input=false", ok=(1,))

    text = squash(result.stderr)
    assert "invalid UTF-8" not in text, result.stderr
    assert_script_error(text, f"POST {api.url}/objects: status 409", "resource_object.lua:30")
    assert f'{{"error": "d{FFFD}j{FFFD} pris"}}' in text, text
    assert state_list(web) == []  # refused before it had an id: nothing to keep

    web.apply()  # the next attempt succeeds
    assert state_list(web) == ["web_object.o"]


# Warnings and errors a script writes (tests/e2e/providers/mojibake)


@pytest.fixture
def mojibake(make_tofu, test_provider):
    return make_tofu({"mojibake": test_provider("mojibake")})


def test_a_create_that_warns_in_bytes_that_are_not_utf8_keeps_its_object(mojibake):
    mojibake.write(required_providers("mojibake") + """
resource "mojibake_word" "w" {
  text = "cafe"
  tags = { "caf\u00e9" = "x" }
}
""")

    result = mojibake.apply()

    text = squash(result.stdout + result.stderr)
    assert f"Warning: caf{FFFD}" in text, text
    assert f"Warning: Latin-1 {FFFD}t{FFFD}" in text, text
    assert f"about the tag caf{FFFD}" in text, text
    assert state_list(mojibake) == ["mojibake_word.w"]
    assert resources(mojibake.state())["mojibake_word.w"]["values"]["id"] == "cafe"
    assert mojibake.plan_exit_code() == 0


def test_a_function_error_in_latin1_reaches_the_cli(mojibake):
    mojibake.write(required_providers("mojibake") + """
output "word" {
  value = provider::mojibake::latin1("tea")
}
""")

    result = mojibake.run("plan", ok=(1,))

    text = squash(result.stderr)
    assert "invalid UTF-8" not in text, result.stderr
    assert f"tea is not caf{FFFD}" in text, text


# Listed names (Terraform's `query`; tests/e2e/providers/shelf names each book by its title)


# Terraform's only: OpenTofu has no `query` and never asks for listings (left out, not skipped).
@pytest.mark.only_pairs("terraform:6", "terraform:5", "terraform116:6")
def test_a_listed_name_is_made_utf8_and_cannot_forge_a_result_line(make_tofu, test_provider):
    shelf = make_tofu({"shelf": test_provider("shelf")})
    (shelf.workdir / "book-111.txt").write_text("Dune")
    # A title that would print a second result line, in red, after its own.
    (shelf.workdir / "book-222.txt").write_bytes(
        b"Emma\nlist.shelf_book.all isbn=999 \x1b[31mForged\x1b[0m")
    shelf.write(required_providers("shelf"))
    (shelf.workdir / "main.tfquery.hcl").write_text("""
list "shelf_book" "all" {
  provider = shelf
  config {}
}
""")

    result = shelf.run("query")

    lines = [line for line in result.stdout.splitlines() if line.startswith("list.")]
    assert len(lines) == 2, result.stdout
    assert lines[0].split() == ["list.shelf_book.all", "isbn=111", "Dune"], result.stdout
    assert lines[1].split() == ["list.shelf_book.all", "isbn=222",
                                "Emma\\nlist.shelf_book.all", "isbn=999",
                                "\\x1b[31mForged\\x1b[0m"], result.stdout
    assert "\x1b" not in result.stdout

    # A title in Latin-1: the listing goes on, with U+FFFD for its bytes.
    (shelf.workdir / "book-333.txt").write_bytes("Ivanho\u00e9".encode("latin-1"))
    result = shelf.run("query")
    assert "invalid UTF-8" not in result.stderr, result.stderr
    assert f"isbn=333 Ivanho{FFFD}" in squash(result.stdout), result.stdout
