#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: the engine on the host, then every scheduler in one guest boot,
# then the report.  Results (JSON, markdown, PNG) go to results/ (or
# $BENCH_OUT) and the summary into README.md's Performance section.
#
#   BENCH_ROUNDS (default 5), BENCH_RUNTIME (seconds per run, default 3)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
out=${BENCH_OUT:-$top/results}
rounds=${BENCH_ROUNDS:-5}
runtime=${BENCH_RUNTIME:-3}
start=$SECONDS
mkdir -p "$out/raw"

make -s --no-print-directory initramfs FLAVOUR=release
kbuild=$(scripts/kernel.sh dir release)

echo "  BENCH   engine on the host (callgrind + wall time)"
tests/bench/engine.sh >"$out/raw/engine.jsonl"

echo "  BENCH   fifo-floor module"
fifo=$top/build/bench-fifo-$(basename "$kbuild")
mkdir -p "$fifo"
ln -sf "$top/tests/bench/fifo/Kbuild" "$top/tests/bench/fifo/fifo-floor.c" \
	"$top/kernel/dlrb-compat.h" "$fifo/"
make -s -C "$kbuild" M="$fifo" W=1 modules

echo "  BENCH   schedulers in the guest: $rounds rounds of ${runtime} s runs"
# 4 workloads x 6 schedulers per round, plus 9 policy runs of 2 x runtime
limit=$(( (rounds * 24 * (runtime + 3)) + 9 * (2 * runtime + 3) + 300 ))
tests/vm run -q --timeout "$limit" --file "$fifo/fifo-floor.ko" \
	tests/bench/sched-guest.sh "$rounds" "$runtime" >"$out/raw/guest.log"

cat >"$out/raw/meta.json" <<JSON
{"date": "$(date -u +%Y-%m-%dT%H:%MZ)", "host": "$(nproc) cores, $(sed -n 's/^model name\t*: //p' /proc/cpuinfo | head -1)",
 "rounds": $rounds, "runtime": $runtime, "seconds": $((SECONDS - start)),
 "command": "make bench$( [ "$rounds" = 5 ] && [ "$runtime" = 3 ] || echo " BENCH_ROUNDS=$rounds BENCH_RUNTIME=$runtime")",
 "kernel": "$(cat "$kbuild/include/config/kernel.release")", "fio": "$(fio --version)"}
JSON
echo "  BENCH   report: $out/README.md"
python3 tests/bench/report.py "$out" "$top/README.md"
echo "  BENCH   done in $((SECONDS - start)) s"
