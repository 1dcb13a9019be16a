#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make deb: build deadline-rb's two Debian packages with Debian's own
# tooling (dpkg-buildpackage, debhelper, dh-dkms) into build/deb/:
#   deadline-rb-dkms_<version>_all.deb   module source, dkms.conf, PRE_BUILD
#   dlctl_<version>_amd64.deb            the tool and both man pages
# The tree is staged into build/deb/src/ with dist/debian/ as debian/;
# the version is CHANGELOG's (scripts/version.sh).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
version=$(scripts/version.sh)
out=$top/build/deb
src=$out/src/deadline-rb-$version
rm -rf "$out"
mkdir -p "$src"

# What the packages are built from: the tracked (and new, unignored) files,
# or, outside a git checkout, the same directories as they are.
parts=(Makefile CHANGELOG README.md cli kernel man dist scripts/version.sh scripts/kernel.sh)
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -co --exclude-standard -- "${parts[@]}"
else
	find "${parts[@]}" -type f
fi | while read -r f; do
	if [ -f "$f" ]; then echo "$f"; fi
done | tar -cf - -T - | tar -xf - -C "$src"
cp -a dist/debian "$src/debian"
cp dist/dkms/dkms.conf "$src/debian/deadline-rb-dkms.dkms"

# debian/changelog from CHANGELOG's newest release and its date.
date=$(sed -n "s/^## \[$version\] - \([0-9-]*\).*/\1/p" CHANGELOG | head -n 1)
cat >"$src/debian/changelog" <<CL
deadline-rb ($version) unstable; urgency=medium

  * Release $version; CHANGELOG lists the changes.

 -- deadline-rb developers <deadline-rb@lists.example.org>  $(LC_ALL=C date -u -R -d "${date:-today} 12:00")
CL

echo "  DEB     dpkg-buildpackage in ${src#"$top"/}"
# two packages, no -dbgsym one beside them
if ! (cd "$src" && DEB_BUILD_OPTIONS=noautodbgsym dpkg-buildpackage -b -us -uc >"$out/build.log" 2>&1); then
	tail -n 30 "$out/build.log" | sed 's/^/  | /' >&2
	echo "make deb: dpkg-buildpackage failed; log: ${out#"$top"/}/build.log" >&2
	exit 1
fi
mv "$out"/src/*.deb "$out/"
for d in "$out"/*.deb; do
	echo "  DEB     ${d#"$top"/}"
done
