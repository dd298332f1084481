#!/usr/bin/env bash
# Lets this machine run arm64 Linux binaries as if they were its own: registers Debian's
# qemu-aarch64-static with the kernel's binfmt_misc, with the F flag (the kernel keeps the
# interpreter open, so it also works inside a chroot that does not have it). The CLI then
# starts an arm64 provider like any other. Needs root; does nothing when already registered.
set -euo pipefail
entry=/proc/sys/fs/binfmt_misc/qemu-aarch64
[[ -f "$entry" ]] && grep -q '^enabled' "$entry" && exit 0
conf=/usr/lib/binfmt.d/qemu-aarch64.conf
[[ -f "$conf" ]] || { echo "register-qemu: $conf is missing (apt-get install qemu-user-static)" >&2; exit 1; }
if [[ ! -f /proc/sys/fs/binfmt_misc/register ]]; then
  mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc ||
    { echo "register-qemu: cannot mount binfmt_misc (needs root on a kernel with it)" >&2; exit 1; }
fi
grep -v '^#' "$conf" | grep . >/proc/sys/fs/binfmt_misc/register ||
  { echo "register-qemu: the kernel refused $conf" >&2; exit 1; }
echo "register-qemu: arm64 binaries run through $(sed -n 's/^interpreter //p' "$entry")" >&2
