#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: every test tier, then one line "N passed, N failed".
#
# Each tier speaks TAP.  A tier that dies, exits non-zero without a failing
# test, or runs fewer tests than it planned counts as one more failure, so
# a crash can never pass for green.  Logs go under build/logs/check-*/.
#
# For tests/stress.sh (make check-stress): CHECK_KERNELS (our debug
# kernels, default "6.1 6.12"), CHECK_STOCK_KERNELS (Debian's, default
# "debian-6.1 debian-6.12"; empty for none), CHECK_HOST=0 (no host tiers),
# CHECK_SERIAL=0 (no guest tiers but the timed ones).
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
logdir=$top/build/logs/check-$(date +%Y%m%d-%H%M%S)
mkdir -p "$logdir"
passed=0
failed=0
t0=$SECONDS		# when the running tier started

# count_tap NAME FILE STATUS: add FILE's results to the totals
count_tap() {
	local name=$1 file=$2 status=$3 counts p f planned ran
	counts=$(awk '
		/^ok /      { p++ }
		/^not ok /  { f++ }
		/^1\.\.[0-9]+/ { sub(/^1\.\./, ""); plan = $0 + 0 }
		END { printf "%d %d %d\n", p, f, plan }' "$file")
	read -r p f planned <<<"$counts"
	ran=$((p + f))
	grep '^not ok ' "$file" | sed "s|^|  $name: |"
	if [ "$planned" -ne "$ran" ]; then
		echo "  $name: planned $planned tests, ran $ran"
		f=$((f + 1))
	elif [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "  $name: exited with status $status although every test passed"
		f=$((f + 1))
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	printf '%-28s %3d passed, %d failed  (%d s)\n' "$name" "$p" "$f" "$((SECONDS - t0))"
}

# A host tier: a command that prints TAP.
host_tier() {
	local name=$1 status
	shift
	echo "== $name"
	t0=$SECONDS
	"$@" >"$logdir/$name.tap" 2>"$logdir/$name.err"
	status=$?
	count_tap "$name" "$logdir/$name.tap" "$status"
	[ "$status" -eq 0 ] || sed 's/^/  | /' "$logdir/$name.err" | tail -n 20
}

# A guest tier: a script run through tests/vm in the $kernel guest, our
# own kernels in their debug flavour, Debian's stock kernels as they are.
guest_tier() {
	local name=$kernel/$1
	shift
	echo "== $name ($(guest_kind "$kernel"))"
	guest_run "$name" "$kernel" "$@"
	guest_count "$name"
}
guest_kind() {
	case $1 in debian-*) printf 'stock guest' ;; *) printf 'debug guest' ;; esac
	printf '%s' "${VM_ICOUNT:+, instruction-clocked}"
}
# guest_run NAME KERNEL SCRIPT: the boot alone; its status and time go
# to NAME.status, for guest_count
guest_run() {
	local name=$1 k=$2 flavour=--debug t=$SECONDS
	shift 2
	case $k in debian-*) flavour= ;; esac
	mkdir -p "$logdir/$k"
	# shellcheck disable=SC2086
	VM_LOGDIR=$logdir/$name tests/vm run --kernel "$k" $flavour -q "$@" \
		>"$logdir/$name.out" 2>&1
	echo "$? $((SECONDS - t))" >"$logdir/$name.status"
}
guest_count() {
	local name=$1 status secs
	read -r status secs <"$logdir/$name.status"
	t0=$((SECONDS - secs))
	if [ -f "$logdir/$name/latest/output.log" ]; then
		count_tap "$name" "$logdir/$name/latest/output.log" "$status"
	else
		echo "  $name: no output from the guest (status $status)"
		failed=$((failed + 1))
		printf '%-28s %3d passed, %d failed  (%d s)\n' "$name" 0 1 "$secs"
	fi
	[ "$status" -eq 0 ] || grep '^tests/vm' "$logdir/$name.out" | sed 's/^/  | /'
}

# The timed tiers, on the instruction-clocked guest: one host thread each,
# and immune to the host's load, so they run two at a time, but never two
# on Debian's kernels (each boot prepares its kernel and initramfs, and
# the preparations share a cache).  Longest first; each is counted as it
# ends.
# timed_tiers "KERNEL TIER SCRIPT"...
timed_tiers() {
	local pending=("$@") i k t sc pid stock=0
	local -A job=()
	while [ ${#pending[@]} -gt 0 ] || [ ${#job[@]} -gt 0 ]; do
		# start what fits: two at a time, one of them on a stock kernel
		for i in "${!pending[@]}"; do
			[ ${#job[@]} -lt 2 ] || break
			read -r k t sc <<<"${pending[$i]}"
			case $k in debian-*) [ $stock -eq 0 ] || continue; stock=1 ;; esac
			echo "== $k/$t ($(guest_kind "$k"), instruction-clocked, two at a time)"
			VM_ICOUNT=$icount guest_run "$k/$t" "$k" "$sc" &
			job[$!]="$k/$t"
			unset "pending[$i]"
		done
		pending=("${pending[@]}")
		wait -n -p pid "${!job[@]}"
		guest_count "${job[$pid]}"
		timed_counted=$((timed_counted + 1))
		case ${job[$pid]} in debian-*) stock=0 ;; esac
		unset "job[$pid]"
	done
}

# The engine's KUnit suite: KTAP from the guest, parsed by the tree's own
# tools/testing/kunit/kunit.py.
kunit_tier() {
	local name=$kernel/$1 status ksrc summary n p f
	shift
	echo "== $name (debug guest, kunit.py parse)"
	t0=$SECONDS
	mkdir -p "$logdir/$kernel"
	VM_LOGDIR=$logdir/$name tests/vm run --kernel "$kernel" --debug -q "$@" \
		>"$logdir/$name.out" 2>&1
	status=$?
	ksrc=$(KERNEL=$kernel scripts/kernel.sh src)
	python3 "$ksrc/tools/testing/kunit/kunit.py" parse \
		<"$logdir/$name/latest/output.log" >"$logdir/$name.parsed" 2>&1
	summary=$(grep -o 'Ran [0-9]* tests: .*' "$logdir/$name.parsed" | tail -n 1)
	n=$(echo "$summary" | sed -n 's/^Ran \([0-9]*\) tests.*/\1/p')
	p=$(echo "$summary" | sed -n 's/.*passed: \([0-9]*\).*/\1/p')
	n=${n:-0}
	p=${p:-0}
	grep -E '\[(FAILED|CRASHED)\]' "$logdir/$name.parsed" | sed "s|^|  $name: |"
	f=$((n - p))
	if [ "$n" -eq 0 ] || [ "$status" -ne 0 ]; then
		echo "  $name: no KUnit results, or the guest run failed (status $status)"
		f=$((f + 1))
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	printf '%-28s %3d passed, %d failed  (%d s)\n' "$name" "$p" "$f" "$((SECONDS - t0))"
	[ "$status" -eq 0 ] || grep '^tests/vm' "$logdir/$name.out" | sed 's/^/  | /'
}

# The kernel series every guest tier runs on, each on its debug kernel.
kernels=(${CHECK_KERNELS-6.1 6.12})
# Tiers whose assertions are latencies or rates run on the
# instruction-clocked guest (one CPU, guest time counted in guest
# instructions), where the host's load cannot stretch them; tiers that
# hunt races keep two vCPUs and the wall clock.  Shift 0 (1 ns an
# instruction), not the benchmarks' 2: a debug kernel (KASAN, lockdep)
# spends about 2.5 ms of a 4-ns-an-instruction CPU on a 4 KiB I/O, so the
# CPU, not the slowed device, was what a test measured (sched-policy's
# write flood kept nothing queued on its 1 ms disk; the disk model read
# 53 of its 64.8 MB/s).
icount=0

start=$SECONDS
# Build the debug kernels and initramfs once, up front, so that a build
# failure reads as one and is not blamed on the first test.
for kernel in "${kernels[@]}"; do
	if ! make -s --no-print-directory initramfs KERNEL="$kernel" FLAVOUR=debug; then
		echo "make check: building the $kernel debug kernel failed"
		echo "0 passed, 1 failed"
		exit 1
	fi
done

# CHECK_HOST=0: the guest tiers alone (make check-stress)
if [ "${CHECK_HOST:-1}" != 0 ]; then
	STYLE_KERNELS="${kernels[*]}" host_tier style tests/host/style.sh
	make -s --no-print-directory build/dlctl-asan build/dlctl-debug >/dev/null
	host_tier dlctl-asan tests/host/dlctl.sh
	DLCTL="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=all \
		$top/build/dlctl-debug" host_tier dlctl-valgrind tests/host/dlctl.sh
	host_tier dlctl-completion tests/host/completion.sh
	host_tier vm-runner tests/host/vm-runner.sh
	host_tier dkms-deb tests/host/dkms.sh
fi
# our kernels and their initramfs were built above: guests of one kernel
# may now run side by side (the timed tiers)
export VM_PREBUILT=1
# tests/vm's limit for a boot is a hang detector on the wall clock, and a
# busy host stretches every tier: beside make check-stress's CPU hog they
# took 2.3 to 2.5 times as long (sched-prio 460 s against 186, hdd-model
# 282 against 125), and sched-io and sched-policy, whose scripts passed
# every test, were cut at 600 s while the guest shut down.  Three times
# the 600 s they overran: a hang still fails, later.
export VM_TIMEOUT=${VM_TIMEOUT:-1800}
timed_policy=() timed_prio=() timed_hdd=() timed_stock=()
for kernel in "${kernels[@]}"; do
	tier_start=$SECONDS
	if [ "${CHECK_SERIAL:-1}" != 0 ]; then
	guest_tier guest-lab tests/guest/lab.sh
	kunit_tier kunit-engine tests/guest/kunit.sh
	guest_tier sched-sysfs tests/guest/sched-sysfs.sh
	guest_tier sched-io tests/guest/sched-io.sh
	guest_tier sched-paths tests/guest/sched-paths.sh
	guest_tier dlctl-guest tests/guest/dlctl.sh
	guest_tier dlctl-profile tests/guest/profile.sh
	echo "   $kernel guest tiers: $((SECONDS - tier_start)) s"
	fi
	# (longest first: 3.5, 3 and 2 minutes here)
	timed_policy+=("$kernel sched-policy tests/guest/sched-policy.sh")
	timed_prio+=("$kernel sched-prio tests/guest/sched-prio.sh")
	# the seek-modelled disk is the bench's, on 6.1; style.sh builds it for 6.12
	[ "$kernel" != 6.1 ] || timed_hdd+=("$kernel hdd-model tests/guest/hdd.sh")
done

# Debian's stock kernels, with deadline-rb built by DKMS: the tiers that
# prove the module, its priority classes and the tool there (the rest
# need our debug kernels), and udev's rule, whose kernel side (hot-add, a
# switch, removal with deadline-rb attached) sched-io covers on the debug
# kernels.
for kernel in ${CHECK_STOCK_KERNELS-debian-6.1 debian-6.12}; do
	tier_start=$SECONDS
	if [ "${CHECK_SERIAL:-1}" != 0 ]; then
	guest_tier sched-sysfs tests/guest/sched-sysfs.sh
	guest_tier sched-io tests/guest/sched-io.sh
	guest_tier dlctl-guest tests/guest/dlctl.sh
	guest_tier dlctl-udev tests/guest/udev.sh
	echo "   $kernel guest tiers: $((SECONDS - tier_start)) s"
	fi
	timed_stock+=("$kernel sched-prio tests/guest/sched-prio.sh")
done

tier_start=$SECONDS
timed=("${timed_policy[@]}" "${timed_prio[@]}" "${timed_hdd[@]}" "${timed_stock[@]}")
timed_counted=0
[ ${#timed[@]} -eq 0 ] || timed_tiers "${timed[@]}"
if [ "$timed_counted" -ne ${#timed[@]} ]; then
	echo "  timed tiers: $timed_counted of ${#timed[@]} ran"
	failed=$((failed + ${#timed[@]} - timed_counted))
fi
echo "   timed tiers: $((SECONDS - tier_start)) s"

if [ $((passed + failed)) -eq 0 ]; then
	echo "make check: no test ran (CHECK_KERNELS, CHECK_STOCK_KERNELS and CHECK_HOST chose none)"
	failed=1
fi
echo "make check: $((SECONDS - start)) s, logs in ${logdir#"$top"/}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
