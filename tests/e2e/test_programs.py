"""Programs run by scripts (tf.exec), with the real CLI: tests/e2e/providers/sqlite manages
tables of a database file through Debian's sqlite3 program (create, rename and add columns in
place, replace, drift, import, destroy), and its probe runs programs that hang, flood their
output, are missing, or are handed a secret."""
import os
import re
import signal
import subprocess
import time

import pytest

from support.harness import hcl_string, planned_actions, required_providers, resources, squash

SQLITE3 = "/usr/bin/sqlite3"


@pytest.fixture
def sqlite(make_tofu, test_provider):
    if not os.access(SQLITE3, os.X_OK):
        pytest.fail(f"{SQLITE3} is missing: apt-get install sqlite3 (tests/setup/install-deps.sh)")
    return make_tofu({"sqlite": test_provider("sqlite")})


def database(tofu) -> str:
    return str(tofu.workdir / "data.sqlite")


def provider_block(tofu, extra: str = "") -> str:
    return required_providers("sqlite") + f"""
provider "sqlite" {{
  database = "{database(tofu)}"
  {extra}
}}
"""


def table_config(tofu, name: str, columns: list[tuple[str, str]]) -> str:
    blocks = "\n".join(f'  columns {{\n    name = "{n}"\n    type = "{t}"\n  }}'
                       for n, t in columns)
    return provider_block(tofu) + f"""
resource "sqlite_table" "t" {{
  name = "{name}"
{blocks}
}}

data "sqlite_query" "count" {{
  sql        = "select count(*) as n from sqlite_master where type = 'table'"
  depends_on = [sqlite_table.t]
}}

output "tables" {{
  value = data.sqlite_query.count.rows[0].n
}}
"""


def columns_by_hand(tofu, table: str) -> list[tuple[str, str]]:
    """The table's columns as sqlite3 itself reports them."""
    out = subprocess.run([SQLITE3, database(tofu),
                          f"select name, type from pragma_table_info('{table}') order by cid"],
                         capture_output=True, text=True, check=True).stdout
    return [tuple(line.split("|")) for line in out.splitlines()]


def test_a_table_is_created_changed_in_place_replaced_imported_and_destroyed(sqlite):
    sqlite.write(table_config(sqlite, "people", [("id", "INTEGER"), ("name", "TEXT")]))
    sqlite.apply()
    assert columns_by_hand(sqlite, "people") == [("id", "INTEGER"), ("name", "TEXT")]
    assert sqlite.outputs() == {"tables": "1"}
    assert sqlite.plan_exit_code() == 0

    # A new name and a column at the end: one update in place, the rows kept.
    subprocess.run([SQLITE3, database(sqlite), "insert into people values (1, 'Ada')"],
                   check=True)
    sqlite.write(table_config(sqlite, "persons",
                              [("id", "INTEGER"), ("name", "TEXT"), ("email", "TEXT")]))
    code, plan = sqlite.plan()
    assert planned_actions(plan)["sqlite_table.t"] == ["update"]
    sqlite.apply()
    assert columns_by_hand(sqlite, "people") == []
    assert columns_by_hand(sqlite, "persons") == [("id", "INTEGER"), ("name", "TEXT"),
                                                  ("email", "TEXT")]
    assert subprocess.run([SQLITE3, database(sqlite), "select name from persons"],
                          capture_output=True, text=True, check=True).stdout == "Ada\n"
    assert sqlite.plan_exit_code() == 0

    # Altered by hand: the next plan sees it and adds the column back in place.
    subprocess.run([SQLITE3, database(sqlite), "alter table persons drop column email"],
                   check=True)
    code, plan = sqlite.plan()
    assert planned_actions(plan)["sqlite_table.t"] == ["update"]
    sqlite.apply()
    assert [c for c, _ in columns_by_hand(sqlite, "persons")] == ["id", "name", "email"]

    # A column's type changed: the table is replaced.
    sqlite.write(table_config(sqlite, "persons",
                              [("id", "TEXT"), ("name", "TEXT"), ("email", "TEXT")]))
    code, plan = sqlite.plan()
    assert planned_actions(plan)["sqlite_table.t"] == ["delete", "create"]
    sqlite.apply()
    assert columns_by_hand(sqlite, "persons")[0] == ("id", "TEXT")

    # Forgotten and imported by name: the same table, nothing to change.
    sqlite.run("state", "rm", "sqlite_table.t")
    sqlite.run("import", "-input=false", "sqlite_table.t", "persons")
    assert resources(sqlite.state())["sqlite_table.t"]["values"]["name"] == "persons"
    assert sqlite.plan_exit_code() == 0

    sqlite.destroy()
    assert columns_by_hand(sqlite, "persons") == []


def probe(tofu, command: list[str], extra: str = "") -> str:
    quoted = ", ".join(hcl_string(a) for a in command)
    return provider_block(tofu) + f"""
resource "sqlite_probe" "p" {{
  command = [{quoted}]
  {extra}
}}
"""


def sleeper(tofu) -> tuple[list[str], "os.PathLike"]:
    """A shell that starts a child sleeping in the background, writes its id, and sleeps."""
    pid_file = tofu.workdir / "sleeper.pid"
    return ["sh", "-c", f"sleep 300 & echo $! > {pid_file}; sleep 301"], pid_file


def assert_ended(pid_file) -> None:
    """The background child of the program is gone (killed with the program's group)."""
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        stat = f"/proc/{pid}/stat"
        if os.path.exists(stat) and open(stat).read().split()[2] == "Z":
            return  # ended, waiting for its reaper
        time.sleep(0.05)
    pytest.fail(f"process {pid} (the program's child) is still running")


def test_a_program_that_hangs_is_ended_with_its_children_at_the_timeout(sqlite):
    command, pid_file = sleeper(sqlite)
    sqlite.write(probe(sqlite, command, 'timeouts {\n    create = "2s"\n  }'))
    started = time.monotonic()
    result = sqlite.run("apply", "-auto-approve", "-input=false", ok=(1,))
    assert time.monotonic() - started < 30
    text = squash(result.stderr)
    assert "create did not finish within its timeout of 2s" in text, text
    assert "sqlite_probe: create failed at resource_probe.lua:" in text, text
    assert_ended(pid_file)


def test_ctrl_c_ends_a_running_program_and_its_children(sqlite):
    command, pid_file = sleeper(sqlite)
    sqlite.write(probe(sqlite, command))
    process = sqlite.start("apply", "-auto-approve", "-input=false")
    deadline = time.monotonic() + 60
    while not pid_file.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert pid_file.exists(), "the program never started"
    time.sleep(0.2)  # the pid written whole
    interrupted = time.monotonic()
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert time.monotonic() - interrupted < 10
    assert process.returncode == 1, stdout + stderr
    assert "Error: stopped by StopProvider" in squash(stderr), stdout + stderr
    assert_ended(pid_file)


def test_a_program_flooding_its_output_is_ended_at_its_bound(sqlite):
    sqlite.write(probe(sqlite, ["yes", "flood"], "max_output = 1000000"))
    started = time.monotonic()
    result = sqlite.run("apply", "-auto-approve", "-input=false", ok=(1,))
    assert time.monotonic() - started < 30
    text = squash(result.stderr)
    assert ("Error: exec: yes wrote more than 1000000 bytes to its standard output and error; "
            "it was ended") in text, text
    assert "sqlite_probe" not in resources(sqlite.state())


def test_a_missing_program_is_a_clear_error(sqlite):
    sqlite.write(probe(sqlite, ["no-such-tool-4711", "--version"]))
    result = sqlite.run("apply", "-auto-approve", "-input=false", ok=(1,))
    text = squash(result.stderr)
    assert 'Error: exec: program "no-such-tool-4711" not found in PATH (' in text, text
    assert "at resource_probe.lua:" in text, text

    # The provider's own program setting, wrong: every table operation says so.
    sqlite.write(provider_block(sqlite, 'program = "/nonexistent/sqlite3"') + """
resource "sqlite_table" "t" {
  name = "t"
  columns {
    name = "id"
  }
}
""")
    result = sqlite.run("apply", "-auto-approve", "-input=false", ok=(1,))
    text = squash(result.stderr)
    assert ("Error: exec: program /nonexistent/sqlite3 does not exist or is not executable"
            in text), text


def test_a_secret_on_a_command_line_is_hidden_in_errors_and_logs(sqlite):
    secret = "pa55-w0rd-31337"
    # The program echoes its arguments in its error, as many tools do.
    command = ["sh", "-c", 'echo "login refused for $0" >&2; exit 2']
    sqlite.write(probe(sqlite, command, f'password = "{secret}"'))
    result = sqlite.run("apply", "-auto-approve", "-input=false", ok=(1,))
    text = squash(result.stderr)
    assert "Error: exec: sh exited with status 2: login refused for --password=***" in text, text
    assert secret not in result.stdout + result.stderr
    assert secret not in sqlite.log.read_text(errors="replace")
    assert not re.search(r"pa55", result.stderr)
