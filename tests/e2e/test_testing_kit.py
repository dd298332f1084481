"""`terraform-provider-NAME --test`: the authors' testing kit (lua-sdk/luaform_testing.lua).

The project's providers' own Lua tests (providers/*/tests) run here: their unit tests through
the engine, and their acceptance tests through the real CLI of each run (TF_ACC=1), against
the real services on loopback (json-server for restapi, Debian's etcd-server for etcd). The
kit's reports of failures are checked on tests that fail on purpose (providers/kit/failing)."""
import os
import re
import subprocess
from pathlib import Path

SUMMARY = re.compile(r"^(\d+) passed, (\d+) failed, (\d+) skipped$", re.MULTILINE)


def run_tests(provider_dir: Path, name: str, *paths: str, cwd: Path | None = None,
              **env_extra: str) -> subprocess.CompletedProcess:
    # Started by hand, as an author would: nothing from the CLI's environment.
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("TF_", "PLUGIN_", "LUAFORM_"))}
    env.update(env_extra)
    return subprocess.run([str(provider_dir / f"terraform-provider-{name}"), "--test", *paths],
                          env=env, cwd=cwd, text=True, capture_output=True, timeout=600,
                          check=False)


def summary(result: subprocess.CompletedProcess) -> tuple[int, int, int]:
    found = SUMMARY.findall(result.stdout)
    assert found, f"no summary line:\n{result.stdout}\n{result.stderr}"
    passed, failed, skipped = found[-1]
    return int(passed), int(failed), int(skipped)


def is_terraform(binary: Path) -> bool:
    return "terraform" in binary.name


def test_localfs_tests_pass_with_the_real_cli(localfs_dir, tofu_binary, protocol):
    result = run_tests(localfs_dir, "localfs", TF_ACC="1",
                       TF_ACC_TERRAFORM_PATH=str(tofu_binary), LUAFORM_PROTOCOL=str(protocol))
    report = result.stdout + result.stderr
    assert result.returncode == 0, report
    assert "  ok    acceptance: localfs_file lifecycle" in result.stdout, report
    assert "  ok    localfs_file changes content in place and replaces the file for a new path" \
        in result.stdout, report
    assert "  ok    localfs_file is listed by directory and glob, up to the limit" \
        in result.stdout, report
    passed, failed, skipped = summary(result)
    assert (failed, skipped) == (0, 0), report
    assert passed >= 10, report


def test_restapi_tests_pass_against_json_server(restapi_dir, json_server, tofu_binary,
                                               protocol):
    result = run_tests(restapi_dir, "restapi", TF_ACC="1", RESTAPI_URI=json_server.url,
                       TF_ACC_TERRAFORM_PATH=str(tofu_binary), LUAFORM_PROTOCOL=str(protocol))
    report = result.stdout + result.stderr
    assert result.returncode == 0, report
    assert "  ok    acceptance: restapi_object lifecycle" in result.stdout, report
    # The list resource and the action through the kit's unit calls; with Terraform, through
    # `terraform query` and `terraform apply -invoke` too (skipped with OpenTofu, which has
    # neither).
    assert "  ok    the list resource reads a collection page by page, up to the limit" \
        in result.stdout, report
    assert "  ok    the request action checks its plan and reports the status as progress" \
        in result.stdout, report
    query = "acceptance: restapi_object found by a query, and a request invoked"
    if is_terraform(tofu_binary):
        assert f"  ok    {query}" in result.stdout, report
        assert summary(result) == (9, 0, 0), report
    else:
        assert f"  skip  {query} (query steps need `terraform query`, which Terraform has " \
            "from 1.14 on; the CLI" in result.stdout, report
        assert summary(result) == (8, 0, 1), report
    # Every object the tests made is gone again.
    assert json_server.request("GET", "/posts")[1] == []


def test_etcd_tests_pass_against_etcd(etcd_dir, etcd, tofu_binary, protocol):
    result = run_tests(etcd_dir, "etcd", TF_ACC="1", ETCD_ENDPOINT=etcd.url,
                       ETCD_TEST_PREFIX=etcd.namespace, TF_ACC_TERRAFORM_PATH=str(tofu_binary),
                       LUAFORM_PROTOCOL=str(protocol))
    report = result.stdout + result.stderr
    assert result.returncode == 0, report
    assert "  ok    acceptance: etcd_key lifecycle" in result.stdout, report
    assert "  ok    a lock refuses a second holder, naming the first, and only its holder " \
        "releases it" in result.stdout, report
    assert summary(result) == (8, 0, 0), report


def test_service_tests_fail_loudly_without_their_service(etcd_dir):
    result = run_tests(etcd_dir, "etcd")
    assert result.returncode == 1
    assert "these tests need a running etcd: set ETCD_ENDPOINT" in result.stdout


def test_acceptance_tests_are_skipped_without_tf_acc(localfs_dir):
    result = run_tests(localfs_dir, "localfs", "tests/acceptance_test.lua", cwd=localfs_dir)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "  skip  acceptance: localfs_file lifecycle (set TF_ACC=1" in result.stdout
    assert summary(result) == (0, 0, 2)  # the lifecycle and the drift tests


def test_failures_name_the_test_line_and_what_differs(test_provider, tmp_path):
    kit = test_provider("kit")
    broken = tmp_path / "broken_test.lua"
    broken.write_text("local testing = require('luaform_testing')\ntesting.test('x', function(\n")
    result = run_tests(kit, "kit", str(kit / "failing"), str(broken))
    out = result.stdout
    assert result.returncode == 1, out + result.stderr
    assert "failing/assertions_test.lua\n" in out
    assert "  ok    kit_note passes" in out
    # equal: the line of the test, where the tables differ, and both values.
    assert ("  FAIL  kit_note reports where two tables differ\n"
            "        failing/assertions_test.lua:14: expected 3 at .length, got 2") in out, out
    # no_errors: every error diagnostic with its attribute.
    assert re.search(r"failing/assertions_test\.lua:18: expected no errors, got:\n\s+error: .*"
                     r"\[text\]", out), out
    # A table key the schema does not have is an error at the test's line.
    assert re.search(r"failing/assertions_test\.lua:22: .*unexpected attribute \"txt\"", out), out
    assert "  skip  acceptance: needs the CLI (set TF_ACC=1" in out
    # A file that does not load is a failure naming the file and line.
    # (Lua shortens long chunk names from the left.)
    assert re.search(rf"  FAIL  {re.escape(str(broken))} did not run: .*broken_test\.lua:3: ", out), out
    assert summary(result) == (1, 4, 1)


def test_a_missing_test_directory_fails_loudly(test_provider):
    kit = test_provider("kit")
    result = run_tests(kit, "kit")
    assert result.returncode == 1
    assert "no such test file or directory" in result.stderr or \
        "no test files (*_test.lua)" in result.stderr, result.stderr


def test_steps_are_checked_and_cleanups_always_run(test_provider, tofu_binary, protocol,
                                                   tmp_path):
    kit = test_provider("kit")
    marker = tmp_path / "cleanups.txt"
    result = run_tests(kit, "kit", str(kit / "steps"), TF_ACC="1",
                       TF_ACC_TERRAFORM_PATH=str(tofu_binary), LUAFORM_PROTOCOL=str(protocol),
                       KIT_CLEANUP_MARKER=str(marker))
    out = result.stdout
    assert result.returncode == 1, out + result.stderr
    # A misspelt key is an error, not ignored.
    assert re.search(r'FAIL  acceptance: a misspelt step key\n.*step 1: a config step has no '
                     r'key "expect_nonempty_plan" \(keys: check, config, expect_error, '
                     r'expect_non_empty_plan, plan_only, pre_config, refresh_only\)', out), out
    # expect_non_empty_plan asserts that the plan is not empty.
    assert re.search(r"FAIL  acceptance: an empty plan that was expected not to be\n.*step 1: the "
                     r"plan after apply is empty, but expect_non_empty_plan says it is not", out), out
    assert "  ok    acceptance: a plan-only step with an empty plan" in out, out
    # Cleanups ran after the failed assertion, last registered first; a failing one fails.
    assert marker.read_text() == "second registered\nfirst registered\n"
    assert re.search(r"FAIL  cleanups run after a failure\n.*fails before the end", out), out
    assert re.search(r"FAIL  a failing cleanup fails a passing test\n.*cleanup failed: "
                     r".*could not delete the object", out), out
    assert summary(result) == (1, 4, 0)


def test_configurations_no_cli_sends_are_refused(test_provider):
    """A required argument left out fails validation, as the CLI's reading of the configuration
    fails it, before any plan, listing or invoke."""
    kit = test_provider("kit")
    result = run_tests(kit, "kit", str(kit / "validation"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert summary(result) == (3, 0, 0), result.stdout


def test_import_verify_compares_as_the_plan_does(test_provider, tofu_binary, protocol):
    kit = test_provider("kit")
    result = run_tests(kit, "kit", str(kit / "verify"), TF_ACC="1",
                       TF_ACC_TERRAFORM_PATH=str(tofu_binary), LUAFORM_PROTOCOL=str(protocol))
    out = result.stdout
    # "acc1.test." read back for "acc1.test" (diff_suppress), null for "" (a zero value).
    assert "  ok    acceptance: verify counts respelt values the same" in out, out
    assert re.search(r'FAIL  acceptance: verify finds a real difference\n.*step 2: the imported '
                     r'kit_host\.h differs from the applied one at \.host: imported "acc2\.test\.", '
                     r'applied "acc1\.test"', out), out
    assert summary(result) == (1, 1, 0), out


def test_query_and_invoke_steps_run_with_terraform_only(test_provider, tofu_binary, protocol):
    """Query and invoke steps run `terraform query` and `terraform apply -invoke`. OpenTofu has
    neither: a test that says it needs them is skipped there, one that does not fails saying
    what it needs."""
    kit = test_provider("kit")
    result = run_tests(kit, "kit", str(kit / "actions"), TF_ACC="1",
                       TF_ACC_TERRAFORM_PATH=str(tofu_binary), LUAFORM_PROTOCOL=str(protocol))
    out = result.stdout
    if is_terraform(tofu_binary):
        assert result.returncode == 0, out + result.stderr
        assert "  ok    acceptance: a query step\n" in out, out
        assert "  ok    acceptance: an invoke step\n" in out, out
        assert summary(result) == (3, 0, 0), out
        return
    assert result.returncode == 1, out + result.stderr
    cli = re.escape(f"the CLI ({tofu_binary}) is OpenTofu v")
    assert re.search(r"  skip  acceptance: a query step \(query steps need `terraform query`, "
                     r"which Terraform has from 1\.14 on; " + cli, out), out
    assert re.search(r"  skip  acceptance: an invoke step \(invoke steps need `terraform apply "
                     r"-invoke`, which Terraform has from 1\.14 on; " + cli, out), out
    assert re.search(r"FAIL  acceptance: a query step that does not say what it needs\n.*step 1: "
                     r"query steps need `terraform query`.*" + cli + r".*give the test "
                     r'needs = \{ "query" \}', out), out
    assert summary(result) == (0, 1, 2), out
