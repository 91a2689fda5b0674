#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install every build and test dependency from Debian's packages.
# Idempotent and quick when everything is present. The guest kernel ABI is
# resolved from the linux-headers-amd64 metapackage, never hard-coded.
set -euo pipefail

PKGS=(build-essential pkg-config perl python3 bc cpio kmod
      qemu-system-x86 busybox-static
      libmnl-dev libcmocka-dev libelf-dev libdw-dev
      sparse clang-format binutils rsync
      linux-headers-amd64 linux-source-6.1 xz-utils)

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done

# linux-headers-amd64 may be installed while a newer ABI exists: install
# the headers the metapackage currently depends on.
abi_headers=$(apt-cache depends linux-headers-amd64 2>/dev/null |
	      awk '/Depends: linux-headers-/ { print $2; exit }')
if [ -n "$abi_headers" ] &&
   ! dpkg-query -W -f='${Status}' "$abi_headers" 2>/dev/null | grep -q 'ok installed'; then
	missing+=("$abi_headers")
fi

[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
