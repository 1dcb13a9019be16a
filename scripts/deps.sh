#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian 12 packages the project needs, if any are missing.
# As root it runs apt-get; otherwise it prints the one command to run.
set -euo pipefail

packages=(
	# the guest kernel: source and what kbuild needs to build it
	linux-source-6.1 linux-source-6.12 gcc make bc bison flex libelf-dev libssl-dev xz-utils
	perl python3 kmod cpio
	# Debian's stock kernels: deadline-rb built by DKMS against their
	# unpacked headers (6.12's need pahole, as linux-kbuild-6.12 does),
	# and the Debian packages (make deb) with their checker
	dkms pahole dpkg-dev debhelper dh-dkms fakeroot lintian
	# the guest: emulator, userspace, workload generator
	qemu-system-x86 busybox-static
	# fio for the guest, built static from Debian's source (scripts/fio.sh)
	libaio-dev zlib1g-dev
	# dlctl: libsmartcols (lsblk's tables), its tests (sanitizers, valgrind,
	# a JSON parser, util-linux's flock, bash completion's helpers)
	libc6-dev libsmartcols-dev valgrind python3 util-linux bash-completion
	# man pages
	mandoc
	# make bench: its plots
	gnuplot-nox
)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done

# The kernel sources must also be the archive's current version: the DKMS
# build for Debian's stock kernels takes block/'s headers from the
# linux-source package of exactly that kernel's version, which is the
# archive's newest.
for p in linux-source-6.1 linux-source-6.12; do
	have=$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null || true)
	want=$(apt-cache policy "$p" 2>/dev/null | sed -n 's/^ *Candidate: //p')
	if [ -n "$have" ] && [ -n "$want" ] && [ "$want" != "(none)" ] && [ "$have" != "$want" ]; then
		missing+=("$p")
	fi
done

# Linux 7.2's source: Debian testing's linux-source-7.2, downloaded into
# the cache (never installed) when KERNEL=7.2 asks for it; its newest
# version at most once a day.
testing_source() {
	local pkg=linux-source-$1 cache=${DLRB_CACHE:-$HOME/.cache/deadline-rb}
	local top have
	top=$(cd "$(dirname "$0")/.." && pwd)
	have=$(find "$cache/downloads" -maxdepth 1 -name "${pkg}_*_all.deb" 2>/dev/null | head -n 1)
	if ! "$top/scripts/testing-apt.sh" version "$pkg" >/dev/null 2>&1; then
		if [ -n "$have" ]; then
			echo "deps: Debian testing's $pkg cannot be looked up now; using ${have##*/}" >&2
			return 0
		fi
		echo "deps: Debian testing has no $pkg; it has:" \
			"$("$top/scripts/testing-apt.sh" names '^linux-source-[0-9.]*$' | xargs)" >&2
		return 1
	fi
	"$top/scripts/testing-apt.sh" download "$pkg" "$cache/downloads" >/dev/null
}
[ ${#missing[@]} -eq 0 ] && { [ "${KERNEL:-}" != 7.2 ] || testing_source 7.2; exit; }

cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages: ${missing[*]}" >&2
	echo "deps: run: sudo apt-get update && sudo $cmd" >&2
	exit 1
fi
echo "  DEPS    installing or upgrading ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
[ "${KERNEL:-}" != 7.2 ] || testing_source 7.2
