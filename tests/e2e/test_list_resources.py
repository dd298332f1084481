"""List resources (Terraform 1.14 onwards): `terraform query` over a `.tfquery.hcl` file lists
the objects a list block's filters select, up to its limit, and `-generate-config-out` writes a
resource and an import block for each, which then plan as imports with nothing to change. An
element a script cannot describe is a warning and the others are still listed; an error fails
the query. OpenTofu 1.12 has no `query` and never asks for listings: there the same providers,
list scripts included, work exactly as before."""
import json

import pytest

from support.harness import planned_change, required_providers, resources, squash


def is_terraform(tofu) -> bool:
    return "terraform" in tofu.binary.name


def query(tofu, *args: str, ok: tuple[int, ...] = (0,)):
    return tofu.run("query", *args, ok=ok)


def found(tofu, *args: str) -> list[dict]:
    """The results of `terraform query -json`: one list_resource_found message each, in order."""
    result = query(tofu, "-json", *args)
    messages = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    return [m["list_resource_found"] for m in messages if m.get("type") == "list_resource_found"]


def diagnostics(tofu, *args: str, ok: tuple[int, ...] = (0,)) -> list[dict]:
    result = query(tofu, "-json", *args, ok=ok)
    messages = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    return [m["diagnostic"] for m in messages
            if m.get("type") == "diagnostic" and "development overrides" not in m["@message"]]


def lines_of(result, address: str) -> list[list[str]]:
    """The human output's result lines of `address`: its identity and its display name."""
    return [line.split()[1:] for line in result.stdout.splitlines()
            if line.startswith(address + " ")]


def generate_then_plan(tofu, addresses: list[str]) -> str:
    """`terraform query -generate-config-out`, then a plan with what it wrote: each address is
    imported and nothing changes. Returns the generated configuration."""
    query(tofu, "-generate-config-out=generated.tf")
    generated = (tofu.workdir / "generated.tf").read_text()
    _, plan = tofu.plan()
    for address in addresses:
        change = planned_change(plan, address)
        assert change["actions"] == ["no-op"], (address, change, generated)
        assert change.get("importing"), (address, change)
    assert len([rc for rc in plan["resource_changes"] if rc["change"].get("importing")]) == \
        len(addresses), generated
    return generated


def works_as_before(tofu, config: str, address: str) -> None:
    """OpenTofu: with the list scripts and a query file present, a resource applies, plans with
    nothing to change, and destroys, as it always did."""
    tofu.write(config)
    tofu.apply()
    assert address in resources(tofu.state())
    assert tofu.plan_exit_code() == 0
    tofu.destroy()
    assert resources(tofu.state()) == {}


# localfs


LOCALFS = required_providers("localfs")


@pytest.fixture
def files(make_tofu, localfs_dir):
    """A working directory with localfs and a tree of files:
    data/a.txt, data/b.txt, data/notes.md, data/sub/c.txt, data/sub/deeper/d.txt."""
    tofu = make_tofu({"localfs": localfs_dir})
    for path in ("data/a.txt", "data/b.txt", "data/notes.md", "data/sub/c.txt",
                 "data/sub/deeper/d.txt"):
        (tofu.workdir / path).parent.mkdir(parents=True, exist_ok=True)
        (tofu.workdir / path).write_text(f"content of {path}\n")
    tofu.write(LOCALFS)
    return tofu


def localfs_query(body: str, name: str = "found", kind: str = "localfs_file",
                  extra: str = "") -> str:
    return f"""
list "{kind}" "{name}" {{
  provider = localfs
  {extra}
  config {{
{body}
  }}
}}
"""


def test_localfs_query_lists_the_files_the_filters_select(files):
    if not is_terraform(files):
        works_as_before(files, LOCALFS + """
resource "localfs_file" "f" {
  path    = "data/new.txt"
  content = "x"
}
""", "localfs_file.f")
        return
    (files.workdir / "main.tfquery.hcl").write_text(
        localfs_query('    directory = "data"\n    pattern = "*.txt"', name="txt") +
        localfs_query('    directory = "data"\n    pattern = "*.txt"\n    recursive = true',
                      name="deep") +
        localfs_query('    directory = "data"', name="dirs", kind="localfs_directory",
                      extra="") +
        localfs_query('    directory = "data/"\n    pattern = "?.*"', name="one_letter"))

    result = query(files)

    assert lines_of(result, "list.localfs_file.txt") == [
        ["path=data/a.txt", "data/a.txt"], ["path=data/b.txt", "data/b.txt"]], result.stdout
    # Recursive: each directory's files after the entries before it, in name order.
    assert [line[1] for line in lines_of(result, "list.localfs_file.deep")] == [
        "data/a.txt", "data/b.txt", "data/sub/c.txt", "data/sub/deeper/d.txt"], result.stdout
    assert lines_of(result, "list.localfs_directory.dirs") == [["path=data/sub", "data/sub"]]
    assert [line[1] for line in lines_of(result, "list.localfs_file.one_letter")] == [
        "data/a.txt", "data/b.txt"], result.stdout


def test_localfs_query_stops_at_the_limit(files):
    if not is_terraform(files):
        works_as_before(files, LOCALFS + """
resource "localfs_directory" "d" {
  path = "made"
}
""", "localfs_directory.d")
        return
    (files.workdir / "main.tfquery.hcl").write_text(
        localfs_query('    directory = "data"\n    recursive = true', name="two",
                      extra="limit = 2") +
        localfs_query('    directory = "data"', name="none", extra="limit = 0"))

    results = found(files)

    assert [(r["address"], r["identity"]) for r in results] == [
        ("list.localfs_file.two", {"path": "data/a.txt"}),
        ("list.localfs_file.two", {"path": "data/b.txt"})]


def test_localfs_generated_configuration_imports_with_nothing_to_change(files):
    if not is_terraform(files):
        works_as_before(files, LOCALFS + """
resource "localfs_file" "g" {
  path    = "data/generated-by-hand.txt"
  content = "y"
}
""", "localfs_file.g")
        return
    (files.workdir / "data/a.txt").chmod(0o600)
    (files.workdir / "main.tfquery.hcl").write_text(
        localfs_query('    directory = "data"\n    pattern = "*.txt"', name="txt") +
        localfs_query('    directory = "data"', name="dirs", kind="localfs_directory"))

    generated = generate_then_plan(files, ["localfs_file.txt_0", "localfs_file.txt_1",
                                           "localfs_directory.dirs_0"])

    flat = squash(generated)
    assert 'content = "content of data/a.txt\\n"' in flat, generated
    assert 'file_permission = "0600"' in flat, generated  # differs from the default
    assert "identity = { path = \"data/b.txt\" }" in flat, generated


def test_localfs_a_directory_that_is_not_there_fails_the_query(files):
    if not is_terraform(files):
        works_as_before(files, LOCALFS + """
resource "localfs_file" "h" {
  path    = "h.txt"
  content = "z"
}
""", "localfs_file.h")
        return
    (files.workdir / "main.tfquery.hcl").write_text(
        localfs_query('    directory = "missing"', name="missing") +
        localfs_query('    directory = "data/a.txt"', name="file"))

    result = query(files, ok=(1,))

    text = squash(result.stderr)
    assert "Error: missing does not exist" in text, text
    assert "Error: data/a.txt is not a directory" in text, text
    assert "localfs_file: list failed at lib/listing.lua:" in text, text


# restapi


@pytest.fixture
def posts(json_server):
    """A namespace of the run's json-server with seven posts (its requests() are logged)."""
    for i in range(1, 8):
        status, _ = json_server.request("POST", "/posts",
                                        {"id": i, "title": f"post {i}", "views": i * 10})
        assert status == 201, status
    return json_server


def restapi(tofu, url: str) -> None:
    tofu.write(required_providers("restapi") + f"""
provider "restapi" {{
  uri     = "{url}"
  retries = 0
}}
""")


def posts_query(extra: str = "", config: str = "") -> str:
    return f"""
list "restapi_object" "posts" {{
  provider = restapi
  {extra}
  config {{
    path  = "/posts"
    query = {{ _page = "1", _limit = "2" }}
    {config}
  }}
}}
"""


def test_restapi_query_lists_a_collection_page_by_page_up_to_the_limit(make_tofu, restapi_dir,
                                                                       posts):
    tofu = make_tofu({"restapi": restapi_dir})
    if not is_terraform(tofu):
        works_as_before(tofu, required_providers("restapi") + f"""
provider "restapi" {{
  uri = "{posts.url}"
}}

resource "restapi_object" "p" {{
  path = "/posts"
  data = jsonencode({{ title = "by tofu" }})
}}
""", "restapi_object.p")
        return
    restapi(tofu, posts.url)
    (tofu.workdir / "main.tfquery.hcl").write_text(
        posts_query(config='display_field = "title"'))

    result = query(tofu)

    # Seven posts in pages of two: the default limit (100) takes every page.
    assert lines_of(result, "list.restapi_object.posts") == [
        [f"id={i},path=/posts", "post", str(i)] for i in range(1, 8)], result.stdout
    pages = [r for r in posts.requests() if r.startswith("GET /posts")]
    assert len(pages) == 4, pages

    (tofu.workdir / "main.tfquery.hcl").write_text(posts_query(extra="limit = 3"))
    before = len(posts.requests())

    results = found(tofu)

    assert [r["identity"] for r in results] == [
        {"id": "1", "path": "/posts"}, {"id": "2", "path": "/posts"},
        {"id": "3", "path": "/posts"}]
    assert results[0]["display_name"] == "/posts/1"
    # Two pages hold the three it needs; the rest are never asked for.
    read = [r for r in posts.requests()[before:] if r.startswith("GET /posts")]
    assert [r.split("_page=")[1][:1] for r in read] == ["1", "2"], read


def test_restapi_generated_configuration_imports_with_nothing_to_change(make_tofu, restapi_dir,
                                                                        posts):
    tofu = make_tofu({"restapi": restapi_dir})
    if not is_terraform(tofu):
        # The identity restapi_object gained is stored, and import by id works as before.
        tofu.write(required_providers("restapi") + f"""
provider "restapi" {{
  uri = "{posts.url}"
}}

import {{
  to = restapi_object.first
  id = "/posts/1"
}}

resource "restapi_object" "first" {{
  path = "/posts"
  data = jsonencode({{ title = "post 1", views = 10 }})
}}
""")
        tofu.apply()
        assert tofu.plan_exit_code() == 0
        return
    restapi(tofu, posts.url)
    (tofu.workdir / "main.tfquery.hcl").write_text(posts_query(extra="limit = 2"))

    generated = generate_then_plan(tofu, ["restapi_object.posts_0", "restapi_object.posts_1"])

    flat = squash(generated)
    assert 'identity = { id = "2" path = "/posts" }' in flat, generated
    assert 'title = "post 2"' in flat and "views = 20" in flat, generated


def stored_identities(tofu) -> dict[str, dict]:
    state = json.loads((tofu.workdir / "terraform.tfstate").read_text())
    return {f"{r['type']}.{r['name']}": r["instances"][0].get("identity")
            for r in state["resources"]}


def test_restapi_objects_are_imported_by_identity_or_by_id(make_tofu, restapi_dir, posts):
    """restapi_object's identity (collection path and id), which listing needs: an import block
    may give it, and an import by id (as before) stores it."""
    tofu = make_tofu({"restapi": restapi_dir})
    tofu.write(required_providers("restapi") + f"""
provider "restapi" {{
  uri = "{posts.url}"
}}

import {{
  to = restapi_object.by_id
  id = "/posts/1"
}}

resource "restapi_object" "by_id" {{
  path = "/posts"
  data = jsonencode({{ title = "post 1", views = 10 }})
}}

import {{
  to       = restapi_object.by_identity
  identity = {{ path = "/posts", id = "2" }}
}}

resource "restapi_object" "by_identity" {{
  path = "/posts"
  data = jsonencode({{ title = "post 2", views = 20 }})
}}
""")
    tofu.apply()
    assert stored_identities(tofu) == {
        "restapi_object.by_id": {"id": "1", "path": "/posts"},
        "restapi_object.by_identity": {"id": "2", "path": "/posts"}}
    assert tofu.plan_exit_code() == 0


# A test provider for what can go wrong (tests/e2e/providers/shelf)


SHELF = required_providers("shelf")


@pytest.fixture
def shelf(make_tofu, test_provider):
    """Books 111 (Dune), 222 (Emma) and 311 (Ivanhoe) on the shelf."""
    tofu = make_tofu({"shelf": test_provider("shelf")})
    for isbn, title in (("111", "Dune"), ("222", "Emma"), ("311", "Ivanhoe")):
        (tofu.workdir / f"book-{isbn}.txt").write_text(title)
    tofu.write(SHELF)
    return tofu


def shelf_query(extra: str = "", config: str = "") -> str:
    return f"""
list "shelf_book" "all" {{
  provider = shelf
  {extra}
  config {{
    {config}
  }}
}}
"""


def shelf_works_as_before(tofu) -> None:
    works_as_before(tofu, SHELF + """
resource "shelf_book" "new" {
  isbn  = "999"
  title = "Middlemarch"
}
""", "shelf_book.new")


def test_an_element_that_does_not_fit_is_a_warning_and_the_others_are_listed(shelf):
    if not is_terraform(shelf):
        (shelf.workdir / "odd-entry").write_text("")
        shelf_works_as_before(shelf)
        return
    (shelf.workdir / "odd-entry").write_text("")
    (shelf.workdir / "main.tfquery.hcl").write_text(shelf_query(extra="limit = 2"))

    result = query(shelf)

    # The odd element does not count towards the limit of 2.
    assert lines_of(result, "list.shelf_book.all") == [["isbn=111", "Dune"],
                                                       ["isbn=222", "Emma"]], result.stdout
    text = squash(result.stdout + result.stderr)
    assert "Warning: A listed object is left out" in text, text
    assert 'list_book.lua:25: "odd entry" does not fit the resource' in text, text
    warned = diagnostics(shelf)
    assert [d["severity"] for d in warned] == ["warning"], warned


def test_an_error_in_list_fails_the_query_naming_the_script_line(shelf):
    if not is_terraform(shelf):
        (shelf.workdir / "fail-list").write_text("")
        shelf_works_as_before(shelf)
        return
    (shelf.workdir / "fail-list").write_text("")
    (shelf.workdir / "main.tfquery.hcl").write_text(shelf_query())

    result = query(shelf, ok=(1,))

    text = squash(result.stderr)
    assert "Error: the shelf fell over" in text, text
    assert "shelf_book: list failed at list_book.lua:38" in text, text


def test_filters_and_whole_objects_given_by_the_script(shelf):
    if not is_terraform(shelf):
        shelf_works_as_before(shelf)
        return
    (shelf.workdir / "main.tfquery.hcl").write_text(
        shelf_query(extra="include_resource = true", config='prefix = "1"'))

    results = found(shelf)

    # The script gives each object itself: the CLI gets it as written, nothing is read.
    assert [(r["identity"], r["display_name"], r["resource_object"]) for r in results] == [
        ({"isbn": "111"}, "Dune", {"id": "111", "isbn": "111", "title": "Dune"})]

    (shelf.workdir / "main.tfquery.hcl").write_text(shelf_query())
    generated = generate_then_plan(shelf, ["shelf_book.all_0", "shelf_book.all_1",
                                           "shelf_book.all_2"])
    assert 'title = "Ivanhoe"' in squash(generated), generated


def test_the_protocol_version_carries_the_listing(shelf):
    """Both protocol 6 and protocol 5 carry ListResource (the fixtures run each scenario on
    both): the CLI spoke the version asked for."""
    if not is_terraform(shelf):
        shelf_works_as_before(shelf)
        assert shelf.uses_protocol() == shelf.protocol
        return
    (shelf.workdir / "main.tfquery.hcl").write_text(shelf_query())
    assert len(found(shelf)) == 3
    assert shelf.uses_protocol() == shelf.protocol


def test_validate_checks_the_list_block_against_its_schema(shelf):
    """`terraform validate -query` validates query files with the provider's list schema."""
    if not is_terraform(shelf):
        shelf_works_as_before(shelf)
        return
    (shelf.workdir / "main.tfquery.hcl").write_text(shelf_query(config='prefx = "1"'))
    result = shelf.run("validate", "-query", ok=(1,))
    text = squash(result.stderr)
    assert 'An argument named "prefx" is not expected here' in text, text
