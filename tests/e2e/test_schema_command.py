"""`terraform-provider-NAME --schema`: the schema the CLI sees, printed without a CLI, in the
shape of `providers schema -json`."""
import json

from support.harness import (SOURCE_PREFIX, parse_json, required_providers, run_schema,
                     without_empty_texts)


def test_schema_prints_what_the_cli_reports_for_the_provider(tofu, localfs_dir):
    result = run_schema(localfs_dir / "terraform-provider-localfs")
    assert result.returncode == 0, result.stderr
    ours = json.loads(result.stdout)
    assert ours["format_version"] == "1.0"
    address = SOURCE_PREFIX + "localfs"
    assert list(ours["provider_schemas"]) == [address]

    tofu.write(required_providers("localfs"))
    # -no-color given here keeps run() from putting it between "providers" and "schema".
    cli = parse_json(tofu.run("providers", "schema", "-json", "-no-color").stdout)

    ours_provider = ours["provider_schemas"][address]
    cli_provider = cli["provider_schemas"][address]
    assert without_empty_texts(ours_provider.pop("functions")) == \
        without_empty_texts(cli_provider.pop("functions"))
    assert sorted(ours_provider["list_resource_schemas"]) == ["localfs_directory", "localfs_file"]
    if "terraform" not in tofu.binary.name:
        # OpenTofu 1.12 knows no list resources and leaves them out; Terraform has them too.
        del ours_provider["list_resource_schemas"]
    assert ours_provider == cli_provider
    # A tf.markdown description reaches the CLI as markdown.
    root = cli["provider_schemas"][address]["provider"]["block"]["attributes"]["root"]
    assert root["description_kind"] == "markdown"
    assert "`$LOCALFS_ROOT`" in root["description"]


def test_schema_of_a_provider_with_a_broken_script_reports_it_and_fails(test_provider):
    result = run_schema(test_provider("badsyntax") / "terraform-provider-badsyntax")

    # A script left out is a warning for the CLI (the other types serve) and a failure here: the
    # schema printed would lack its type.
    assert result.returncode == 1
    assert result.stdout == ""
    assert "warning: Cannot load resource_thing.lua: badsyntax_thing is left out" in result.stderr
    assert "resource_thing.lua:3:" in result.stderr
