"""Scripts nest as deep as Lua allows whatever thread stack the C library gives by default: the
host sets its threads' stacks to what the development host has (glibc's 8 MiB), so a script that
works in development does not crash the provider where the default is smaller (musl, which the
static Linux release hosts use, gives 128 KiB unless the executable asks for more)."""

import stat

from support.harness import required_providers, resources, squash

# A default below musl's, where a host that kept the default crashed with these scripts (glibc
# takes `ulimit -s` as its default thread stack).
SMALL_THREAD_STACK_KIB = 64


def with_small_stacks(provider_dir):
    """Puts a wrapper in place of the provider's binary that runs the host with small default stacks."""
    binary = provider_dir / "terraform-provider-deepstack"
    host = binary.resolve()
    binary.unlink()
    binary.write_text("#!/bin/bash\n"
                      f"ulimit -s {SMALL_THREAD_STACK_KIB}\n"
                      f'exec -a "$0" {host} "$@"\n')
    binary.chmod(binary.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return provider_dir


def config(depth, json_depth):
    return required_providers("deepstack") + f"""
resource "deepstack_nest" "it" {{
  depth      = {depth}
  json_depth = {json_depth}
}}
"""


def test_calls_and_documents_nested_as_deep_as_allowed_work(make_tofu, test_provider):
    tofu = make_tofu({"deepstack": with_small_stacks(test_provider("deepstack"))})
    # 95 pcall levels are about 190 nested C calls, near Lua's bound of 200; 150 is the JSON
    # helpers' bound on nesting.
    tofu.write(config(95, 150))
    tofu.apply()
    assert resources(tofu.state())["deepstack_nest.it"]["values"]["reached"] == 95


def test_nesting_past_the_bound_is_an_error_and_the_provider_lives(make_tofu, test_provider):
    tofu = make_tofu({"deepstack": with_small_stacks(test_provider("deepstack"))})
    tofu.write(config(150, 10))
    failed = tofu.run("apply", "-auto-approve", "-input=false", ok=(1,))
    shown = squash(failed.stdout + failed.stderr)
    assert "stack overflow" in shown, shown
    assert "Plugin did not respond" not in shown and "plugin crashed" not in shown.lower(), shown
    # Nothing was created, and the same provider serves the next command.
    assert "deepstack_nest.it" not in resources(tofu.state())
    tofu.write(config(95, 10))
    tofu.apply()
    assert resources(tofu.state())["deepstack_nest.it"]["values"]["reached"] == 95
