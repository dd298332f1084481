"""Maps, sets and lists of primitives configured by the user, through a script that stores them
and reads them back as Lua tables (tests/e2e/providers/normal): stable after apply, a reordered
set is no change, and a changed element is an in-place update."""
from support.harness import planned_change, required_providers, resources


def account(tags='{ env = "prod", team = "net" }', aliases='["b", "a"]',
            ports="[443, 80, 443]") -> str:
    return required_providers("normal") + f"""
resource "normal_account" "it" {{
  name    = "c"
  tags    = {tags}
  aliases = {aliases}
  ports   = {ports}
}}
"""


def test_collections_of_primitives_round_trip_and_plan_clean(normal):
    normal.write(account())
    normal.apply()
    values = resources(normal.state())["normal_account.it"]["values"]
    assert values["tags"] == {"env": "prod", "team": "net"}
    assert values["aliases"] == ["a", "b"]  # a set: ordered by value
    assert values["ports"] == [443, 80, 443]  # a list: order and duplicates kept
    assert normal.plan_exit_code() == 0

    normal.write(account(aliases='["a", "b"]'))
    assert normal.plan_exit_code() == 0


def test_changing_one_element_is_an_in_place_update(normal):
    normal.write(account())
    normal.apply()
    normal.write(account(tags='{ env = "dev", team = "net" }', ports="[443, 8080]"))
    code, plan = normal.plan()
    assert code == 2
    change = planned_change(plan, "normal_account.it")
    assert change["actions"] == ["update"]
    assert change["after"]["tags"] == {"env": "dev", "team": "net"}
    normal.apply()
    values = resources(normal.state())["normal_account.it"]["values"]
    assert values["ports"] == [443, 8080]
    assert normal.plan_exit_code() == 0
