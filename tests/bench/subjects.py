"""The three programs every scenario measures: luaform serving the Lua provider in ./provider,
the same provider written in Go with terraform-plugin-framework (./peer), and a bare gRPC echo
server (the floor: what a round trip costs when the provider does no work at all)."""

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
LUA_PROVIDER = HERE / "provider"


@dataclass
class Subject:
    name: str
    command: list
    env: dict
    debug_flag: str | None  # how to serve in reattach mode; None: cannot serve the real CLI

    def environment(self):
        env = dict(os.environ)
        env.update(self.env)
        return env


def luaform(host, provider_dir=LUA_PROVIDER, provider_name="bench", name="luaform"):
    return Subject(name, [str(host)],
                   {"LUAFORM_PROVIDER_DIR": str(provider_dir),
                    "LUAFORM_PROVIDER_NAME": provider_name},
                   "--debug")


def peer(binary, resource_types=None):
    env = {} if resource_types is None else {"BENCH_RESOURCE_TYPES": str(resource_types)}
    return Subject("peer", [str(binary)], env, "-debug")


def floor(echo):
    return Subject("floor", [str(echo)], {}, None)


def lua_provider_with_types(directory, count):
    """A copy of the Lua provider with `count` resource types: bench_item and its clones
    bench_item_2 .. bench_item_COUNT, as the Go peer has with BENCH_RESOURCE_TYPES."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    shutil.copy(LUA_PROVIDER / "provider.lua", directory / "provider.lua")
    shutil.copy(LUA_PROVIDER / "resource_item.lua", directory / "resource_item.lua")
    for index in range(2, count + 1):
        shutil.copy(LUA_PROVIDER / "resource_item.lua", directory / f"resource_item_{index}.lua")
    return directory
