"""`deprecated = "message"` reaches the CLI twice: as the provider's own warning where a
configuration sets a deprecated argument or uses a deprecated type, and through the schema's
deprecation_message, which the CLI shows where a configuration refers to a deprecated value."""
from support.harness import required_providers, squash


def test_deprecated_arguments_and_types_warn_with_their_messages(make_tofu, test_provider):
    guard = make_tofu({"guard": test_provider("guard")})
    guard.write(required_providers("guard") + """
resource "guard_vault" "v" {
  name       = "v"
  legacy_tag = "blue"
}

resource "guard_old_vault" "o" {
  name = "o"
}

output "tag" {
  value = guard_vault.v.legacy_tag
}
""")

    result = guard.run("plan", "-input=false")
    shown = squash(result.stdout + result.stderr)
    # The provider's warnings, from validating the configuration.
    assert "Warning: Argument is deprecated" in shown, shown
    assert "Warning: guard_old_vault is deprecated" in shown, shown
    assert "guard_old_vault is deprecated: use guard_vault" in shown, shown
    # The CLI's own, where the output refers to the deprecated attribute: it can only have the
    # message from the schema's deprecation_message.
    if "terraform" in guard.binary.name:
        assert "Warning: Deprecated value used" in shown, shown
    else:
        assert "Warning: Value derived from a deprecated source" in shown, shown
    assert shown.count("use name instead of legacy_tag") >= 2, shown
