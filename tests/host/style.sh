#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Style and lint, in TAP: for each kernel series the lab builds (6.1 and
# 6.12), checkpatch --strict from that tree on every kernel file and a W=1
# build of the module, and of the seek-modelled disk, with no warning; then
# mandoc -Tlint on every man page.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
series=(${STYLE_KERNELS:-6.1 6.12})
kfiles=(kernel/*.[ch] tests/bench/fifo/*.c tests/hdd/*.c)
pages=(man/*.[0-9])
n=0

echo "1..$(( ${#series[@]} * (${#kfiles[@]} + 2) + ${#pages[@]} ))"
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

tmp=$(mktemp -d /tmp/dlrb-style.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

for k in "${series[@]}"; do
	ksrc=$(KERNEL=$k scripts/kernel.sh src)
	kbuild=$(KERNEL=$k scripts/kernel.sh dir "${FLAVOUR:-debug}")
	for f in "${kfiles[@]}"; do
		out=$(perl "$ksrc/scripts/checkpatch.pl" --no-tree --strict -f "$f" 2>&1)
		grep -q 'total: 0 errors, 0 warnings, 0 checks' <<<"$out"
		ok $? "$k: checkpatch --strict: $f"
		grep -E "^(ERROR|WARNING|CHECK)|^#[0-9]+:" <<<"$out" | sed "s/^/# /"
	done

	rm -rf "${tmp:?}/$k"
	mkdir -p "$tmp/$k"
	cp kernel/Kbuild kernel/*.mk kernel/*.[ch] "$tmp/$k/"
	out=$(make -s -C "$kbuild" M="$tmp/$k" W=1 modules 2>&1)
	status=$?
	[ $status -eq 0 ] && ! grep -qi 'warning' <<<"$out"
	ok $? "$k: the module builds with W=1 and no warning"
	[ -n "$out" ] && sed 's/^/# /' <<<"$out"

	mkdir -p "$tmp/$k-hdd"
	cp tests/hdd/Kbuild tests/hdd/*.c kernel/dlrb-compat.mk kernel/dlrb-compat.h "$tmp/$k-hdd/"
	out=$(make -s -C "$kbuild" M="$tmp/$k-hdd" W=1 modules 2>&1)
	status=$?
	[ $status -eq 0 ] && ! grep -qi 'warning' <<<"$out"
	ok $? "$k: the seek-modelled disk builds with W=1 and no warning"
	[ -n "$out" ] && sed 's/^/# /' <<<"$out"
done

for p in "${pages[@]}"; do
	out=$(mandoc -Tlint -W warning "$p" 2>&1)
	[ -z "$out" ]
	ok $? "mandoc -Tlint: $p"
	[ -n "$out" ] && sed 's/^/# /' <<<"$out"
done
exit 0
