"""The benchmark's table: one row per figure, with luaform, the Go peer and the floor side by
side, their ratios, and the target the row is held to."""

from dataclasses import dataclass, field


@dataclass
class Row:
    scenario: str
    metric: str
    unit: str
    values: dict  # subject name -> number, or None when the subject cannot run it
    target: str = ""
    met: bool | None = None  # None: no target on this row
    notes: list = field(default_factory=list)
    # Further (target, met) pairs: a figure can be held to targets of two issues at once (CPU
    # per call against the peer, issue 7, and against the floor, issue 25), and each is shown
    # and counted on its own so that a miss names the one missed.
    more_targets: list = field(default_factory=list)

    def targets(self):
        """Every (target, met) pair the row is held to, the main one first."""
        main = [(self.target, self.met)] if self.met is not None else []
        return main + list(self.more_targets)


def ratio(numerator, denominator):
    if numerator is None or denominator in (None, 0):
        return None
    return numerator / denominator


def _number(value, unit):
    if value is None:
        return "—"
    if isinstance(value, str):
        return value
    if abs(value) >= 100 or unit in ("conn", "req"):
        return f"{value:,.0f} {unit}"
    if abs(value) >= 10:
        return f"{value:.1f} {unit}"
    return f"{value:.3g} {unit}"


def _ratio(value):
    return "—" if value is None else f"{value:.2f}x"


def table(rows):
    header = ["scenario", "figure", "luaform", "Go peer", "floor", "lua/peer", "lua/floor",
              "target"]
    lines = [header]
    for row in rows:
        lua, peer, floor = (row.values.get(k) for k in ("luaform", "peer", "floor"))
        numeric = all(isinstance(v, (int, float)) or v is None for v in (lua, peer, floor))
        verdicts = "; ".join(f"{target} {'ok' if met else 'MISSED'}"
                             for target, met in row.targets())
        lines.append([row.scenario, row.metric, _number(lua, row.unit), _number(peer, row.unit),
                      _number(floor, row.unit),
                      _ratio(ratio(lua, peer)) if numeric else "—",
                      _ratio(ratio(lua, floor)) if numeric else "—",
                      verdicts or row.target])
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    out = []
    for index, line in enumerate(lines):
        out.append("| " + " | ".join(cell.ljust(widths[i]) for i, cell in enumerate(line)) + " |")
        if index == 0:
            out.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(out)
