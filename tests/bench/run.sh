#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: the engine on the host, then every scheduler in one guest boot,
# then the report.  Results (JSON, markdown, PNG) go to results/ (or
# $BENCH_OUT) and its headline figures into README.md.
#
# The guest is clocked by its instructions (VM_ICOUNT=2: one CPU, 4 ns per
# guest instruction, see tests/vm), so that what the host's load does to
# QEMU does not reach the figures: on a fast device they measure the CPU
# cost per I/O, in guest instructions.
#
# Beside deadline-rb runs "dlrb-base": the scheduler as it was at
# BENCH_BASE (a commit; default: before issue 12's round two), built from
# that commit's kernel/ under another name, so that before and after are
# measured in the same boot.  BENCH_BASE= (empty) leaves it out.
#
# Then the schedulers on the seek-modelled disk (tests/hdd/dlrb-hdd.c), in
# a second boot: BENCH_HDD_ROUNDS rounds of BENCH_HDD_RUNTIME guest seconds
# per run (BENCH_HDD_ROUNDS=0 leaves it out).  An instruction-clocked guest
# that waits for the disk skips ahead to its next timer, so these cost less
# wall time than they measure.
#
# Then I/O priority classes (tests/bench/prio-guest.sh), deadline-rb beside
# mq-deadline and bfq on a slowed null_blk, in a third boot:
# BENCH_PRIO_ROUNDS rounds of BENCH_PRIO_RUNTIME guest seconds per run
# (BENCH_PRIO_ROUNDS=0 leaves it out).
#
#   BENCH_ROUNDS (default 7), BENCH_RUNTIME (guest seconds per run, default 3),
#   BENCH_HDD_ROUNDS (default 3), BENCH_HDD_RUNTIME (default 15),
#   BENCH_PRIO_ROUNDS (default 2), BENCH_PRIO_RUNTIME (default 30)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
out=${BENCH_OUT:-$top/results}
rounds=${BENCH_ROUNDS:-7}
runtime=${BENCH_RUNTIME:-3}
hdd_rounds=${BENCH_HDD_ROUNDS:-3}
hdd_runtime=${BENCH_HDD_RUNTIME:-15}
prio_rounds=${BENCH_PRIO_ROUNDS:-2}
prio_runtime=${BENCH_PRIO_RUNTIME:-30}
start=$SECONDS
mkdir -p "$out/raw"

make -s --no-print-directory initramfs FLAVOUR=release
kbuild=$(scripts/kernel.sh dir release)

echo "  BENCH   engine on the host (callgrind + wall time)"
tests/bench/engine.sh >"$out/raw/engine.jsonl"

files=()

base=${BENCH_BASE-daf5a81^}
if [ -n "$base" ]; then
	rev=$(git rev-parse --short --verify -q "$base^{commit}" 2>/dev/null) ||
		{ echo "run.sh: BENCH_BASE=$base: not a commit of this checkout" >&2; exit 1; }
	echo "  BENCH   dlrb-base module: deadline-rb as of $rev"
	bdir=$top/build/bench-base-$rev-$(basename "$kbuild")
	rm -rf "$bdir"
	mkdir -p "$bdir"
	git archive "$rev" kernel/ | tar -x -C "$bdir" --strip-components=1
	# another elevator and module name; no alias to clash with ours
	sed -i 's/\.elevator_name = "deadline-rb"/.elevator_name = "dlrb-base"/;
		/^MODULE_ALIAS(/d' "$bdir/dlrb-iosched.c"
	grep -q '"dlrb-base"' "$bdir/dlrb-iosched.c" ||
		{ echo "run.sh: $rev: no elevator_name to rename" >&2; exit 1; }
	cat >"$bdir/Kbuild" <<-EOF
	ccflags-y += -I\$(srctree)/block -DDLRB_VERSION='"base-$rev"'
	obj-m += dlrb-base.o
	dlrb-base-y := dlrb-iosched.o dlrb-engine.o
	EOF
	make -s -C "$kbuild" M="$bdir" W=1 modules
	files+=(--file "$bdir/dlrb-base.ko")
fi

echo "  BENCH   schedulers in the guest: $rounds rounds of ${runtime} s runs"
# 4 workloads x 7 schedulers per round, plus 10 policy runs of 2 x runtime;
# an instruction-clocked guest runs about as fast as its own clock here:
# 4x is room for a busy host
limit=$(( 4 * ((rounds * 28 * (runtime + 3)) + 10 * (2 * runtime + 3)) + 300 ))
VM_ICOUNT=${VM_ICOUNT-2} tests/vm run -q --timeout "$limit" "${files[@]}" \
	tests/bench/sched-guest.sh "$rounds" "$runtime" >"$out/raw/guest.log"

rm -f "$out/raw/hdd.log"
if [ "$hdd_rounds" -gt 0 ]; then
	echo "  BENCH   the seek-modelled disk: $hdd_rounds rounds of ${hdd_runtime} s runs"
	# 4 workloads x 6 schedulers per round; at worst as slow as its clock
	limit=$(( 2 * hdd_rounds * 24 * (hdd_runtime + 5) + 300 ))
	VM_ICOUNT=${VM_ICOUNT-2} tests/vm run -q --timeout "$limit" \
		tests/bench/hdd-guest.sh "$hdd_rounds" "$hdd_runtime" >"$out/raw/hdd.log"
fi

rm -f "$out/raw/prio.log"
if [ "$prio_rounds" -gt 0 ]; then
	echo "  BENCH   priority classes: $prio_rounds rounds of ${prio_runtime} s runs"
	# 3 workloads x 3 schedulers per round; at worst as slow as its clock
	limit=$(( 2 * prio_rounds * 9 * (prio_runtime + 5) + 300 ))
	VM_ICOUNT=${VM_ICOUNT-2} tests/vm run -q --timeout "$limit" \
		tests/bench/prio-guest.sh "$prio_rounds" "$prio_runtime" >"$out/raw/prio.log"
fi

cat >"$out/raw/meta.json" <<JSON
{"date": "$(date -u +%Y-%m-%dT%H:%MZ)", "host": "$(nproc) cores, $(sed -n 's/^model name\t*: //p' /proc/cpuinfo | head -1)",
 "rounds": $rounds, "runtime": $runtime, "seconds": $((SECONDS - start)),
 "icount": "${VM_ICOUNT-2}", "base": "${rev:-}",
 "hdd": {"rounds": $hdd_rounds, "runtime": $hdd_runtime},
 "prio": {"rounds": $prio_rounds, "runtime": $prio_runtime},
 "command": "make bench$( [ "$rounds" = 7 ] && [ "$runtime" = 3 ] || echo " BENCH_ROUNDS=$rounds BENCH_RUNTIME=$runtime")$( [ "$hdd_rounds" = 3 ] && [ "$hdd_runtime" = 15 ] || echo " BENCH_HDD_ROUNDS=$hdd_rounds BENCH_HDD_RUNTIME=$hdd_runtime")$( [ "$prio_rounds" = 2 ] && [ "$prio_runtime" = 30 ] || echo " BENCH_PRIO_ROUNDS=$prio_rounds BENCH_PRIO_RUNTIME=$prio_runtime")",
 "kernel": "$(cat "$kbuild/include/config/kernel.release")", "fio": "$(fio --version)"}
JSON
echo "  BENCH   report: $out/README.md"
python3 tests/bench/report.py "$out" "$top/README.md"
echo "  BENCH   done in $((SECONDS - start)) s"
