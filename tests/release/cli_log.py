"""What the CLI's trace log (TF_LOG=trace) says of the provider processes it started."""
from __future__ import annotations


def provider_lines(log: str) -> str:
    """The log's lines about the provider's processes: their start, what they wrote to stderr,
    and how they exited (a process that ends mid-call leaves only its exit status behind)."""
    markers = ("starting plugin", "plugin started", "plugin process exited",
               "provider.terraform-provider-", "provider.stdio")
    kept = [line for line in log.splitlines() if any(marker in line for marker in markers)]
    return "\n".join(kept[-60:])


def assert_providers_ended_by_themselves(log: str) -> None:
    """Every provider process the CLI started ended by itself once asked to, none by a crash or
    a kill: the CLI records the exit status of a process that ends otherwise as error=...."""
    exits = [line for line in log.splitlines() if "plugin process exited" in line]
    assert exits, "the log records no provider process"
    ended_badly = [line for line in exits if "error=" in line]
    assert not ended_badly, provider_lines(log)
