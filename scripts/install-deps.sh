#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install every build and test dependency from Debian's packages.
# Idempotent and quick when everything is present. The guest kernel ABI is
# resolved from the linux-image-$KFLAVOUR metapackage, never hard-coded.
set -euo pipefail

PKGS=(build-essential g++ pkg-config perl python3 bc cpio kmod
      qemu-system-x86 busybox-static
      libmnl-dev libcmocka-dev libelf-dev libdw-dev libdebuginfod1 zlib1g-dev
      sparse clang-format binutils rsync clang libclang-rt-14-dev
      linux-headers-amd64 linux-source-6.1 xz-utils
      flex bison linux-perf
      libprotobuf-c-dev protobuf-c-compiler golang-go
      valgrind chromium gcc-aarch64-linux-gnu libc6-dev-arm64-cross tmux)

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done

# The headers of the kernel the guest boots (linux-image-$KFLAVOUR, see
# scripts/guest-kernel.sh): the metapackage may name a newer ABI than the
# installed linux-headers-amd64, and other flavours need theirs.
guest_kver=$("$(dirname "$0")/guest-kernel.sh" kver 2>/dev/null || true)
if [ -n "$guest_kver" ] && [ -z "${GUEST_KDIR:-}" ] &&
   ! dpkg-query -W -f='${Status}' "linux-headers-$guest_kver" 2>/dev/null |
	grep -q 'ok installed'; then
	missing+=("linux-headers-$guest_kver")
fi

[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
