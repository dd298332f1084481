#!/usr/bin/env bash
# A bounded fuzz run: configures and builds build-fuzz (clang, -DLUAFORM_FUZZ=ON), runs every
# target for LUAFORM_FUZZ_SECONDS (default 15) on its kept corpus, then replays
# regressions/<target>/*, inputs that once crashed and must pass now. Prints one line per target:
#   fuzz <target>: ok|FAILED, <N> executions in <S>s, <R> regressions replayed
# and exits non-zero when any target crashed, broke a property or failed a regression. With
# LUAFORM_JUNIT set, the same results go to that file as JUnit XML (a testcase per target), the
# format tests/run.sh reads from every runner.
#
# The corpus is kept between runs, outside the repository (LUAFORM_FUZZ_CORPUS, default
# ~/.cache/luaform/fuzz-corpus/<target>): each run starts from what the runs before it found,
# with the seeds of corpus/<target>/ added, so short runs add up instead of starting over. A
# kept corpus past 20,000 inputs starts again from the seeds.
#
# Environment: LUAFORM_FUZZ_SECONDS, LUAFORM_FUZZ_BUILD (default <repo>/build-fuzz),
# LUAFORM_FUZZ_CORPUS, CC/CXX (default clang-14/clang++-14). A crash leaves its input in the
# build dir's fuzz-artifacts/<target>/; make it a regression by adding it to regressions/<target>/.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
build="${LUAFORM_FUZZ_BUILD:-$repo/build-fuzz}"
seconds="${LUAFORM_FUZZ_SECONDS:-15}"
kept="${LUAFORM_FUZZ_CORPUS:-${XDG_CACHE_HOME:-$HOME/.cache}/luaform/fuzz-corpus}"
targets=(fuzz_msgpack fuzz_json fuzz_schema fuzz_value_lua fuzz_json_helpers fuzz_patterns fuzz_encoding
  fuzz_yaml)

# Compilations go through ccache when it is there (see tests/run.sh).
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$repo" --preset fuzz -B "$build" -DCMAKE_C_COMPILER="${CC:-clang-14}" \
  -DCMAKE_CXX_COMPILER="${CXX:-clang++-14}" "${launcher[@]}" >/dev/null
cmake --build "$build" -j2

# Leaks fail a run too; a UBSan report stops it with a stack (the build makes UB fatal).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

# One target: its timed run, then its regressions; writes its line to $scratch/TARGET.result.
fuzz_target() {
  local target="$1"
  local binary="$build/tests/fuzz/$target"
  local corpus="$kept/$target"
  local artifacts="$build/fuzz-artifacts/$target"
  local log="$build/fuzz-logs/$target.log"
  if [[ -d "$corpus" ]] && (($(find "$corpus" -type f | wc -l) > 20000)); then rm -rf "$corpus"; fi
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  cp "$here/corpus/$target/"* "$corpus/"
  local status=ok
  # -rss_limit_mb and -timeout turn runaway memory or time into reported failures.
  if ! "$binary" "$corpus" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=20 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" >"$log" 2>&1; then
    status=FAILED
    grep -E "ERROR:|SUMMARY:|violated|runtime error" "$log" | head -5 >&2 || true
    echo "  log: $log; crashing input in $artifacts/" >&2
  fi
  local executions
  executions="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
  local replayed=0 regressions
  shopt -s nullglob
  regressions=("$here/regressions/$target/"*)
  shopt -u nullglob
  if ((${#regressions[@]} > 0)); then
    replayed=${#regressions[@]}
    if ! "$binary" -rss_limit_mb=2048 -timeout=20 "${regressions[@]}" >"$log.replay" 2>&1; then
      status=FAILED
      grep -E "ERROR:|SUMMARY:|violated|Running:" "$log.replay" | tail -5 >&2 || true
    fi
  fi
  echo "fuzz $target: $status, ${executions:-?} executions in ${seconds}s, $replayed regressions replayed" \
    >"$scratch/$target.result"
}

# Each fuzzer is single-threaded: two run at a time, one per core, each for its full time.
for ((i = 0; i < ${#targets[@]}; i += 2)); do
  fuzz_target "${targets[$i]}" &
  if ((i + 1 < ${#targets[@]})); then fuzz_target "${targets[$((i + 1))]}" & fi
  wait
done
failed=0
cases=()
for target in "${targets[@]}"; do
  [[ -f "$scratch/$target.result" ]] ||
    echo "fuzz $target: FAILED, it did not run to the end" >"$scratch/$target.result"
  line="$(cat "$scratch/$target.result")"
  echo "$line"
  # The line as XML text: the target names and counts need only these three escaped.
  text="$(sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/"/\&quot;/g' <<<"$line")"
  if [[ "$line" == *": ok,"* ]]; then
    cases+=("    <testcase classname=\"fuzz\" name=\"$target\"/>")
  else
    failed=$((failed + 1))
    cases+=("    <testcase classname=\"fuzz\" name=\"$target\"><failure message=\"$text\"/></testcase>")
  fi
done
if [[ -n "${LUAFORM_JUNIT:-}" ]]; then
  {
    echo '<?xml version="1.0" encoding="UTF-8"?>'
    echo "<testsuites>"
    echo "  <testsuite name=\"fuzz\" tests=\"${#targets[@]}\" failures=\"$failed\" errors=\"0\" skipped=\"0\">"
    printf '%s\n' "${cases[@]}"
    echo "  </testsuite>"
    echo "</testsuites>"
  } >"$LUAFORM_JUNIT"
fi
((failed == 0))
