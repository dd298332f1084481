"""Numbers keep every digit through plan, apply and refresh: integers beyond 64 bits and
decimal fractions that no binary float holds exactly."""
import pytest

from support.harness import required_providers

NUMBERS = [
    "123456789012345678901234567890",
    "-98765432109876543210.000000000000000001",
    "0.1",
    "9007199254740993",  # 2^53 + 1: the first integer a double cannot hold
]


@pytest.mark.parametrize("number", NUMBERS)
def test_a_number_round_trips_exactly(normal, number):
    normal.write(required_providers("normal") + f"""
resource "normal_account" "it" {{
  name  = "n"
  quota = {number}
}}

output "quota_text" {{
  value = tostring(normal_account.it.quota)
}}
""")
    normal.apply()
    assert normal.outputs() == {"quota_text": number}
    # The state file spells the number out in full (a float would have rounded it).
    assert f'"quota": {number}' in (normal.workdir / "terraform.tfstate").read_text()
    assert normal.plan_exit_code() == 0
