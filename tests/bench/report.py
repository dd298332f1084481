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


# The columns of the main table: each subject's key in Row.values and its heading. A table of
# other subjects (scenario 7: a mapped provider beside scripts) names its own.
SUBJECTS = (("luaform", "luaform"), ("peer", "Go peer"), ("floor", "floor"))
SHORT = {"luaform": "lua"}


def table(rows, subjects=SUBJECTS, short=None):
    """The rows as a Markdown table: a column per subject, then the first subject's ratio to
    each other one, headed by the subjects' short names (SHORT, or `short` over it)."""
    names = {**SHORT, **(short or {})}
    keys = [key for key, _ in subjects]
    first = names.get(keys[0], keys[0])
    header = (["scenario", "figure"] + [label for _, label in subjects]
              + [f"{first}/{names.get(k, k)}" for k in keys[1:]] + ["target"])
    lines = [header]
    for row in rows:
        figures = [row.values.get(k) for k in keys]
        numeric = all(isinstance(v, (int, float)) or v is None for v in figures)
        verdicts = "; ".join(f"{target} {'ok' if met else 'MISSED'}"
                             for target, met in row.targets())
        lines.append([row.scenario, row.metric] + [_number(v, row.unit) for v in figures]
                     + [_ratio(ratio(figures[0], v)) if numeric else "—" for v in figures[1:]]
                     + [verdicts or row.target])
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    out = []
    for index, line in enumerate(lines):
        out.append("| " + " | ".join(cell.ljust(widths[i]) for i, cell in enumerate(line)) + " |")
        if index == 0:
            out.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(out)
