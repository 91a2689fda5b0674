#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install every build and test dependency from Debian's packages.
# Idempotent and quick when everything is present. Kernel ABIs are
# resolved from the metapackages (scripts/guest-kernel.sh), never
# hard-coded.
set -euo pipefail

PKGS=(build-essential g++ pkg-config perl python3 bc cpio kmod
      qemu-system-x86 busybox-static
      libmnl-dev libcmocka-dev libelf-dev libdw-dev libdebuginfod1 zlib1g-dev
      debuginfod
      sparse clang-format binutils rsync clang libclang-rt-14-dev
      linux-headers-amd64 linux-source-6.1 xz-utils
      flex bison linux-perf
      libprotobuf-c-dev protobuf-c-compiler golang-go libmicrohttpd-dev
      valgrind chromium gcc-aarch64-linux-gnu libc6-dev-arm64-cross tmux
      gdb strace
      debhelper dh-dkms dpkg-dev lintian mmdebstrap e2fsprogs)

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done

# Kernel headers, by release: those of both series' amd64 kernels (make
# style builds against each) and those of the kernel the guest boots
# (KSERIES, KFLAVOUR; none for the debug kernel or a GUEST_KDIR of one's
# own). The metapackage may name a newer ABI than the one installed. A
# release apt cannot resolve yet (no 6.12 before apt-get update on a
# fresh machine) is resolved again after the update.
updated=
apt_update()
{
	[ -z "$updated" ] || return 0
	$SUDO apt-get update -qq
	updated=1
}

kver_of()
{
	KSERIES=$1 KFLAVOUR=$2 "$(dirname "$0")/guest-kernel.sh" kver 2>/dev/null
}

kernels=("6.1 amd64" "6.12 amd64")
[ "${KFLAVOUR:-amd64}" = debug ] || [ -n "${GUEST_KDIR:-}" ] ||
	kernels+=("${KSERIES:-6.1} ${KFLAVOUR:-amd64}")
for k in "${kernels[@]}"; do
	read -r series flavour <<<"$k"
	v=$(kver_of "$series" "$flavour") || { apt_update; v=$(kver_of "$series" "$flavour"); } ||
		{ echo "install-deps: no $series kernel for $flavour" >&2; exit 1; }
	dpkg-query -W -f='${Status}' "linux-headers-$v" 2>/dev/null |
		grep -q 'ok installed' || missing+=("linux-headers-$v")
done

[ ${#missing[@]} -eq 0 ] && exit 0

# Without duplicates (both series' amd64 may be the guest's too).
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt_update
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
