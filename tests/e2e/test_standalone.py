"""The host binary started by hand, without the CLI's magic cookie: it must explain itself
(its provider name and the scripts it found) and refuse to serve."""
import os
import subprocess

from support.harness import TEST_PROVIDERS_DIR


def run_by_hand(binary, *args):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("TF_", "PLUGIN_"))}
    return subprocess.run([str(binary), *args], env=env, text=True, capture_output=True,
                          timeout=60, check=False)


def test_started_by_hand_it_names_itself_and_its_scripts_and_exits_non_zero(localfs_dir):
    result = run_by_hand(localfs_dir / "terraform-provider-localfs")

    assert result.returncode != 0
    text = result.stdout + result.stderr
    assert "localfs" in text
    assert str(localfs_dir) in text
    assert "localfs_file" in text
    assert "resource_file.lua" in text
    assert "data_source_file.lua" in text
    # Nothing that looks like a go-plugin handshake line.
    assert "|grpc|" not in result.stdout


def test_check_loads_every_script_of_a_good_provider(localfs_dir):
    result = run_by_hand(localfs_dir / "terraform-provider-localfs", "--check")

    assert result.returncode == 0, result.stdout + result.stderr
    assert "check passed" in result.stdout


def test_check_reports_a_syntax_error_with_file_and_line(test_provider):
    provider = test_provider("badsyntax")
    script = TEST_PROVIDERS_DIR / "badsyntax" / "resource_thing.lua"
    line = next(n for n, text in enumerate(script.read_text().splitlines(), start=1)
                if "MARK: syntax" in text)

    result = run_by_hand(provider / "terraform-provider-badsyntax", "--check")

    assert result.returncode == 1
    assert f"resource_thing.lua:{line}" in result.stdout + result.stderr
