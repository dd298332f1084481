"""Destroy plans: a resource with a plan_destroy check makes the provider plan its destroys
(the plan_destroy capability). The check refuses a destroy with an error, which fails the plan
and destroys nothing, or lets it go with a warning; types without a check behave as before."""
import pytest

from support.harness import required_providers, resources, squash


def vaults(protected: bool, with_shared: bool = True) -> str:
    config = required_providers("guard") + f"""
resource "guard_vault" "a" {{
  name                = "a"
  deletion_protection = {str(protected).lower()}
}}

resource "guard_old_vault" "o" {{
  name = "o"
}}
"""
    if with_shared:
        config += """
resource "guard_vault" "s" {
  name = "shared-1"
}
"""
    return config


@pytest.fixture
def guard(make_tofu, test_provider):
    return make_tofu({"guard": test_provider("guard")})


def test_a_protected_object_refuses_the_destroy_and_nothing_is_destroyed(guard):
    guard.write(vaults(protected=True))
    guard.apply()
    everything = {"guard_vault.a", "guard_vault.s", "guard_old_vault.o"}
    assert set(resources(guard.state())) == everything

    result = guard.run("destroy", "-auto-approve", "-input=false", ok=(1,))
    text = squash(result.stderr)
    assert "Error: Vault a is protected from deletion" in text, text
    assert "Set deletion_protection = false and apply, then destroy it." in text, text
    assert set(resources(guard.state())) == everything

    # Removing it from the configuration plans its destroy too: refused the same way.
    guard.write(required_providers("guard") + """
resource "guard_old_vault" "o" {
  name = "o"
}
""")
    result = guard.run("plan", "-input=false", ok=(1,))
    assert "Error: Vault a is protected from deletion" in squash(result.stderr), result.stderr


def test_an_unprotected_object_is_destroyed_and_a_warning_is_shown(guard):
    guard.write(vaults(protected=True))
    guard.apply()
    guard.write(vaults(protected=False))
    guard.apply()

    result = guard.destroy()
    shown = squash(result.stdout + result.stderr)
    assert "Warning: Vault shared-1 is shared: other teams lose it too" in shown, shown
    assert resources(guard.state()) == {}


def test_a_replacement_is_not_a_destroy_plan(guard):
    # Replacing plans a create after the delete, in the resource's own plan: the destroy check
    # is not asked (a check that must stop replacements too belongs in customize_diff).
    guard.write(vaults(protected=True, with_shared=False))
    guard.apply()
    guard.write(vaults(protected=True, with_shared=False).replace('name                = "a"',
                                                                  'name                = "a2"'))
    guard.apply()
    assert resources(guard.state())["guard_vault.a"]["values"]["id"] == "a2"
