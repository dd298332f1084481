"""A provider written on redis-lua as Debian packages it (lua-redis, nrk/redis-lua), unmodified,
on the host's require("socket"), against Debian's redis-server on loopback: ACL users created,
changed, drifted by hand, imported and destroyed; the password never shown; a server that never
answers ended by the operation's timeout and by Ctrl-C."""
import shutil
import signal
import socket
import threading
import time
from pathlib import Path

import pytest

from support.harness import hcl_string, planned_actions, required_providers, resources, squash

REDIS_LUA = Path("/usr/share/lua/5.1/redis.lua")
PASSWORD = "correct-horse-4711"


@pytest.fixture
def redis_provider(test_provider) -> Path:
    if not REDIS_LUA.exists():
        pytest.fail(f"{REDIS_LUA} is missing: apt-get install lua-redis "
                    "(tests/setup/install-deps.sh installs it)")
    provider = test_provider("redis")
    shutil.copy(REDIS_LUA, provider / "redis.lua")
    return provider


@pytest.fixture
def acl(make_tofu, redis_provider):
    return make_tofu({"redis": redis_provider})


def user_config(port: int, name: str, *, password: str = PASSWORD, enabled: bool = True,
                keys: list[str], commands: list[str], extra: str = "") -> str:
    def listed(items: list[str]) -> str:
        return "[" + ", ".join(hcl_string(i) for i in items) + "]"
    return required_providers("redis") + f"""
provider "redis" {{
  port = {port}
}}

resource "redis_acl_user" "u" {{
  name     = "{name}"
  password = "{password}"
  enabled  = {str(enabled).lower()}
  keys     = {listed(keys)}
  commands = {listed(commands)}
  {extra}
}}
"""


def test_an_acl_user_is_created_changed_drifts_is_imported_and_destroyed(acl, redis):
    name = redis.prefix + "app"
    app, cache = f"{name}:app:*", f"{name}:cache:*"  # keys of this scenario's own
    acl.write(user_config(redis.port, name, keys=[app], commands=["+@read"]))
    acl.apply()
    line = redis.user(name)
    assert line is not None and " on " in line and f"~{app}" in line and "+@read" in line, line
    # The password works, for this user's keys and commands only.
    assert redis.cli("--user", name, "--pass", PASSWORD, "GET", f"{name}:app:x").strip() == "(nil)"
    assert "NOPERM" in redis.cli("--user", name, "--pass", PASSWORD, "GET", "elsewhere")
    assert acl.plan_exit_code() == 0

    acl.write(user_config(redis.port, name, keys=[app, cache], commands=["+@read", "+set"]))
    code, plan = acl.plan()
    assert planned_actions(plan) == {"redis_acl_user.u": ["update"]}
    acl.apply()
    line = redis.user(name)
    assert f"~{cache}" in line and "+set" in line, line
    assert acl.plan_exit_code() == 0

    # Changed by hand: disabled, and a password of someone else's. The next plan puts both back.
    redis.cli("ACL", "SETUSER", name, "off", "resetpass", ">someone-elses")
    code, plan = acl.plan()
    assert planned_actions(plan) == {"redis_acl_user.u": ["update"]}
    acl.apply()
    assert " on " in redis.user(name)
    assert redis.cli("--user", name, "--pass", PASSWORD, "SET", f"{name}:app:x", "1").strip() \
        == "OK"
    assert acl.plan_exit_code() == 0

    # Forgotten and imported by name: Redis keeps only the password's digest, so the next apply
    # writes the configured password again; then nothing is left to change.
    acl.run("state", "rm", "redis_acl_user.u")
    acl.run("import", "-input=false", "redis_acl_user.u", name)
    assert resources(acl.state())["redis_acl_user.u"]["values"]["keys"] == [app, cache]
    acl.apply()
    assert acl.plan_exit_code() == 0

    acl.destroy()
    assert redis.user(name) is None


def test_the_password_never_reaches_the_output_or_the_log(acl, redis):
    name = redis.prefix + "quiet"
    acl.write(user_config(redis.port, name, keys=[f"{name}:*"], commands=["+@read"]))
    applied = acl.apply()
    planned = acl.run("plan", "-input=false")
    assert PASSWORD not in applied.stdout + applied.stderr + planned.stdout + planned.stderr
    assert PASSWORD not in acl.log.read_text(errors="replace")
    acl.destroy()


@pytest.fixture
def silent_server():
    """A port that accepts connections (the kernel's backlog) and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    yield listener.getsockname()[1]
    listener.close()


def test_a_server_that_never_answers_meets_the_timeout(acl, silent_server):
    acl.write(user_config(silent_server, "nobody", keys=[], commands=[],
                          extra='timeouts {\n    create = "2s"\n  }'))
    started = time.monotonic()
    result = acl.run("apply", "-auto-approve", "-input=false", ok=(1,))
    assert time.monotonic() - started < 30
    text = squash(result.stderr)
    assert "create did not finish within its timeout of 2s" in text, text


def test_ctrl_c_ends_a_wait_on_a_server_that_never_answers(acl, silent_server):
    acl.write(user_config(silent_server, "nobody", keys=[], commands=[]))
    process = acl.start("apply", "-auto-approve", "-input=false")
    time.sleep(3)  # the CLI started, the provider connected and waits for an answer
    interrupted = time.monotonic()
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert time.monotonic() - interrupted < 10
    assert process.returncode == 1, stdout + stderr
    assert "Error: stopped by StopProvider" in squash(stderr), stdout + stderr


@pytest.fixture
def flooding_server():
    """A port whose server answers every connection with a line that never ends."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    stop = threading.Event()

    def flood(connection):
        chunk = b"+" + b"x" * 65535
        try:
            while not stop.is_set():
                connection.sendall(chunk)
        except OSError:  # the provider gave up and closed
            pass
        finally:
            connection.close()

    def accept():
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=flood, args=(connection,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    yield listener.getsockname()[1]
    stop.set()
    listener.close()


def test_a_server_that_sends_without_end_meets_the_memory_limit(acl, flooding_server):
    """redis-lua reads a reply line with receive("*l"): a line without end stops at what the
    script's memory limit leaves, as an error, and the provider goes on."""
    acl.extra_env = {"LUAFORM_MEMORY_LIMIT_MB": "64"}
    acl.write(user_config(flooding_server, "nobody", keys=[], commands=[]))
    started = time.monotonic()
    result = acl.run("apply", "-auto-approve", "-input=false", ok=(1,))
    assert time.monotonic() - started < 60
    text = squash(result.stderr)
    assert "a line longer than the" in text and "under its memory limit" in text, text
