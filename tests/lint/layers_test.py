#!/usr/bin/env python3
"""The layer check must fail on each kind of break it exists for (run by tests/run.sh)."""

import pathlib
import subprocess
import sys
import tempfile

CHECK = pathlib.Path(__file__).with_name("layers.py")
TABLE = """<!-- layers:begin -->
| directory | what | may include | third-party |
|---|---|---|---|
| `host/engine/value` | values | | |
| `host/engine/rpc` | rpcs | `host/engine/value` | |
| `host/lua/core` | bridge | `host/engine` | `lua` |
<!-- layers:end -->

<!-- calls:begin -->
| name | used only in | why |
|---|---|---|
| `protected_run` | `host/lua/core/g.cpp` | the one protected call |
<!-- calls:end -->
"""


def run(files):
    with tempfile.TemporaryDirectory() as repo:
        root = pathlib.Path(repo)
        (root / "ARCHITECTURE.md").write_text(TABLE)
        for directory in ("host/engine/value", "host/engine/rpc", "host/lua/core"):
            (root / directory).mkdir(parents=True)
        (root / "host/lua/core/g.cpp").write_text("void protected_run() {}\n")
        for path, text in files.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text)
        result = subprocess.run([sys.executable, str(CHECK), repo], capture_output=True,
                                text=True, check=False)
        return result.returncode, result.stdout


CASES = {
    "clean": ({"host/engine/rpc/a.cpp": '#include "host/engine/value/v.h"\n#include <map>\n',
               "host/lua/core/b.cpp": '#include <lua.hpp>\n#include "host/engine/rpc/a.h"\n'},
              0, "0 problems"),
    "engine includes Lua": ({"host/engine/rpc/a.cpp": "#include <lua.hpp>\n"}, 1,
                            "a.cpp:1: includes lua.hpp (lua)"),
    "engine includes gRPC": ({"host/engine/value/a.h": "\n#include <grpcpp/server.h>\n"}, 1,
                             "a.h:2: includes grpcpp/server.h (grpc)"),
    "upward include": ({"host/engine/value/a.h": '#include "host/engine/rpc/b.h"\n'}, 1,
                       "host/engine/value may not include host/engine/rpc"),
    "lua includes protocol": ({"host/lua/core/a.h": '#include "host/protocol/x/y.h"\n'}, 1,
                              "host/lua/core may not include host/protocol/x"),
    "directory without a row": ({"host/engine/new/a.h": "\n"}, 1, "has no row"),
    "a second way into Lua": ({"host/lua/core/b.cpp": "\n  protected_run(L, body);\n"}, 1,
                              "b.cpp:2: uses protected_run, which only host/lua/core/g.cpp may"),
    "named in a comment": ({"host/lua/core/b.cpp": "// unlike protected_run, this...\n"}, 0,
                           "0 problems"),
}


def main():
    failures = 0
    for name, (files, want_rc, want_text) in CASES.items():
        rc, out = run(files)
        if rc != want_rc or want_text not in out:
            failures += 1
            print(f"FAIL {name}: exit {rc} (want {want_rc}), output:\n{out}")
    print(f"layers_test: {len(CASES) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
