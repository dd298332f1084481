"""Provider-defined functions from function_*.lua, called as provider::calc::NAME(...) by the
real CLI: parameter and result types (string, number, bool, collections, objects, dynamic),
a variadic parameter, null and unknown arguments, and failures that name the argument."""
import json

from support.harness import (TEST_PROVIDERS_DIR, parse_json, required_providers, run_schema, squash,
                     without_empty_texts)

import pytest


def marked_line(script: str, mark: str) -> int:
    lines = (TEST_PROVIDERS_DIR / "calc" / script).read_text().splitlines()
    for number, line in enumerate(lines, start=1):
        if f"MARK: {mark}" in line:
            return number + (1 if "(the next line)" in line else 0)
    raise AssertionError(f"no MARK: {mark} in {script}")


@pytest.fixture
def calc(make_tofu, test_provider):
    return make_tofu({"calc": test_provider("calc")})


def outputs_config(**outputs: str) -> str:
    body = "".join(f'output "{name}" {{\n  value = {expr}\n}}\n' for name, expr in outputs.items())
    return required_providers("calc") + body


def test_functions_compute_values_of_every_kind_at_plan_time(calc):
    calc.write(outputs_config(
        shout="provider::calc::shout(\"hey\", \"!\", \"?\")",
        shout_plain="provider::calc::shout(\"quiet\")",
        url="provider::calc::parse_url(\"https://example.com:8443/a/b\")",
        url_default_port="provider::calc::parse_url(\"http://example.com\")",
        sorted="provider::calc::sorted(toset([\"b\", \"c\", \"a\"]), null)",
        sorted_down="provider::calc::sorted(toset([\"b\", \"c\", \"a\"]), true)",
        describe_object="provider::calc::describe({ name = \"x\", sizes = [1, 2.5] })",
        describe_number="provider::calc::describe(42)",
        describe_null="provider::calc::describe(tostring(null))",
        count="provider::calc::count([\"a\", \"b\", \"c\"])",
    ))
    code, plan = calc.plan()
    assert code == 2
    planned = {name: o["value"] for name, o in plan["planned_values"]["outputs"].items()}
    expected = {
        "shout": "HEY!?",
        "shout_plain": "QUIET",
        "url": {"scheme": "https", "host": "example.com", "port": 8443, "path": "/a/b"},
        "url_default_port": {"scheme": "http", "host": "example.com", "port": 80, "path": "/"},
        "sorted": ["a", "b", "c"],
        "sorted_down": ["c", "b", "a"],
        "describe_object": {"kind": "table", "value": {"name": "x", "sizes": [1, 2.5]}},
        "describe_number": {"kind": "number", "value": 42},
        "describe_null": {"kind": "null"},
        "count": 3,
    }
    assert planned == expected

    calc.apply()
    assert calc.outputs() == expected
    assert calc.plan_exit_code() == 0


def test_a_failure_names_the_argument_and_the_script_line(calc):
    calc.write(outputs_config(bad="provider::calc::shout(\"\")"))
    result = calc.run("plan", ok=(1,))
    stderr = squash(result.stderr)
    line = marked_line("function_shout.lua", "empty")
    assert "Invalid value for \"text\" parameter" in stderr, result.stderr
    # The words first, where the script raised them after them.
    assert f"Nothing to shout: the text is empty (at function_shout.lua:{line})" in stderr, stderr


def test_a_script_error_and_a_wrong_result_are_errors_of_the_call(calc):
    calc.write(outputs_config(crash="provider::calc::broken(0)"))
    result = calc.run("plan", ok=(1,))
    line = marked_line("function_broken.lua", "nil-index")
    stderr = squash(result.stderr)
    assert "provider::calc::broken" in stderr, result.stderr
    assert "attempt to index a nil value" in stderr, stderr
    assert f"(at function_broken.lua:{line})" in stderr, stderr

    calc.write(outputs_config(wrong="provider::calc::broken(1)"))
    result = calc.run("plan", ok=(1,))
    stderr = squash(result.stderr)
    assert "run returned a value that is not a number" in stderr, result.stderr
    assert "expected number, got table" in stderr, result.stderr


def test_the_cli_refuses_null_for_a_parameter_that_does_not_allow_it(calc):
    calc.write(outputs_config(bad="provider::calc::shout(null)"))
    result = calc.run("plan", ok=(1,))
    stderr = squash(result.stderr)
    assert "Invalid function argument" in stderr, result.stderr
    assert "\"text\"" in stderr, result.stderr


def test_an_unknown_argument_is_seen_only_by_a_function_that_allows_it(calc):
    calc.write(required_providers("calc") + """
resource "terraform_data" "later" {
  input = "known at apply"
}

output "count_partly_unknown" {
  value = provider::calc::count(["a", terraform_data.later.output])
}

output "count_unknown" {
  value = provider::calc::count(terraform_data.later.output == "" ? [] : ["x", "y"])
}

output "shout_unknown" {
  value = provider::calc::shout(terraform_data.later.output)
}
""")
    _, plan = calc.plan()
    outputs = plan["planned_values"]["outputs"]
    unknown = plan["output_changes"]
    # count allows unknown values: the length of a list is known while an element is not.
    assert outputs["count_partly_unknown"]["value"] == 2
    # A wholly unknown list gives an unknown count (the script returns tf.unknown), and shout,
    # which does not allow unknown values, is not called until its argument is known.
    assert unknown["count_unknown"]["after_unknown"] is True
    assert unknown["shout_unknown"]["after_unknown"] is True

    calc.apply()
    assert calc.outputs() == {"count_partly_unknown": 2, "count_unknown": 2,
                              "shout_unknown": "KNOWN AT APPLY"}
    assert calc.plan_exit_code() == 0


def test_schema_command_describes_functions_as_the_cli_does(calc, test_provider):
    provider_dir = test_provider("calc")
    result = run_schema(provider_dir / "terraform-provider-calc")
    assert result.returncode == 0, result.stderr
    ours = json.loads(result.stdout)
    calc.write(required_providers("calc"))
    cli = parse_json(calc.run("providers", "schema", "-json", "-no-color").stdout)
    (address,) = ours["provider_schemas"]
    assert without_empty_texts(ours["provider_schemas"][address]["functions"]) == \
        without_empty_texts(cli["provider_schemas"][address]["functions"])
    shout = cli["provider_schemas"][address]["functions"]["shout"]
    assert shout["summary"] == "Upper-cases text"
    assert shout["variadic_parameter"]["name"] == "suffixes"


def test_localfs_lines_splits_like_its_data_source(tofu):
    tofu.write(required_providers("localfs") + """
resource "localfs_file" "list" {
  path    = "list.txt"
  content = "alpha\\nbeta\\n\\ngamma\\n"
}

data "localfs_file" "list" {
  path       = localfs_file.list.path
  depends_on = [localfs_file.list]
}

output "from_function" {
  value = provider::localfs::lines(localfs_file.list.content)
}

output "from_data_source" {
  value = data.localfs_file.list.lines
}
""")
    _, plan = tofu.plan()
    # The content is configuration, so the function's result is known while planning.
    assert plan["planned_values"]["outputs"]["from_function"]["value"] == \
        ["alpha", "beta", "", "gamma"]
    tofu.apply()
    outputs = tofu.outputs()
    assert outputs["from_function"] == outputs["from_data_source"] == ["alpha", "beta", "", "gamma"]
