"""A provider started in debug mode (`luaform --debug`, or a Go provider's `-debug`): it serves
without the CLI and prints the TF_REATTACH_PROVIDERS value through which the CLI uses it. Shared
by the e2e scenario of --debug and the benchmark (tests/bench), which starts providers this way
to read their CPU time and memory across CLI commands."""
import json
import queue
import re
import subprocess
import threading

# Both luaform and terraform-plugin-go print the value in this shell form.
REATTACH_LINE = re.compile(r"TF_REATTACH_PROVIDERS='(\{.*\})'")


def start_debug(command: list[str], env: dict[str, str], timeout: float = 30):
    """Starts `command` and returns the process and its TF_REATTACH_PROVIDERS value (checked to
    be JSON). stdout and stderr are read to their end on threads, so the provider never blocks
    on a full pipe; the last lines of stderr go into the error when no value comes."""
    process = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue = queue.Queue()
    stderr_tail: list[str] = []

    def read_stdout():
        for line in process.stdout:
            lines.put(line)
        lines.put(None)  # the process closed stdout: it ended without announcing itself

    def drain_stderr():
        for line in process.stderr:
            stderr_tail.append(line)
            del stderr_tail[:-20]

    threading.Thread(target=read_stdout, daemon=True).start()
    threading.Thread(target=drain_stderr, daemon=True).start()
    try:
        while (line := lines.get(timeout=timeout)) is not None:
            found = REATTACH_LINE.search(line)
            if found:
                json.loads(found.group(1))  # not JSON: fail here rather than in the CLI
                return process, found.group(1)
    except queue.Empty:
        pass
    process.kill()
    process.wait()
    raise AssertionError(f"{command[0]} printed no TF_REATTACH_PROVIDERS line within "
                         f"{timeout} s; its stderr ended with:\n" + "".join(stderr_tail))
