#!/usr/bin/env bash
# Checks the SDK's type definitions (lua-sdk/types, LuaCATS annotations) with EmmyLua's checker,
# emmylua_check: the project's providers and a fresh scaffold must have no errors, and a script
# with an unknown schema option and a misspelt d method must be reported. Also that the
# definitions cover each public SDK module and no internal part.
#
#   bash tests/lint/lua_types.sh [HOST]     HOST: the luaform binary (default build/host/luaform)
#
# emmylua_check is installed once into $LUAFORM_CACHE (default ~/.cache/luaform) with cargo.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
host=${1:-$repo/build/host/luaform}
[[ $host == /* ]] || host=$PWD/$host
cache=${LUAFORM_CACHE:-$HOME/.cache/luaform}
version=0.25.1
checker=$cache/emmylua-$version/bin/emmylua_check
types=$repo/lua-sdk/types

if [[ ! -x $checker ]]; then
  cargo=$(command -v cargo || true)
  if [[ -z $cargo && -x $HOME/.cargo/bin/cargo ]]; then
    cargo=$HOME/.cargo/bin/cargo
  fi
  if [[ -z $cargo ]]; then
    echo "error: emmylua_check $version is not in $cache/emmylua-$version, and cargo, which" \
      "builds it, is missing. Install a Rust toolchain of 1.85 or later with rustup" \
      "(https://rustup.rs; Debian 12's cargo package is too old), then run this again." >&2
    exit 1
  fi
  echo "installing emmylua_check $version into $cache/emmylua-$version (once, a few minutes)"
  "$cargo" install --locked --version "$version" --root "$cache/emmylua-$version" emmylua_check
fi
if [[ ! -x $host ]]; then
  echo "error: no luaform host at $host: build it (cmake --build build) or give its path" >&2
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A provider of the project has no .luarc.json: this one names the definitions.
cat >"$work/luarc.json" <<EOF
{
  "runtime": { "version": "Lua 5.4" },
  "workspace": { "library": [ "$types" ] }
}
EOF

# What counts as an error, read from the checker's JSON: what it calls an error itself (syntax,
# undefined globals), and calls, fields and requires that the definitions rule out. A value
# that may be nil given where one is required stays a warning: the checker cannot follow every
# `if x == nil then error(...) end`. Warnings are counted by kind, not listed.
cat >"$work/classify.py" <<'EOF'
import json
import re
import sys

ERRORS = {"undefined-field", "inject-field", "param-type-mismatch", "assign-type-mismatch",
          "missing-parameter", "redundant-parameter", "missing-fields", "call-non-callable",
          "return-type-mismatch", "undefined-global", "unresolved-require", "type-not-found"}
MAYBE_NIL = re.compile(r"but found `[^`]*\?`|^Cannot assign `[^`]*\?`")

root = sys.argv[2]
errors, warnings = [], {}
for entry in json.load(open(sys.argv[1])):
    name = entry["file"][len(root) + 1:] if entry["file"].startswith(root + "/") else entry["file"]
    for d in entry["diagnostics"]:
        code, message = d.get("code", "?"), d["message"].strip()
        if d.get("severity") == 1 or (code in ERRORS and not MAYBE_NIL.search(message)):
            at = d["range"]["start"]
            errors.append(f"{name}:{at['line'] + 1}:{at['character'] + 1}: {message} [{code}]")
        elif d.get("severity") == 2:
            warnings[code] = warnings.get(code, 0) + 1
for line in sorted(errors):
    print("error: " + line)
print("warnings: " + (", ".join(f"{n} {c}" for c, n in sorted(warnings.items())) or "none"))
sys.exit(1 if errors else 0)
EOF

passed=0
failed=0
pass() {
  passed=$((passed + 1))
  echo "  ok    $1"
}
fail() {
  failed=$((failed + 1))
  echo "  FAIL  $1"
}

# diagnose DIR CONFIG: the checker's findings in DIR as classify.py prints them; fails when there
# is an error, or when the checker itself failed.
diagnose() {
  local dir=$1 config=$2
  rm -f "$work/out.json"
  if ! "$checker" --output-format json --output "$work/out.json" --config "$config" "$dir" \
    >"$work/checker.log" 2>&1 && [[ ! -s $work/out.json ]]; then
    echo "error: emmylua_check failed: $(cat "$work/checker.log")"
    return 1
  fi
  python3 "$work/classify.py" "$work/out.json" "$(cd "$dir" && pwd -P)"
}

# check NAME DIR CONFIG: one line, with the errors below it when there are any.
check() {
  local name=$1 dir=$2 config=$3 output
  if output=$(diagnose "$dir" "$config"); then
    pass "$name: no errors; warnings: ${output#warnings: }"
  else
    fail "$name: the checker reports errors"
    grep -v '^warnings: ' <<<"$output" | sed 's/^/        /'
  fi
}

echo "type definitions: $types (emmylua_check $version)"

# An exact class with fields lists them twice: as ---@field lines, for editors, and in its
# parent { a?: any, ..., [string]: nil }, which makes any other key an error. The two must agree.
if problems=$(python3 - "$types" <<'EOF'
import glob
import re
import sys

problems = []
for path in sorted(glob.glob(sys.argv[1] + "/*.lua")):
    lines = open(path).read().splitlines()
    for i, line in enumerate(lines):
        if not line.startswith("---@class (exact) "):
            continue
        m = re.match(r"---@class \(exact\) (\S+)(?: : \{ (\w+\?: any(?:, \w+\?: any)*), "
                     r"\[string\]: nil \})?$", line)
        if not m:
            problems.append(f"{path}:{i + 1}: not of the form this check reads: {line}")
            continue
        fields = []
        for following in lines[i + 1:]:
            f = re.match(r"---@field (\w+)", following)
            if not f:
                break
            fields.append(f.group(1))
        keys = re.findall(r"(\w+)\?: any", m.group(2) or "")
        if keys != fields:
            problems.append(f"{path}:{i + 1}: {m.group(1)}: closed keys {keys}, fields {fields}")
print("\n".join(problems))
sys.exit(1 if problems else 0)
EOF
); then
  pass "definitions: every exact class closes its keys to its fields"
else
  fail "definitions: an exact class's closed keys differ from its fields"
  sed 's/^/        /' <<<"$problems"
fi

# The SDK's files are public modules, which have definitions here, or internal parts that
# luaform.lua and luaform_testing.lua assemble, which say so in their header and have none.
misfiled=""
for module in "$repo"/lua-sdk/*.lua; do
  name=$(basename "$module")
  internal=$(head -n 6 "$module" | grep -c "Internal to the" || true)
  if [[ -f $types/$name && $internal -ne 0 ]]; then
    misfiled+="lua-sdk/$name says it is internal, but has definitions in lua-sdk/types"$'\n'
  elif [[ ! -f $types/$name && $internal -eq 0 ]]; then
    misfiled+="lua-sdk/$name has no definitions in lua-sdk/types, nor says it is internal"$'\n'
  fi
done
if [[ -z $misfiled ]]; then
  pass "definitions: every public SDK module has them, and no internal part"
else
  fail "definitions: public and internal SDK modules are mixed up"
  sed 's/^/        /' <<<"${misfiled%$'\n'}"
fi

for provider in "$repo"/providers/*/; do
  provider=${provider%/}
  check "providers/$(basename "$provider")" "$provider" "$work/luarc.json"
done

# A fresh scaffold, checked with the .luarc.json it writes: it names, relative to the scaffold,
# the copy of the definitions the host wrote there, which must be these.
(cd "$work" && "$host" --scaffold fresh >/dev/null)
named=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["workspace"]["library"][0])' \
  "$work/fresh/.luarc.json" 2>/dev/null || true)
if [[ -n $named && $named != /* && -d $work/fresh/$named ]] &&
  diff -r "$work/fresh/$named" "$types" >/dev/null; then
  pass "scaffold: .luarc.json names its copy of the definitions ($named)"
else
  fail "scaffold: .luarc.json names \"$named\", not a copy of $types in the scaffold"
fi
check "scaffold" "$work/fresh" "$work/fresh/.luarc.json"

# Mistakes the definitions exist to catch: each must be an error.
mkdir "$work/wrong"
cat >"$work/wrong/resource_thing.lua" <<'EOF'
local tf = require("luaform")

return tf.resource {
  schema = {
    name = tf.string { requird = true },
  },
  create = function(d)
    d:set_idd("x")
  end,
  read = function() end,
  delete = function() end,
}
EOF
output=$(diagnose "$work/wrong" "$work/luarc.json") || true
for mistake in requird set_idd; do
  reported=$(grep "^error: .*\b$mistake\b" <<<"$output" || true)
  if [[ -n $reported ]]; then
    pass "a wrong script: $mistake is an error"
    sed 's/^/        /' <<<"$reported"
  else
    fail "a wrong script: $mistake is not reported as an error"
    sed 's/^/        /' <<<"$output"
  fi
done

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
