#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest kernel from Debian's linux-source-6.1, outside the repository.
#
#   scripts/kernel.sh build FLAVOUR   unpack (once), configure, build bzImage + modules
#   scripts/kernel.sh dir FLAVOUR     print the build directory for FLAVOUR
#   scripts/kernel.sh src             print the unpacked source tree
#
# FLAVOUR is release or debug.  The build directory is keyed by a hash of the
# config fragments (and of this script), so changing a fragment builds afresh
# and nothing stale is reused.  A finished build is marked with .built and not
# re-entered; `make kernel KERNEL_FORCE=1` re-runs kbuild on it.
#
# Environment: DLRB_CACHE (default ~/.cache/deadline-rb), KSRC_TARBALL,
# KERNEL_FORCE, JOBS.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${DLRB_CACHE:-$HOME/.cache/deadline-rb}
tarball=${KSRC_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
ksrc=$cache/linux-source-6.1

die() { echo "kernel.sh: $*" >&2; exit 1; }

fragments() {
	case $1 in
	release) echo "$top/kernel/release.config" ;;
	debug) echo "$top/kernel/release.config $top/kernel/debug.config" ;;
	*) die "unknown flavour '$1' (release or debug)" ;;
	esac
}

build_dir() {
	local key
	# shellcheck disable=SC2046
	key=$(cat $(fragments "$1") "$0" | sha256sum | cut -c1-12)
	echo "$cache/build/$1-$key"
}

unpack() {
	[ -f "$ksrc/Makefile" ] && return 0
	[ -f "$tarball" ] || die "$tarball missing: run 'make deps' (package linux-source-6.1)"
	echo "  UNPACK  $tarball -> $ksrc"
	mkdir -p "$cache"
	local tmp
	tmp=$(mktemp -d "$cache/unpack.XXXXXX")
	tar -xJf "$tarball" -C "$tmp"
	mv "$tmp/linux-source-6.1" "$ksrc"
	rmdir "$tmp"
}

# Every CONFIG_ line of the fragments must appear as written in .config.
verify_config() {
	local out=$1; shift
	local missing
	missing=$(awk '
		FNR == NR { have[$0] = 1; next }
		/^CONFIG_[A-Za-z0-9_]+=/ || /^# CONFIG_[A-Za-z0-9_]+ is not set/ {
			if (!($0 in have)) {
				# "is not set" is also satisfied by the symbol being absent
				if ($0 ~ /^# /) {
					sym = $2
					found = 0
					for (h in have)
						if (index(h, sym "=") == 1) { found = 1; break }
					if (!found) next
				}
				print "  " FILENAME ": " $0
			}
		}' "$out/.config" "$@")
	if [ -n "$missing" ]; then
		echo "kernel.sh: options requested but not in $out/.config:" >&2
		echo "$missing" >&2
		echo "kernel.sh: (a dependency is missing; see 'make O=$out menuconfig' in $ksrc)" >&2
		return 1
	fi
}

build() {
	local flavour=$1 out frags
	frags=$(fragments "$flavour")
	out=$(build_dir "$flavour")
	unpack
	if [ -f "$out/.built" ] && [ -z "${KERNEL_FORCE:-}" ]; then
		echo "  KERNEL  $flavour up to date: $out"
		return 0
	fi
	mkdir -p "$out"
	local jobs=${JOBS:-$(nproc)}
	if [ ! -f "$out/.configured" ]; then
		echo "  CONFIG  $flavour: tinyconfig + $(echo "$frags" | xargs -n1 basename | xargs)"
		make -s -C "$ksrc" O="$out" tinyconfig >/dev/null
		# shellcheck disable=SC2086
		(cd "$out" && "$ksrc/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" $frags >/dev/null)
		make -s -C "$ksrc" O="$out" olddefconfig >/dev/null
		# shellcheck disable=SC2086
		verify_config "$out" $frags
		touch "$out/.configured"
	fi
	echo "  BUILD   $flavour kernel in $out (-j$jobs)"
	local start=$SECONDS
	make -s -C "$ksrc" O="$out" -j"$jobs" bzImage modules
	rm -rf "$out/modroot"
	make -s -C "$ksrc" O="$out" INSTALL_MOD_PATH="$out/modroot" modules_install >/dev/null
	touch "$out/.built"
	echo "  KERNEL  $flavour built in $((SECONDS - start)) s: $out/arch/x86/boot/bzImage"
}

case ${1:-} in
build) build "${2:?flavour}" ;;
dir) build_dir "${2:?flavour}" ;;
src) echo "$ksrc" ;;
*) die "usage: kernel.sh build|dir FLAVOUR | src" ;;
esac
