"""-generate-config-out after an import block: the CLI writes the configuration of each imported
object, and a plan with it has nothing to change, for every resource of the project's providers.
HashiCorp Terraform (1.14 onwards) asks the provider for that configuration
(GenerateResourceConfig); OpenTofu writes its own from the state, which must plan cleanly too."""
import json

from support.harness import planned_change, required_providers


def generate_then_plan(tofu, head: str, imports: dict[str, str]) -> str:
    """Imports each address by its id with no resource block, generates their configuration,
    and checks that a plan with it imports them and changes nothing. Returns what was written.
    While there is no resource block, each import block names its provider: Terraform 1.16
    takes the type's prefix for a provider of the hashicorp namespace otherwise. Once the
    resource block is generated the import block must not (the resource block decides)."""
    def imports_naming_provider(named: bool) -> str:
        return head + "".join(f"""
import {{
  to = {address}
  id = "{import_id}"
""" + (f"  provider = {address.split('_')[0]}\n" if named else "") + "}\n"
                              for address, import_id in imports.items())
    tofu.write(imports_naming_provider(True))
    tofu.run("plan", "-input=false", "-generate-config-out=generated.tf")
    tofu.write(imports_naming_provider(False))
    generated = (tofu.workdir / "generated.tf").read_text()
    code, plan = tofu.plan()
    for address in imports:
        change = planned_change(plan, address)
        assert change["actions"] == ["no-op"], (address, change, generated)
        assert change.get("importing"), (address, change)
    return generated


def asked_the_provider(tofu) -> bool:
    return "terraform" in tofu.binary.name


def test_localfs_files_and_directories(make_tofu, localfs_dir):
    tofu = make_tofu({"localfs": localfs_dir})
    (tofu.workdir / "notes.txt").write_text("remember the milk\n")
    (tofu.workdir / "notes.txt").chmod(0o640)
    (tofu.workdir / "cache").mkdir(mode=0o755)
    (tofu.workdir / "cache").chmod(0o755)

    generated = generate_then_plan(tofu, required_providers("localfs"), {
        "localfs_file.notes": "notes.txt", "localfs_directory.cache": "cache"})

    assert 'path = "notes.txt"' in " ".join(generated.split()), generated
    if asked_the_provider(tofu):
        # The provider's own rules: computed values and the id left out, a permission equal to
        # the default left out, one that differs kept.
        for computed in ("sha256", "size", " id "):
            assert computed not in generated, generated
        assert 'file_permission = "0640"' in " ".join(generated.split()), generated
        assert "permission = \"0755\"" not in generated, generated


def test_restapi_objects(make_tofu, restapi_dir, json_server):
    status, created = json_server.request("POST", "/posts", {"title": "hello", "views": 3})
    assert status == 201, created
    tofu = make_tofu({"restapi": restapi_dir})
    head = required_providers("restapi") + f"""
provider "restapi" {{
  uri = "{json_server.url}"
}}
"""
    generated = generate_then_plan(tofu, head, {"restapi_object.post": f"/posts/{created['id']}"})

    if asked_the_provider(tofu):
        flat = " ".join(generated.split())
        assert "api_response" not in generated and "api_data" not in generated, generated
        assert 'create_method' not in generated, generated  # equal to its default
        assert 'path = "/posts"' in flat, generated
        assert "data = jsonencode(" in flat, generated  # the CLI writes JSON text this way


def test_etcd_keys(make_tofu, etcd_dir, etcd):
    etcd.put("app/mode", "blue")
    tofu = make_tofu({"etcd": etcd_dir})
    head = required_providers("etcd") + f"""
provider "etcd" {{
  endpoint = "{etcd.url}"
  {etcd.provider_prefix()}
}}
"""
    generated = generate_then_plan(tofu, head, {"etcd_key.mode": "app/mode"})

    flat = " ".join(generated.split())
    assert 'key = "app/mode"' in flat and 'value = "blue"' in flat, generated
    if asked_the_provider(tofu):
        for computed in ("lease_id", "mod_revision", "version"):
            assert computed not in generated, generated
