#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest kernel from Debian's linux-source-X.Y, outside the repository.
#
#   scripts/kernel.sh build FLAVOUR   unpack (once), configure, build bzImage + modules
#   scripts/kernel.sh dir FLAVOUR     print the build directory for FLAVOUR
#   scripts/kernel.sh src             print the unpacked source tree
#   scripts/kernel.sh unpack          unpack the source (once) and print where
#   scripts/kernel.sh check           exit 2 with one line if $KERNEL is unknown
#
# KERNEL (6.1, the default, 6.12 or 7.2) picks the series; FLAVOUR is
# release or debug.  6.1's and 6.12's sources are Debian 12's installed
# linux-source packages; 7.2's is Debian testing's, which scripts/deps.sh
# downloads (scripts/testing-apt.sh) into the cache and nothing installs.
# The build directory is keyed by the series, the source package's
# version, the config fragments and RECIPE below, so a changed fragment or a
# new linux-source package builds afresh and nothing stale is reused.  A
# finished build is marked with .built and not re-entered; `make kernel
# KERNEL_FORCE=1` re-runs kbuild on it.  A build that stopped half way has no
# .built and is resumed by kbuild.
#
# Environment: KERNEL, DLRB_CACHE (default ~/.cache/deadline-rb),
# KSRC_TARBALL, KERNEL_FORCE, JOBS.
set -euo pipefail

# Bump when the build steps below change what they produce.
RECIPE=2

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${DLRB_CACHE:-$HOME/.cache/deadline-rb}
series=${KERNEL:-6.1}

die() { echo "kernel.sh: $*" >&2; exit 1; }

# The series the lab knows; anything else is one line and exit status 2.
check_series() {
	case $series in
	6.1|6.12|7.2) ;;
	*) echo "kernel.sh: unknown KERNEL '$series' (6.1, 6.12 or 7.2)" >&2; exit 2 ;;
	esac
}
check_series
pkg=linux-source-$series
tarball=${KSRC_TARBALL:-/usr/src/$pkg.tar.xz}
ksrc=$cache/$pkg
downloads=$cache/downloads

# A series Debian 12 has no package of: its .deb, downloaded, not installed.
from_testing() {
	[ "$series" = 7.2 ]
}

# The newest downloaded .deb of the source package, if any.
pkg_deb() {
	find "$downloads" -maxdepth 1 -name "${pkg}_*_all.deb" 2>/dev/null | sort -V | tail -n 1
}

fragments() {
	local f
	case $1 in
	release) f="$top/kernel/release.config" ;;
	debug) f="$top/kernel/release.config $top/kernel/debug.config" ;;
	*) die "unknown flavour '$1' (release or debug)" ;;
	esac
	# options that only one series has or needs, in either flavour or in one
	[ -f "$top/kernel/$series.config" ] && f="$f $top/kernel/$series.config"
	[ -f "$top/kernel/$series-$1.config" ] && f="$f $top/kernel/$series-$1.config"
	echo "$f"
}

# The version of the installed source package, or for 7.2 of the newest
# downloaded one ("none" before make deps).
pkg_version() {
	local deb
	if from_testing; then
		deb=$(pkg_deb)
		deb=${deb##*/}
		deb=${deb#"${pkg}_"}
		echo "${deb%_all.deb}" | sed 's/%3a/:/g; s/^$/none/'
		return
	fi
	dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || echo none
}

build_dir() {
	local key
	# shellcheck disable=SC2046
	key=$( (echo "$series $RECIPE $(pkg_version)"; cat $(fragments "$1")) |
		sha256sum | cut -c1-12)
	echo "$cache/build/$series-$1-$key"
}

# One kernel.sh at a time works on a series' tree and builds: two makes
# that unpack or build into the same directory would ruin both.
lock() {
	mkdir -p "$cache"
	exec 9>"$cache/.lock-$series"
	flock 9
}

# Unpack once per package version: a newer linux-source replaces the tree.
unpack() {
	local ver
	lock
	ver=$(pkg_version)
	[ -f "$ksrc/Makefile" ] && [ "$(cat "$ksrc/.dlrb-version" 2>/dev/null)" = "$ver" ] &&
		return 0
	local tmp deb
	if from_testing; then
		deb=$(pkg_deb)
		[ -n "$deb" ] || die "no $pkg .deb in $downloads: run 'make deps KERNEL=$series'"
		echo "  UNPACK  $deb -> $ksrc"
		mkdir -p "$cache"
		tmp=$(mktemp -d "$cache/unpack.XXXXXX")
		# the tarball inside the .deb, straight out of it: nothing installed
		dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$pkg.tar.xz" |
			tar -xJ -C "$tmp" || { rm -rf "$tmp"; die "unpacking $deb failed"; }
	else
		[ -f "$tarball" ] || die "$tarball missing: run 'make deps' (package $pkg)"
		echo "  UNPACK  $tarball -> $ksrc"
		mkdir -p "$cache"
		tmp=$(mktemp -d "$cache/unpack.XXXXXX")
		tar -xJf "$tarball" -C "$tmp"
	fi
	echo "$ver" >"$tmp/$pkg/.dlrb-version"
	rm -rf "$ksrc"
	mv "$tmp/$pkg" "$ksrc"
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
		echo "  KERNEL  $series $flavour up to date: $out"
		return 0
	fi
	mkdir -p "$out"
	local jobs=${JOBS:-$(nproc)}
	if [ ! -f "$out/.configured" ]; then
		echo "  CONFIG  $series $flavour: tinyconfig + $(echo "$frags" | xargs -n1 basename | xargs)"
		make -s -C "$ksrc" O="$out" tinyconfig >/dev/null
		# shellcheck disable=SC2086
		(cd "$out" && "$ksrc/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" $frags >/dev/null)
		make -s -C "$ksrc" O="$out" olddefconfig >/dev/null
		# shellcheck disable=SC2086
		verify_config "$out" $frags
		touch "$out/.configured"
	fi
	echo "  BUILD   $series $flavour kernel in $out (-j$jobs)"
	local start=$SECONDS
	make -s -C "$ksrc" O="$out" -j"$jobs" bzImage modules
	rm -rf "$out/modroot"
	make -s -C "$ksrc" O="$out" INSTALL_MOD_PATH="$out/modroot" modules_install >/dev/null
	touch "$out/.built"
	echo "  KERNEL  $series $flavour built in $((SECONDS - start)) s: $out/arch/x86/boot/bzImage"
}

case ${1:-} in
build) build "${2:?flavour}" ;;
dir) build_dir "${2:?flavour}" ;;
src) echo "$ksrc" ;;
unpack) unpack >&2 && echo "$ksrc" ;;
check) ;;
*) die "usage: kernel.sh build|dir FLAVOUR | src | unpack | check" ;;
esac
