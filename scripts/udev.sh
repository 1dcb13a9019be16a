#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Debian's udev for the guest: the archive's udev package, fetched with
# apt-get download and unpacked with dpkg-deb -x into the cache, never
# installed on this machine.  The guest runs its systemd-udevd with
# dlctl's rule (dist/udev/60-dlctl.rules), so that the tests see what a
# Debian system does when a disk appears.
#
#   scripts/udev.sh fetch     fetch and unpack once per version; print the
#                             unpacked root (bin/udevadm, lib/udev/rules.d/)
#
# Environment: DLRB_CACHE (default ~/.cache/deadline-rb).
set -euo pipefail

cache=${DLRB_CACHE:-$HOME/.cache/deadline-rb}
prog=udev.sh

die() { echo "$prog: $*" >&2; exit 1; }

[ "${1:-}" = fetch ] || { echo "usage: $prog fetch" >&2; exit 2; }

# The archive's version; without package lists, what the cache has.
ver=$(apt-cache policy udev 2>/dev/null | sed -n 's/^ *Candidate: //p')
if [ -z "$ver" ] || [ "$ver" = "(none)" ]; then
	if [ "$(id -u)" -eq 0 ]; then
		apt-get update -qq >/dev/null 2>&1 || true
		ver=$(apt-cache policy udev 2>/dev/null | sed -n 's/^ *Candidate: //p')
	fi
	if [ -z "$ver" ] || [ "$ver" = "(none)" ]; then
		dir=
		for d in "$cache"/udev-*/; do
			[ -f "$d.unpacked" ] && dir=${d%/}
		done
		[ -n "$dir" ] || die "no udev package in the archive's lists: run 'sudo apt-get update'"
		echo "$dir/root"
		exit 0
	fi
fi

dir=$cache/udev-$ver
if [ ! -f "$dir/.unpacked" ] || [ "$(cat "$dir/.unpacked")" != "$ver" ]; then
	echo "  FETCH   udev ($ver)" >&2
	rm -rf "$dir"
	mkdir -p "$dir/debs"
	(cd "$dir/debs" && apt-get download -q "udev=$ver" >/dev/null 2>&1) ||
		(cd "$dir/debs" && apt-get update -qq >/dev/null 2>&1 &&
			apt-get download -q "udev=$ver" >/dev/null) ||
		die "apt-get download udev=$ver failed"
	dpkg-deb -x "$dir"/debs/udev_*.deb "$dir/root"
	rm -rf "$dir/debs"
	[ -x "$dir/root/bin/udevadm" ] || die "no bin/udevadm in udev $ver"
	# every library udevadm links must be on this machine, to be carried
	if ldd "$dir/root/bin/udevadm" | grep 'not found' >&2; then
		die "udevadm $ver links libraries this machine lacks"
	fi
	echo "$ver" >"$dir/.unpacked"
fi
echo "$dir/root"
