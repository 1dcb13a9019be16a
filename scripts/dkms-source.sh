#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/dkms-source.sh DIR
#
# Lay out deadline-rb's DKMS source tree in DIR (what /usr/src/deadline-rb-
# <version>/ holds once the deadline-rb-dkms package is installed): the
# module's sources and Kbuild, dkms.conf with the version filled in as
# dh_dkms does, and the PRE_BUILD step.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:?usage: dkms-source.sh DIR}
version=$("$top/scripts/version.sh")
mkdir -p "$dir"
cp "$top"/kernel/Kbuild "$top"/kernel/*.mk "$top"/kernel/*.c "$top"/kernel/*.h "$dir/"
install -m 755 "$top/dist/dkms/dlrb-block-headers" "$dir/"
sed "s/#MODULE_VERSION#/$version/" "$top/dist/dkms/dkms.conf" >"$dir/dkms.conf"
