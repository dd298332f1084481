"""tests/e2e/providers/evolve: its configuration, and how a test plays a provider upgrade (by
swapping in one of its versions/*.lua) and reads what the CLI stored."""
import json
import shutil

from support.harness import required_providers

CONFIG = required_providers("evolve") + """
resource "evolve_note" "n" {
  name = "todo"
  text = "hello"
}
"""


def install(tofu, version: str) -> None:
    """Replaces the note's script with versions/VERSION.lua."""
    shutil.copy(tofu.provider_dir / "versions" / f"{version}.lua",
                tofu.provider_dir / "resource_note.lua")


def stored_instance(tofu) -> dict:
    """The note's instance as the state file holds it."""
    state = json.loads((tofu.workdir / "terraform.tfstate").read_text())
    return state["resources"][0]["instances"][0]
