"""Configurations for tests/e2e/providers/lease, and where their values could leak to."""
import zipfile

from support.harness import required_providers


def config(url: str, *, text: str = "hello", delay: float = 0, ttl: float = 60,
           role: str = "writer", note: str = "", resource: str | None = None) -> str:
    """The lease provider, a token, the authed provider and (unless `resource` replaces it) the
    note."""
    note_block = resource if resource is not None else f"""
resource "lease_note" "n" {{
  provider = lease.authed
  text     = "{text}"
  delay    = {delay}
  {note}
}}
"""
    return required_providers("lease") + f"""
provider "lease" {{
  url = "{url}"
}}

ephemeral "lease_token" "writer" {{
  role = "{role}"
  ttl  = {ttl}
}}

provider "lease" {{
  alias = "authed"
  url   = "{url}"
  token = ephemeral.lease_token.writer.token
}}
""" + note_block


def saved_texts(workdir) -> str:
    """The state file and every member of the saved plan but the copy of the configuration
    (tfconfig/, which holds literals as written), as one text to search."""
    texts = [(workdir / "terraform.tfstate").read_text()]
    with zipfile.ZipFile(workdir / "tfplan") as plan:
        names = [name for name in plan.namelist() if not name.startswith("tfconfig/")]
        assert "tfplan" in names
        texts += [plan.read(name).decode(errors="replace") for name in names]
    return "\n".join(texts)


