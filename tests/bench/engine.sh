#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The engine's scaling on the host, one JSON line per variant and depth:
#
#   tests/bench/engine.sh [DEPTH...]     (default 64 256 1024 4096 16384 65536)
#
# Builds tests/bench/engine/ against the kernel tree's tools/include and
# tools/lib/rbtree.c: "rbtree" is kernel/dlrb-engine.c itself, "list" the
# 2.5.45 list scan it replaced.  Instructions per request come from
# callgrind (repeatable: the same count on every run), counting only the
# steady-state loop; nanoseconds per request are the median of 5 native
# runs (noisy: this machine is shared).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
src=$("$top/scripts/kernel.sh" src)
out=$top/build/bench-engine
mkdir -p "$out"

cflags=(-O2 -g -std=gnu11 -Wall -Wextra -Wno-sign-compare -Wno-unused-parameter
	-I "$top/tests/bench/engine/shim" -I "$src/tools/include" -I "$top/kernel")
gcc "${cflags[@]}" -o "$out/engine-bench" \
	"$top/tests/bench/engine/bench.c" "$top/tests/bench/engine/list-sched.c" \
	"$top/kernel/dlrb-engine.c" "$src/tools/lib/rbtree.c"

# instructions VARIANT DEPTH ITERATIONS [HASH_SHIFT]: callgrind's count of
# the steady-state loop, per request
instructions() {
	local ir
	ir=$(valgrind --tool=callgrind --toggle-collect=steady_state \
		--callgrind-out-file=/dev/null "$out/engine-bench" "$@" 2>&1 >/dev/null |
		sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
	[ -n "$ir" ] || { echo "engine.sh: callgrind gave no count for $*" >&2; exit 1; }
	printf '%.1f' "$(echo "$ir / $3" | bc -l)"
}

depths=("$@")
[ ${#depths[@]} -gt 0 ] || depths=(64 256 1024 4096 16384 65536)

for depth in "${depths[@]}"; do
	for variant in rbtree list; do
		# enough iterations for a stable count, few enough for valgrind
		if [ $variant = rbtree ]; then
			cg_iters=5000
			t_iters=200000
		else
			cg_iters=$(( 2000000 / depth > 100 ? 2000000 / depth : 100 ))
			t_iters=$(( 60000000 / depth > 200 ? 60000000 / depth : 200 ))
		fi
		ipr=$(instructions $variant "$depth" "$cg_iters")
		ns=()
		for _ in 1 2 3 4 5; do
			ns+=("$("$out/engine-bench" $variant "$depth" "$t_iters" |
				sed 's/.*"ns_per_request":\([0-9.]*\).*/\1/')")
		done
		median=$(printf '%s\n' "${ns[@]}" | sort -g | sed -n 3p)
		printf '{"variant":"%s","depth":%d,"instructions_per_request":%s,' \
			$variant "$depth" "$ipr"
		printf '"ns_per_request":%s,"ns_runs":[%s],"hash_shift":10}\n' "$median" \
			"$(IFS=,; echo "${ns[*]}")"
	done
done

# The back-merge hash at the default hash_shift (10: 1024 buckets) has long
# chains at the deepest queue; what a hash sized to the queue costs there:
printf '{"variant":"rbtree","depth":65536,"hash_shift":16,"instructions_per_request":%s}\n' \
	"$(instructions rbtree 65536 5000 16)"
