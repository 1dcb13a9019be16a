#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Print deadline-rb's version: the newest released entry of CHANGELOG
# ("## [X.Y.Z] - DATE"), the one place it is kept.  dlctl --version, the
# module's modinfo and the Debian packages all take it from here.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
v=$(sed -n 's/^## \[\([0-9][0-9.]*\)\].*/\1/p' "$top/CHANGELOG" | head -n 1)
[ -n "$v" ] || { echo "version.sh: no '## [X.Y.Z]' entry in CHANGELOG" >&2; exit 1; }
echo "$v"
