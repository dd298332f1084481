"""What a running process has used, read from /proc: CPU seconds and peak resident memory."""

import os

_TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """User plus system CPU time of `pid` so far."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        # The command name may hold spaces and parentheses; the fields after it do not.
        fields = stat.read().rsplit(")", 1)[1].split()
    utime, stime = int(fields[11]), int(fields[12])  # fields 14 and 15 of proc(5)
    return (utime + stime) / _TICKS_PER_SECOND


def peak_rss_kib(pid):
    """The largest resident set `pid` has had (VmHWM), in KiB."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise RuntimeError(f"no VmHWM in /proc/{pid}/status")


def reset_peak_rss(pid):
    """Starts VmHWM again from the current RSS, so that each phase reports its own peak."""
    with open(f"/proc/{pid}/clear_refs", "w", encoding="ascii") as clear_refs:
        clear_refs.write("5")
