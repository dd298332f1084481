#!/usr/bin/env bash
# The release tests. Builds the release set of providers/localfs and providers/restapi for
# linux_amd64, linux_arm64, windows_amd64, windows_arm64, darwin_arm64 and darwin_amd64 with
# host/packaging/release/build_release.sh, signed by a throwaway GPG key, and runs
# tests/release/test_*.py on it: Linux hosts that need nothing but the kernel, the sums and the
# signature, the CLI's init/apply/plan/destroy inside an empty root file system per Linux target
# (arm64 through qemu-user), HTTPS from there, `tofu init` from a network mirror served over
# HTTPS on loopback, the Windows hosts' machine and imports and the same cycle under wine with
# OpenTofu for Windows (x86-64; no ARM64 Windows runs here), and the macOS hosts' Mach-O form,
# libraries and signature (no macOS runs here).
#
#   bash tests/release/run.sh [--if-cached] [PYTEST ARGS...]
#
# LUAFORM_RELEASE_TARGETS="linux_amd64" tests fewer targets.
#
# The dependencies of each target are built from source once (host/packaging/release/
# build_deps.sh, 15 to 19 minutes per target on 2 cores) and cached. With --if-cached, as the
# test command runs it, nothing is built from source: when a target's dependencies are not in
# the cache the script says how to build them and exits 3.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
source host/packaging/release/common.sh

if_cached=0
if [[ "${1:-}" == --if-cached ]]; then
  if_cached=1
  shift
fi
read -r -a targets <<<"${LUAFORM_RELEASE_TARGETS:-${release_all_targets[*]}}"
if ((if_cached)); then
  for target in "${targets[@]}"; do
    if [[ ! -f "$(release_deps_dir "$target")/.complete" ]]; then
      echo "release tests: not run: the $target dependencies are not built for this" \
        "sources.lock; build them once with: bash tests/release/run.sh" \
        "(or host/packaging/release/build_deps.sh $target)" >&2
      exit 3
    fi
  done
fi

bash tests/setup/install-deps.sh qemu-user-static python3-pytest gnupg openssl binutils
tofu="$(bash tests/e2e/install-tofu.sh)"
export LUAFORM_TOFU="$tofu"
for target in "${targets[@]}"; do
  case "$target" in
    linux_arm64)
      bash tests/release/register-qemu.sh
      LUAFORM_TOFU_LINUX_ARM64="$(TOFU_TARGET=linux_arm64 bash tests/e2e/install-tofu.sh)"
      export LUAFORM_TOFU_LINUX_ARM64
      ;;
    darwin_* | windows_arm64)
      bash tests/setup/install-deps.sh llvm  # llvm-objdump reads the Mach-O and PE hosts
      ;;
    windows_amd64)
      bash tests/setup/install-deps.sh wine64 llvm
      LUAFORM_TOFU_WINDOWS_AMD64="$(TOFU_TARGET=windows_amd64 bash tests/e2e/install-tofu.sh)"
      export LUAFORM_TOFU_WINDOWS_AMD64
      WINEPREFIX="$(bash tests/release/wine/prepare-prefix.sh)"
      export WINEPREFIX
      ;;
  esac
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export GNUPGHOME="$work/gnupg"
mkdir -m 700 "$GNUPGHOME"
gpg --batch --quiet --passphrase '' --quick-gen-key \
  "luaform release test <release-test@luaform.invalid>" rsa3072 sign never
key="$(gpg --batch --list-secret-keys --with-colons | awk -F: '/^fpr:/ { print $10; exit }')"

version=0.9.0
bash host/packaging/release/build_release.sh --version "$version" --out "$work/dist" \
  --gpg-key "$key" --targets "${targets[*]}" providers/localfs providers/restapi

LUAFORM_RELEASE_DIST="$work/dist" LUAFORM_RELEASE_VERSION="$version" \
  LUAFORM_RELEASE_TARGETS="${targets[*]}" \
  /usr/bin/python3 -m pytest tests/release -v -rfE -p no:cacheprovider "$@"
