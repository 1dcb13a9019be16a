#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Packages from Debian's testing (or unstable) suite, for a machine that runs
# Debian 12: fetched through a private apt configuration under the cache,
# never through the machine's own.  Its mirror is the one the machine's own
# apt sources name (no host name is written here), its lists and downloads
# stay under the cache, and nothing is installed: installing from testing
# onto a stable release is how machines get broken.  The same way, source
# packages of the machine's own release (which its apt sources need not
# list as deb-src).
#
#   scripts/testing-apt.sh update            fetch the suite's lists (at most
#                                            once a day; FORCE=1: now)
#   scripts/testing-apt.sh version PKG       PKG's version in the suite (for
#                                            release: the source package's),
#                                            or one line and exit 1
#   scripts/testing-apt.sh names REGEX       package names matching REGEX
#   scripts/testing-apt.sh download PKG DIR  PKG's .deb (the suite's version)
#                                            into DIR, kept in the cache; its
#                                            path on stdout
#   scripts/testing-apt.sh source PKG DIR    the source package PKG (the
#                                            suite's newest), unpacked as
#                                            DIR/src; its version on stdout
#
# Environment: DLRB_CACHE (default ~/.cache/deadline-rb), DLRB_SUITE
# (testing, the default, unstable, or release: the machine's own, for
# source packages).
set -euo pipefail

cache=${DLRB_CACHE:-$HOME/.cache/deadline-rb}
suite=${DLRB_SUITE:-testing}
root=$cache/apt-$suite

die() { echo "testing-apt.sh: $*" >&2; exit 1; }

types=deb
case $suite in
testing | unstable) ;;
release)
	# shellcheck disable=SC1091
	suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	[ -n "$suite" ] || die "no VERSION_CODENAME in /etc/os-release"
	types="deb-src"
	;;
*) echo "testing-apt.sh: DLRB_SUITE '$suite': testing, unstable or release" >&2; exit 2 ;;
esac

# The machine's Debian mirror: the first URI of its apt sources that serves
# the Debian archive (deb822 .sources files, then one-line .list files).
mirror() {
	local uri
	uri=$(awk '
		/^URIs:/ { uri = $2 }
		/^Suites:/ { suites = $0 }
		/^$/ { if (uri != "" && suites !~ /-security/) { print uri; exit } uri = ""; suites = "" }
		END { if (uri != "" && suites !~ /-security/) print uri }
	' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -m1 '/debian/*$' || true)
	if [ -z "$uri" ]; then
		uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
			awk '$1 == "deb" && $3 !~ /-security/ { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' |
			grep -m1 '/debian/*$' || true)
	fi
	[ -n "$uri" ] || die "no Debian mirror in this machine's apt sources (/etc/apt/sources.list*)"
	echo "${uri%/}"
}

# apt-get and apt-cache on the private configuration only.
apt_opts() {
	echo "-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts=$root/sources \
-o Dir::State::Lists=$root/lists -o Dir::Cache=$root/cache \
-o Dir::State::status=/dev/null -o Acquire::Languages=none \
-o APT::Sandbox::User=root -o Debug::NoLocking=1"
}

update() {
	local stamp=$root/lists/.updated
	if [ -z "${FORCE:-}" ] && [ -f "$stamp" ] &&
		[ -n "$(find "$stamp" -mmin -1440 2>/dev/null)" ]; then
		return 0
	fi
	mkdir -p "$root/sources" "$root/lists/partial" "$root/cache/archives/partial"
	rm -f "$root"/sources/*.sources
	printf 'Types: %s\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n' \
		"$types" "$(mirror)" "$suite" /usr/share/keyrings/debian-archive-keyring.gpg \
		>"$root/sources/$suite.sources"
	# shellcheck disable=SC2046
	apt-get $(apt_opts) -qq update >"$root/update.log" 2>&1 ||
		die "apt-get update of Debian $suite failed (see $root/update.log)"
	touch "$stamp"
}

# version PKG: the binary package's candidate, or for the release suite
# (source packages only) the source package's newest version
version() {
	local v
	update
	if [ "$types" = deb-src ]; then
		# shellcheck disable=SC2046
		v=$(apt-cache $(apt_opts) showsrc "$1" 2>/dev/null | sed -n 's/^Version: //p' |
			sort -V | tail -n 1)
	else
		# shellcheck disable=SC2046
		v=$(apt-cache $(apt_opts) policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: //p')
	fi
	if [ -z "$v" ] || [ "$v" = "(none)" ]; then
		die "Debian $suite has no package $1"
	fi
	echo "$v"
}

names() {
	update
	# shellcheck disable=SC2046
	apt-cache $(apt_opts) search --names-only "$1" 2>/dev/null | cut -d' ' -f1 | sort -V
}

download() {
	local pkg=$1 dir=$2 ver deb
	ver=$(version "$pkg")
	mkdir -p "$dir"
	deb=$(find "$dir" -maxdepth 1 -name "${pkg}_${ver//:/%3a}_*.deb" | head -n 1)
	if [ -z "$deb" ]; then
		# shellcheck disable=SC2046
		(cd "$dir" && apt-get $(apt_opts) -qq download "$pkg=$ver" >/dev/null 2>&1) ||
			die "apt-get download $pkg=$ver from Debian $suite failed"
		deb=$(find "$dir" -maxdepth 1 -name "${pkg}_${ver//:/%3a}_*.deb" | head -n 1)
		[ -n "$deb" ] || die "apt-get download $pkg=$ver left no .deb in $dir"
	fi
	echo "$deb"
}

# fetch_source PKG DIR: apt-get source checks the files against the suite's
# signed index; dpkg-source need not check the .dsc's signature again
fetch_source() {
	local pkg=$1 dir=$2 ver
	[ "$types" = deb-src ] || die "source packages come from DLRB_SUITE=release"
	ver=$(version "$pkg")
	mkdir -p "$dir"
	# shellcheck disable=SC2046
	(cd "$dir" && apt-get $(apt_opts) -qq source --download-only "$pkg=$ver" >/dev/null 2>&1) ||
		die "apt-get source $pkg=$ver from Debian $suite failed"
	dpkg-source --no-check -x "$dir/${pkg}_${ver#*:}.dsc" "$dir/src" >/dev/null 2>&1 ||
		die "dpkg-source could not unpack $pkg $ver"
	echo "$ver"
}

case ${1:-} in
update) FORCE=${FORCE:-1} update ;;
version) version "${2:?package}" ;;
names) names "${2:?regex}" ;;
download) download "${2:?package}" "${3:?directory}" ;;
source) fetch_source "${2:?package}" "${3:?directory}" ;;
*) echo "usage: testing-apt.sh update | version PKG | names REGEX | download PKG DIR | source PKG DIR" >&2; exit 2 ;;
esac
