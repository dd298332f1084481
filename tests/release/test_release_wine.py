"""The x86-64 Windows release host through wine: OpenTofu for Windows installs it from a
filesystem mirror, applies, plans nothing and destroys, the provider serving TCP on loopback as
go-plugin does there, and a script's program and TCP client run. Collected only when
windows_amd64 is among the targets (conftest.py); wine runs no ARM64 programs."""
from __future__ import annotations

import os
import subprocess
import zipfile
from pathlib import Path

import pytest

from cli_log import assert_providers_ended_by_themselves, provider_lines
from support.harness import SOURCE_PREFIX, write_mirror_config
from support.loopback import self_signed
from test_release import localfs_config, release_zip

WINE_TARGETS = ["windows_amd64"]


def windows_path(path: Path) -> str:
    """The path as a program under wine sees it: the root file system is drive Z:."""
    return "Z:" + str(path).replace("/", "\\")


@pytest.mark.parametrize("target", WINE_TARGETS)
def test_the_cli_installs_applies_plans_and_destroys_under_wine(dist, version, target,
                                                                tofu_for, tmp_path):
    wine = os.environ.get("LUAFORM_WINE", "/usr/lib/wine/wine64")
    mirror = tmp_path / "mirror" / f"{SOURCE_PREFIX}localfs"
    mirror.mkdir(parents=True)
    (mirror / release_zip(dist, "localfs", version, target).name).write_bytes(
        release_zip(dist, "localfs", version, target).read_bytes())
    write_mirror_config(tmp_path / "cli.tfrc", Path(windows_path(tmp_path / "mirror")))
    work = tmp_path / "work"
    work.mkdir()
    (work / "main.tf").write_text(localfs_config(version))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TF_", "PLUGIN_"))}
    env.update({"WINEDEBUG": "-all", "TF_CLI_CONFIG_FILE": windows_path(tmp_path / "cli.tfrc"),
                "TF_IN_AUTOMATION": "1", "TF_INPUT": "0", "CHECKPOINT_DISABLE": "1",
                "TF_LOG": "trace", "TF_LOG_PATH": windows_path(tmp_path / "tofu.log")})

    def tofu(*args: str) -> subprocess.CompletedProcess:
        ran = subprocess.run([wine, str(tofu_for(target)), f"-chdir={windows_path(work)}",
                              args[0], "-no-color", *args[1:]], env=env, capture_output=True,
                             text=True, timeout=900, check=False)
        log = tmp_path / "tofu.log"
        text = log.read_text(errors="replace") if log.exists() else ""
        assert ran.returncode == 0, (f"{args}: {ran.stdout}\n{ran.stderr}\n"
                                     f"--- the provider in the log ---\n{provider_lines(text)}\n"
                                     f"--- log ---\n{text[-6000:]}")
        return ran

    tofu("init", "-input=false")
    tofu("apply", "-auto-approve", "-input=false")
    assert (work / "smoke.bin").read_bytes() == b"\x00\x01\x02"
    tofu("plan", "-detailed-exitcode", "-input=false")
    # The CLI connected (the host serves TCP on loopback there, the only network go-plugin
    # uses on Windows) and spoke protocol 6.
    assert "using plugin: version=6" in (tmp_path / "tofu.log").read_text(errors="replace")
    tofu("destroy", "-auto-approve", "-input=false")
    assert not (work / "smoke.bin").exists()
    assert_providers_ended_by_themselves((tmp_path / "tofu.log").read_text(errors="replace"))


# A provider whose resource runs a program (cmd.exe) and talks to a TCP server through the
# host's modules, reading the reply with LPeg, and a test file for the host's --test that
# drives it: the Windows host runs both under wine, without a CLI.
REACH_RESOURCE = """local tf = require("luaform")
local socket = require("socket")
local lpeg = require("lpeg")
local word = lpeg.C((1 - lpeg.P(":")) ^ 1)
local reply = lpeg.Ct(word * ":" * word) * -1
return tf.resource {
  schema = { port = tf.number { required = true }, said = tf.string { computed = true },
             heard = tf.string { computed = true } },
  create = function(d)
    local ran = tf.exec.run { "cmd.exe", "/d", "/c", "echo from-a-program& exit 3",
                              allow = { 3 }, env = { SystemRoot = true } }
    assert(ran.status == 3, "status " .. tostring(ran.status))
    local sock = assert(socket.connect("127.0.0.1", math.tointeger(d:get("port"))))
    sock:settimeout(10)
    assert(sock:send("ping\\n"))
    local line = assert(sock:receive("*l"))
    sock:close()
    d:set_id("reached")
    d:set("said", (ran.stdout:gsub("%s+$", "")))
    d:set("heard", table.concat(assert(reply:match(line)), "="))
  end,
  read = function() end,
  delete = function() end,
}
"""

REACH_TEST = """local testing = require("luaform_testing")
testing.test("a program and a TCP server are reached", function()
  local port = math.tointeger(tonumber(os.getenv("REACH_PORT")))
  local made = testing.provider({}):resource("reach_probe"):create { port = port }
  testing.no_errors(made)
  testing.equal(made.state.said, "from-a-program")
  testing.equal(made.state.heard, "pong=ping")
  testing.raises(function() require("luaform").exec.run { "no-such-program-4711" } end,
                 "not found in PATH")
end)

-- The ssl module on Windows reads the system's ROOT store: a server signed by a test CA is
-- refused on the certificate (not for want of any authority), and trusted with that CA's file.
testing.test("TLS trusts the ROOT store by default and a CA file when named", function()
  local socket, ssl = require("socket"), require("ssl")
  local port = math.tointeger(tonumber(os.getenv("REACH_TLS_PORT")))
  local function handshake(params)
    local sock = assert(socket.connect("127.0.0.1", port))
    sock:settimeout(10)
    local tls = assert(ssl.wrap(sock, params))
    local ok, err = tls:dohandshake()
    return ok and tls, err
  end
  local refused, err = handshake({})
  testing.equal(refused, nil)
  testing.equal(err:match("certificate verify failed") ~= nil, true, err)
  local tls = assert(handshake({ cafile = os.getenv("REACH_TLS_CA") }))
  assert(tls:send("hello\\n"))
  testing.equal(tls:receive("*l"), "tls:hello")
  tls:close()
end)
"""


@pytest.mark.parametrize("target", WINE_TARGETS)
def test_a_windows_host_runs_a_program_and_a_tcp_client_under_wine(dist, version, target,
                                                                   tmp_path):
    import socket
    import ssl
    import threading

    wine = os.environ.get("LUAFORM_WINE", "/usr/lib/wine/wine64")
    provider = tmp_path / "reach"
    (provider / "tests").mkdir(parents=True)
    with zipfile.ZipFile(release_zip(dist, "localfs", version, target)) as archive:
        host = Path(archive.extract(f"terraform-provider-localfs_v{version}.exe", tmp_path))
    (provider / "terraform-provider-reach.exe").write_bytes(host.read_bytes())
    (provider / "resource_probe.lua").write_text(REACH_RESOURCE)
    (provider / "tests" / "reach_test.lua").write_text(REACH_TEST)

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)

    def answer():
        connection, _ = listener.accept()
        with connection:
            line = connection.makefile("rb").readline().decode().strip()
            connection.sendall(f"pong:{line}\r\n".encode())

    server = threading.Thread(target=answer, daemon=True)
    server.start()

    # A TLS server whose certificate is its own CA: refused by the first handshake, answered
    # on the second.
    key, cert = self_signed(tmp_path, "tls", "/CN=localhost", "DNS:localhost,IP:127.0.0.1")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    tls_listener = socket.socket()
    tls_listener.bind(("127.0.0.1", 0))
    tls_listener.listen(2)

    def answer_tls():
        for _ in range(2):
            connection, _ = tls_listener.accept()
            try:
                with context.wrap_socket(connection, server_side=True) as tls:
                    line = tls.makefile("rb").readline().decode().strip()
                    tls.sendall(f"tls:{line}\n".encode())
            except (ssl.SSLError, OSError):
                continue  # the client refused the certificate

    tls_server = threading.Thread(target=answer_tls, daemon=True)
    tls_server.start()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TF_", "PLUGIN_"))}
    env.update({"WINEDEBUG": "-all", "REACH_PORT": str(listener.getsockname()[1]),
                "REACH_TLS_PORT": str(tls_listener.getsockname()[1]),
                "REACH_TLS_CA": str(cert)})
    ran = subprocess.run([wine, str(provider / "terraform-provider-reach.exe"), "--test"],
                         cwd=provider, env=env, capture_output=True, text=True, timeout=600,
                         check=False)
    listener.close()
    tls_listener.close()
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "2 passed, 0 failed" in ran.stdout, ran.stdout + ran.stderr
