#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest's fio: Debian's own fio source, of the machine's release, built
# static with the engines the guest uses (libaio, io_uring, psync) and no
# others.  Debian's fio binary links 64 shared libraries (Ceph's,
# GlusterFS's, ICU's...): in a debug guest under TCG, loading them took 6 s
# of every fio run, over 7 of 9 s for a 4 KiB read, and they were 84 MB of
# the initramfs's 87.
#
#   scripts/fio.sh    build it into the cache once; its path on stdout
#
# Environment: DLRB_CACHE (default ~/.cache/deadline-rb).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${DLRB_CACHE:-$HOME/.cache/deadline-rb}
root=$cache/fio

die() { echo "fio.sh: $*" >&2; exit 1; }

# the newest fio built, if any: the answer when the archive cannot be asked
newest() {
	find "$root" -mindepth 2 -maxdepth 2 -name fio -type f 2>/dev/null | sort -V | tail -n 1
}

mkdir -p "$root"
exec {lock}>"$root/.lock"
flock "$lock"

if ! ver=$(DLRB_SUITE=release "$top/scripts/testing-apt.sh" version fio 2>"$root/.version.err"); then
	have=$(newest)
	[ -n "$have" ] || die "$(cat "$root/.version.err")"
	echo "fio.sh: $(cat "$root/.version.err"); using $have" >&2
	echo "$have"
	exit 0
fi
bin=$root/$ver/fio
if [ -x "$bin" ]; then
	echo "$bin"
	exit 0
fi

tmp=$(mktemp -d "$root/.build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
DLRB_SUITE=release "$top/scripts/testing-apt.sh" source fio "$tmp" >/dev/null
echo "  FIO     $ver, static (Debian's source)" >&2
log=$root/build-$ver.log
(
	cd "$tmp/src"
	./configure --disable-native --build-static --disable-rdma --disable-rados \
		--disable-rbd --disable-http --disable-gfapi --disable-libnfs --disable-pmem \
		--disable-dfs --disable-xnvme --disable-numa --disable-tcmalloc --disable-libzbc
	make -j"$(nproc)" fio
) >"$log" 2>&1 || die "building fio $ver failed; see $log"
strip -o "$tmp/fio" "$tmp/src/fio"
engines=$("$tmp/fio" --enghelp)
for e in libaio io_uring psync; do
	grep -qw "$e" <<<"$engines" || die "fio $ver was built without its $e engine; see $log"
done
mkdir -p "$root/$ver"
mv "$tmp/fio" "$bin"
echo "$bin"
