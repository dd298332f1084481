"""Every hook of one attribute gets the same request `p`: its address, and the object and the
resource it is judged in, so a check can look beyond its own value. A validator looks at its
element's neighbour and the resource's tier, requires_replace_if at another attribute, and
diff_suppress at a switch on the resource (tests/e2e/providers/neighbours). Each hook also checks
that `p.path` is the address it was given: `disk.0.size`, never `disk[0].size`.
"""
import pytest

from support.harness import CRASH_MARKERS, planned_actions, required_providers, resources, squash


def config(*, tier: str = "small", size: int = 10, ssd_gb: int = 4, label: str = "Data",
           shrink_in_place: bool = False, case_blind: bool = False) -> str:
    return required_providers("neighbours") + f"""
resource "neighbours_disk" "it" {{
  tier            = "{tier}"
  size            = {size}
  shrink_in_place = {str(shrink_in_place).lower()}
  case_blind      = {str(case_blind).lower()}

  part {{
    kind  = "hdd"
    gb    = 20
    label = "{label}"
  }}

  part {{
    kind = "ssd"
    gb   = {ssd_gb}
  }}
}}
"""


@pytest.fixture
def neighbours(make_tofu, test_provider):
    return make_tofu({"neighbours": test_provider("neighbours")})


def test_a_validator_looks_at_its_element_and_resource_and_names_the_address(neighbours):
    # 20 GB is fine on the hdd part; the ssd part is judged by its own kind and the tier.
    neighbours.write(config(ssd_gb=16))

    result = neighbours.run("plan", "-input=false", ok=(1,))

    text = squash(result.stdout + result.stderr)
    for marker in CRASH_MARKERS:
        assert marker not in text, text
    assert text.count("Error: ") == 1, text
    assert "part.1.gb asks for 16 GB of ssd; the small tier gives at most 8" in text, text
    lines = (neighbours.workdir / "main.tf").read_text().splitlines()
    gb_line = max(n for n, line in enumerate(lines, 1) if line.strip().startswith("gb "))
    assert f"on main.tf line {gb_line}," in text, text

    # The same part is fine in the large tier.
    neighbours.write(config(tier="large", ssd_gb=16))
    neighbours.apply()
    assert resources(neighbours.state())["neighbours_disk.it"]["values"]["part"][1]["gb"] == 16


def test_requires_replace_if_and_diff_suppress_look_at_the_resource(neighbours):
    neighbours.write(config())
    neighbours.apply()
    first_id = resources(neighbours.state())["neighbours_disk.it"]["values"]["id"]

    # Shrinking replaces, unless the disk says it may shrink in place.
    neighbours.write(config(size=5))
    assert planned_actions(neighbours.plan()[1]) == \
        {"neighbours_disk.it": ["delete", "create"]}
    neighbours.write(config(size=5, shrink_in_place=True))
    assert planned_actions(neighbours.plan()[1]) == {"neighbours_disk.it": ["update"]}
    neighbours.apply()
    assert resources(neighbours.state())["neighbours_disk.it"]["values"]["id"] == first_id

    # Another spelling of the label is the same value only when the disk is case-blind.
    neighbours.write(config(size=5, shrink_in_place=True, case_blind=True))
    neighbours.apply()
    neighbours.write(config(size=5, shrink_in_place=True, case_blind=True, label="DATA"))
    code, plan = neighbours.plan()
    assert (code, planned_actions(plan)) == (0, {}), plan
    neighbours.write(config(size=5, shrink_in_place=True))
    neighbours.apply()
    neighbours.write(config(size=5, shrink_in_place=True, label="DATA"))
    code, plan = neighbours.plan()
    assert (code, planned_actions(plan)) == (2, {"neighbours_disk.it": ["update"]}), plan
