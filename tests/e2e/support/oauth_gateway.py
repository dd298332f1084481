"""An API that takes OAuth 2.0 access tokens, on loopback, for the tests of the client
credentials grant (tf.http.client's `oauth2`, and providers served from a description whose
security scheme is that flow): real parts only.

- oidc-provider (npm, pinned below; oauth_issuer.mjs sets it up) issues RS256-signed JWT access
  tokens by the client credentials grant, lasting TOKEN_SECONDS.
- Apache httpd with mod_auth_openidc (Debian's apache2 and libapache2-mod-auth-openidc,
  installed by tests/setup/install-deps.sh) is the API's gateway: /api/ reaches the run's
  json-server only with a token whose signature, issuer and expiry it checks against the
  issuer's keys (401 otherwise), and /oauth/token is passed to the issuer, so a description can
  name the token URL relative to the API's server.

The run shares one gateway (conftest's `gated` fixture); a scenario's API is its own namespace
of json-server below /api/. Apache logs every request with its status and the Authorization
header it came with, so a scenario can count the tokens its requests carried and the refusals
they met. A scenario that restarts the issuer has a gateway of its own (`own_gateway`).
"""
from __future__ import annotations

import json
import re
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

from support.json_server import JsonSpace
from support.loopback import LoopbackServer, free_port

HERE = Path(__file__).resolve().parent
OIDC_PROVIDER_VERSION = "9.13.3"
CLIENT_ID = "luaform-robot"
CLIENT_SECRET = "gated-s3cret-3f9a1c"
TOKEN_SECONDS = 4

APACHE = Path("/usr/sbin/apache2")
MODULES = Path("/usr/lib/apache2/modules")
# Debian's apache2 builds in only the core; every other module is loaded by name.
LOADED = ["mpm_event", "authn_core", "authz_core", "authz_user", "proxy", "proxy_http",
          "auth_openidc"]

CONFIG = """ServerRoot "{work}"
ServerName 127.0.0.1
Listen 127.0.0.1:{port}
PidFile "{work}/httpd.pid"
DefaultRuntimeDir "{work}"
ErrorLog "{work}/error.log"
LogLevel warn
# Every request: its status, method, path and the Authorization header it carried.
LogFormat "%>s %m %U \\"%{{Authorization}}i\\"" gate
CustomLog "{work}/access.log" gate
# Started as root, Apache refuses to answer as root; its files are opened before it switches.
User www-data
Group www-data
{modules}
StartServers 1
ServerLimit 2
ThreadsPerChild 16
MaxRequestWorkers 32
# The issuer's discovery document names its key set, against which tokens are checked here
# (a JWKS URL given directly must be https in mod_auth_openidc 2.4).
OIDCOAuthServerMetadataURL http://127.0.0.1:{issuer}/.well-known/openid-configuration
<Location /api/>
  AuthType oauth20
  Require valid-user
  ProxyPass http://127.0.0.1:{backend}/
  ProxyPassReverse http://127.0.0.1:{backend}/
</Location>
<Location /oauth/token>
  ProxyPass http://127.0.0.1:{issuer}/token
</Location>
"""


def install_oidc_provider() -> Path:
    """The directory npm installed oidc-provider under (cached; install-npm-package.sh)."""
    result = subprocess.run(["bash", str(HERE.parent / "install-npm-package.sh"),
                             "oidc-provider", OIDC_PROVIDER_VERSION],
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise AssertionError(f"install-npm-package.sh oidc-provider failed:\n{result.stderr}")
    return Path(result.stdout.strip().splitlines()[-1])


class Issuer(LoopbackServer):
    """oidc-provider on `port`, issuing tokens for the API at `resource`."""

    def __init__(self, directory: Path, port: int, resource: str, *, shared: bool = False,
                 token_seconds: int = TOKEN_SECONDS):
        super().__init__("oidc-provider", directory / "issuer.log")
        self.installed = install_oidc_provider()
        self.port = port
        self.resource = resource
        self.token_seconds = token_seconds
        self.start(shared=shared)

    def command(self) -> list[str]:
        return ["env", f"ISSUER_PORT={self.port}", f"RESOURCE={self.resource}",
                f"ACCESS_TOKEN_TTL={self.token_seconds}", f"CLIENT_ID={CLIENT_ID}",
                f"CLIENT_SECRET={CLIENT_SECRET}", f"OIDC_PROVIDER_DIR={self.installed}",
                "node", str(HERE / "oauth_issuer.mjs")]

    def ready(self) -> bool:
        url = f"http://127.0.0.1:{self.port}/.well-known/openid-configuration"
        return "jwks_uri" in json.loads(urllib.request.urlopen(url, timeout=1).read())


class Gateway(LoopbackServer):
    """Apache on `port` in front of the json-server at `backend_url`."""

    def __init__(self, directory: Path, port: int, issuer_port: int, backend_url: str, *,
                 shared: bool = False):
        super().__init__("apache2", directory / "apache.log")
        for needed in [APACHE] + [MODULES / f"mod_{name}.so" for name in LOADED]:
            if not needed.exists():
                raise AssertionError(f"{needed} is missing: apt-get install apache2 "
                                     "libapache2-mod-auth-openidc (tests/setup/install-deps.sh "
                                     "installs them)")
        self.work = directory
        directory.chmod(0o755)  # its children (www-data) pass through it
        self.port = port
        self.access_log = directory / "access.log"
        self.conf = directory / "httpd.conf"
        backend_port = backend_url.rsplit(":", 1)[1]
        modules = "\n".join(f"LoadModule {name}_module {MODULES}/mod_{name}.so"
                            for name in LOADED)
        self.conf.write_text(CONFIG.format(work=directory, port=port, issuer=issuer_port,
                                           backend=backend_port, modules=modules))
        self.start(shared=shared)

    def command(self) -> list[str]:
        return [str(APACHE), "-f", str(self.conf), "-DFOREGROUND"]

    def ready(self) -> bool:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/", timeout=1)
        except urllib.error.HTTPError as e:
            return e.code == 401  # up, and asking for a token
        return False


def start_shared(directory: Path, backend_url: str) -> dict:
    """shared_servers.shared_server's start for the run's gateway and its issuer."""
    port = free_port()
    issuer = Issuer(directory, free_port(), gateway_url(port) + "/", shared=True)
    gateway = Gateway(directory, port, issuer.port, backend_url, shared=True)
    return {"pid": gateway.process.pid, "more_pids": [issuer.process.pid],
            "url": gateway_url(port), "log": str(gateway.access_log)}


def gateway_url(port: int) -> str:
    return f"http://127.0.0.1:{port}"


class GatedSpace:
    """A scenario's API behind the gateway: `url` (the provider's base_url) is json-server's
    namespace `space` below /api/ of the gateway at `gateway`."""

    def __init__(self, gateway: str, access_log: Path, backend: JsonSpace):
        self.gateway = gateway
        self.backend = backend  # the namespace itself, reached directly
        self.url = f"{gateway}/api/{backend.name}"
        self.access_log = access_log
        self.prefix = f"/api/{backend.name}/"

    def answered(self) -> list[tuple[int, str, str]]:
        """(status, "GET /api/t7/posts", Authorization) of each request of this namespace."""
        found = []
        for line in self.access_log.read_text(errors="replace").splitlines():
            match = re.match(r'(\d{3}) (\S+) (\S+) "(.*)"$', line)
            if match and match.group(3).startswith(self.prefix):
                found.append((int(match.group(1)), f"{match.group(2)} {match.group(3)}",
                              match.group(4)))
        return found

    def tokens(self) -> list[str]:
        """The bearer tokens this namespace's requests carried, each once, in order of use."""
        seen: list[str] = []
        for _, _, authorization in self.answered():
            token = authorization.removeprefix("Bearer ")
            if authorization.startswith("Bearer ") and token not in seen:
                seen.append(token)
        return seen

    def refusals(self) -> list[str]:
        return [request for status, request, _ in self.answered() if status == 401]


class OwnGateway:
    """An issuer and a gateway of a scenario's own (tokens lasting `token_seconds`), in front of
    namespace `backend` of the run's json-server, for a scenario that starts them anew."""

    def __init__(self, directory: Path, backend: JsonSpace, token_seconds: int):
        directory.mkdir(parents=True, exist_ok=True)
        self.directory = directory
        self.backend = backend
        self.token_seconds = token_seconds
        self.port, self.issuer_port = free_port(), free_port()
        self.issuer: Issuer | None = None
        self.gateway: Gateway | None = None
        self.start()
        self.space = GatedSpace(gateway_url(self.port), self.gateway.access_log, backend)

    def start(self) -> None:
        self.issuer = Issuer(self.directory, self.issuer_port, gateway_url(self.port) + "/",
                             token_seconds=self.token_seconds)
        self.gateway = Gateway(self.directory, self.port, self.issuer_port,
                               self.backend.server_url)

    def stop(self) -> None:
        for server in (self.gateway, self.issuer):
            if server is not None:
                server.stop()

    def restart(self) -> None:
        """Both anew: the issuer signs with a key of its own, and the gateway has forgotten
        the old one, so every token issued before is refused."""
        self.stop()
        self.start()
