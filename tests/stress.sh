#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-stress: is make check free of luck?  Not part of make check.
#
#   tests/stress.sh tiers [ROUNDS]
#       Every guest tier of make check on one kernel (STRESS_KERNEL, default
#       6.1, our debug build), ROUNDS times (default 5) in a row while a CPU
#       hog (two busy loops at nice 0, one per core of this 2-core host)
#       runs beside it, then once on a quiet host (STRESS_QUIET=0: not);
#       a table of the passes per tier.
#   tests/stress.sh boots N [KERNEL...]
#       N boots of each KERNEL (default 6.1 6.12 7.2, our debug kernels;
#       debian-6.1, -6.12 and -7.2 are Debian's) while the hog runs, then
#       N on a quiet host, each stopped once the boot CPU is set up (the
#       early boot, where an interrupt found KASAN's view of memory torn)
#       or at the line STRESS_MARKER names; a count of the boots that
#       failed, and of those with a kernel splat.  VM_CPU picks the
#       emulated CPU (tests/vm's default, or max to see what la57=off
#       removes).
#
# Logs under build/logs/stress-*/.  Exit 0 when every run passed.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
logdir=$top/build/logs/stress-$(date +%Y%m%d-%H%M%S)
mkdir -p "$logdir"

hog_pids=()
hog_start() {
	local i
	for i in 1 2; do
		nice -n 0 bash -c 'while :; do :; done' &
		hog_pids+=($!)
	done
}
hog_stop() {
	[ ${#hog_pids[@]} -eq 0 ] && return
	kill "${hog_pids[@]}" 2>/dev/null
	wait "${hog_pids[@]}" 2>/dev/null
	hog_pids=()
}
trap hog_stop EXIT

usage() { awk 'NR < 4 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; }

cmd=${1:-}
case $cmd in
tiers)
	rounds=${2:-5}
	kernel=${STRESS_KERNEL:-6.1}
	case $rounds in '' | *[!0-9]*) echo "tests/stress.sh: ROUNDS: a number, not '$rounds'" >&2; exit 2 ;; esac
	case $kernel in
	6.1 | 6.12 | 7.2) export CHECK_KERNELS=$kernel CHECK_STOCK_KERNELS='' ;;
	debian-6.1 | debian-6.12 | debian-7.2) export CHECK_KERNELS='' CHECK_STOCK_KERNELS=$kernel ;;
	*) echo "tests/stress.sh: STRESS_KERNEL: 6.1, 6.12, 7.2 or debian-6.1, -6.12, -7.2, not '$kernel'" >&2; exit 2 ;;
	esac
	export CHECK_HOST=0
	fails=0
	logs=()
	# the rounds: 1..ROUNDS loaded, then one quiet
	for r in $(seq 1 $((rounds + ${STRESS_QUIET:-1}))); do
		if [ "$r" -le "$rounds" ]; then cond=loaded; hog_start; else cond=quiet; fi
		echo "== round $r ($cond), $kernel"
		logs+=("$logdir/round-$r-$cond.log")
		tests/check.sh >"$logdir/round-$r-$cond.log" 2>&1 || fails=$((fails + 1))
		hog_stop
		grep -E '^(  |[0-9a-z.-]+/[a-z-]+ +[0-9]+ passed)' "$logdir/round-$r-$cond.log"
		tail -n 1 "$logdir/round-$r-$cond.log"
	done
	# the table: a row per tier, a column per round, "P/F"
	echo
	echo "passes per tier, $kernel ($rounds loaded rounds, then ${STRESS_QUIET:-1} quiet):"
	awk '
		BEGIN {
			for (r = 1; r < ARGC; r++) {
				idx[ARGV[r]] = r
				split(ARGV[r], a, "round-"); c[r] = a[2]; sub(/\.log$/, "", c[r])
			}
			r = ARGC - 1
		}
		/^[0-9a-z.-]+\/[a-z-]+ +[0-9]+ passed, [0-9]+ failed/ {
			t = $1; if (!(t in seen)) { seen[t] = 1; order[++n] = t }
			cell[t, idx[FILENAME]] = ($4 + 0 == 0) ? "ok " $2 : "FAIL " $4
			if ($4 + 0 == 0) clean[t]++
		}
		END {
			printf "%-28s", "tier"; for (i = 1; i <= r; i++) printf " %-12s", c[i]; printf "  clean runs\n"
			for (j = 1; j <= n; j++) {
				t = order[j]; printf "%-28s", t
				for (i = 1; i <= r; i++) printf " %-12s", ((t, i) in cell) ? cell[t, i] : "-"
				printf "  %d of %d\n", clean[t], r
			}
		}' "${logs[@]}"
	echo "logs in ${logdir#"$top"/}"
	[ "$fails" -eq 0 ]
	;;
boots)
	n=${2:-}
	case $n in '' | *[!0-9]*) usage >&2; exit 2 ;; esac
	shift 2
	kernels=("$@")
	[ ${#kernels[@]} -gt 0 ] || kernels=(6.1 6.12 7.2)
	printf '#!/bin/sh\n# a boot that does nothing\nexit 0\n' >"$logdir/boot.sh"
	chmod +x "$logdir/boot.sh"
	# A boot is judged on its console up to the first line printed after
	# the boot CPU's identification (start_kernel -> smp_init), and the
	# guest is stopped there: the rest of a debug boot takes ten times as
	# long.  STRESS_MARKER names another line to stop at: 'Run /init'
	# takes in the late initcalls, where sched_clock's static key is
	# patched while the other CPU runs it (an int3 Oops, once, on
	# Debian's 6.12).
	marker=${STRESS_MARKER:-smp: Bringing up secondary CPUs}
	splats='BUG:|WARNING:|KASAN|Oops|Call Trace|Kernel panic'
	total_bad=0
	for k in "${kernels[@]}"; do
		case $k in
		6.1 | 6.12 | 7.2)
			flavour=--debug
			make -s --no-print-directory initramfs KERNEL="$k" FLAVOUR=debug || exit 1
			export VM_PREBUILT=1 ;;
		debian-6.1 | debian-6.12 | debian-7.2) flavour= ;;
		*) echo "tests/stress.sh: boots: 6.1, 6.12, 7.2 or debian-6.1, -6.12, -7.2, not '$k'" >&2; exit 2 ;;
		esac
		for cond in loaded quiet; do
			[ $cond = loaded ] && hog_start
			bad=0 splat=0
			for i in $(seq 1 "$n"); do
				dir=$logdir/$k-$cond/$i
				mkdir -p "$dir"
				# shellcheck disable=SC2086
				VM_LOGDIR=$dir tests/vm run --kernel "$k" $flavour -q --timeout 300 \
					"$logdir/boot.sh" >"$dir/vm.out" 2>&1 &
				vm=$!
				con=
				while kill -0 $vm 2>/dev/null; do
					[ -n "$con" ] || con=$(find "$dir" -name console.log | head -n 1)
					if [ -n "$con" ] && grep -q "$marker" "$con"; then
						pkill -f -- "${con%/console.log}/initramfs.cpio"
						break
					fi
					sleep 0.1
				done
				wait $vm
				[ -n "$con" ] || con=$(find "$dir" -name console.log | head -n 1)
				if [ -n "$con" ] && grep -qE "$splats" "$con"; then
					splat=$((splat + 1)) bad=$((bad + 1))
					echo "  $k $cond boot $i: $(grep -m1 -E "$splats" "$con" | tr -d '\r')"
				elif [ -z "$con" ] || ! grep -q "$marker" "$con"; then
					bad=$((bad + 1))
					echo "  $k $cond boot $i: did not get as far as '$marker' ($dir)"
				else
					rm -rf "$dir"
				fi
			done
			hog_stop
			echo "$k${flavour:+ debug}, -cpu ${VM_CPU:-max,la57=off}, $cond: $n boots to '$marker', $bad failed, $splat with a splat"
			total_bad=$((total_bad + bad))
		done
	done
	echo "logs in ${logdir#"$top"/}"
	[ "$total_bad" -eq 0 ]
	;;
-h | --help | help) usage ;;
*) usage >&2; exit 2 ;;
esac
