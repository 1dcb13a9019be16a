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
# kernels, default "6.1 6.12 7.2"), CHECK_STOCK_KERNELS (Debian's, default
# "debian-6.1 debian-6.12 debian-7.2"; empty for none), CHECK_HOST=0 (no
# host tiers), CHECK_SERIAL=0 (no guest tiers but the timed ones), and
# CHECK_LANES (lanes that start on the guest tiers, beside the timed
# tiers' and the host tiers'; default 1).
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
logdir=$top/build/logs/check-$(date +%Y%m%d-%H%M%S)
mkdir -p "$logdir"
passed=0
failed=0
t0=$SECONDS		# when the running tier started

# recap: pass a failure's lines through, and keep them for the summary
# at the end, where a log that shows only its last lines (CI's) has them
recap() {
	tee -a "$logdir/failures"
}

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
	grep '^not ok ' "$file" | sed "s|^|  $name: |" | recap
	if [ "$planned" -ne "$ran" ]; then
		echo "  $name: planned $planned tests, ran $ran" | recap
		f=$((f + 1))
	elif [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "  $name: exited with status $status although every test passed" | recap
		f=$((f + 1))
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	printf '%-28s %3d passed, %d failed  (%d s)\n' "$name" "$p" "$f" "$((SECONDS - t0))"
}

# A host tier: a command that prints TAP.  host_run runs it (in the host
# lane, beside the guests), host_count adds its results to the totals.
host_run() {
	local name=$1 t=$SECONDS
	shift
	"$@" >"$logdir/$name.tap" 2>"$logdir/$name.err"
	put_status "$name" "$?" "$((SECONDS - t))"
}
host_count() {
	local name=$1 status secs
	read -r status secs <"$logdir/$name.status"
	t0=$((SECONDS - secs))
	count_tap "$name" "$logdir/$name.tap" "$status"
	[ "$status" -eq 0 ] || sed 's/^/  | /' "$logdir/$name.err" | tail -n 20 | recap
}
# put_status NAME STATUS SECONDS: a job's end, written in one rename so
# that the main shell, polling for it, never reads half of it
put_status() {
	echo "$2 $3" >"$logdir/$1.status.tmp"
	mv "$logdir/$1.status.tmp" "$logdir/$1.status"
}

# A guest tier: a script run through tests/vm in a kernel's guest, our
# own kernels in their debug flavour, Debian's stock kernels as they are.
# Lanes run them (guest_run), the main shell counts them (guest_count).
# guest_kind KERNEL KIND: how a tier's guest ran, for its heading
guest_kind() {
	case $1 in debian-*) printf 'stock guest' ;; *) printf 'debug guest' ;; esac
	[ "$2" != timed ] || printf ', instruction-clocked'
}
# guest_run NAME KERNEL SCRIPT: the boot alone; its status and time go
# to NAME.status, for guest_count.  A boot of Debian's kernel prepares
# its kernel, module and initramfs in place, so boots of those kernels
# (and dkms-deb, which prepares one too) take turns, whatever lane they
# run in.
guest_run() {
	local name=$1 k=$2 flavour=--debug t=$SECONDS lock status
	shift 2
	mkdir -p "$logdir/$k"
	case $k in
	debian-*)
		flavour=
		exec {lock}>"$logdir/.stock.lock"
		flock "$lock"
		;;
	esac
	# shellcheck disable=SC2086
	VM_LOGDIR=$logdir/$name tests/vm run --kernel "$k" $flavour -q "$@" \
		>"$logdir/$name.out" 2>&1
	status=$?
	[ -z "${lock:-}" ] || exec {lock}>&-
	put_status "$name" "$status" "$((SECONDS - t))"
}
guest_count() {
	local name=$1 status secs
	read -r status secs <"$logdir/$name.status"
	t0=$((SECONDS - secs))
	if [ -f "$logdir/$name/latest/output.log" ]; then
		count_tap "$name" "$logdir/$name/latest/output.log" "$status"
	else
		echo "  $name: no output from the guest (status $status)" | recap
		failed=$((failed + 1))
		printf '%-28s %3d passed, %d failed  (%d s)\n' "$name" 0 1 "$secs"
	fi
	[ "$status" -eq 0 ] || grep '^tests/vm' "$logdir/$name.out" | sed 's/^/  | /' | recap
}

# The lanes.  Two queues of guest tiers: the timed ones, on the
# instruction-clocked guest (one host thread each, and immune to the
# host's load, so they need not wait for a quiet host), and the others.  A
# lane takes the tiers of a queue one at a time, in the queue's order, and
# then those of the other; a lane claims a tier by creating its claim
# directory, which only one can do.  run_queue QUEUE: timed or guest.
run_queue() {
	local q=$1 i k t sc
	local -n queue=$q
	for i in "${!queue[@]}"; do
		mkdir "$logdir/.claim-$q-$i" 2>/dev/null || continue
		read -r k t sc <<<"${queue[$i]}"
		if [ "$q" = timed ]; then
			VM_ICOUNT=$icount guest_run "$k/$t" "$k" "$sc"
		else
			guest_run "$k/$t" "$k" "$sc"
		fi
	done
}

# Results are counted in the main shell, in the order the tiers were
# listed, as they come in: drain counts each finished job once.
# drain [all]: with "all", every job is over and one without a status
# failed to run
declare -A counted=()
drain() {
	local n kind name held=
	for n in "${!jobs[@]}"; do
		read -r kind name <<<"${jobs[$n]}"
		[ -z "${counted[$n]:-}" ] || continue
		# host tiers in their order: none before the one still running
		[ "$kind$held" != host1 ] || continue
		if [ ! -f "$logdir/$name.status" ]; then
			[ "$kind" != host ] || held=1
			[ "${1:-}" = all ] || continue
			echo "  $name: did not run to its end (no status)" | recap
			failed=$((failed + 1))
			printf '%-28s %3d passed, %d failed\n' "$name" 0 1
		elif [ "$kind" = host ]; then
			echo "== $name"
			host_count "$name"
		elif [ "$kind" = kunit ]; then
			echo "== $name (debug guest, kunit.py parse)"
			kunit_count "$name"
		else
			echo "== $name ($(guest_kind "${name%%/*}" "$kind"))"
			guest_count "$name"
		fi
		counted[$n]=1
	done
}

# The engine's KUnit suite: KTAP from the guest, parsed by the tree's own
# tools/testing/kunit/kunit.py.
kunit_count() {
	local name=$1 kernel=${1%%/*} status secs ksrc summary n p f
	read -r status secs <"$logdir/$name.status"
	ksrc=$(KERNEL=$kernel scripts/kernel.sh src)
	python3 "$ksrc/tools/testing/kunit/kunit.py" parse \
		<"$logdir/$name/latest/output.log" >"$logdir/$name.parsed" 2>&1
	summary=$(grep -o 'Ran [0-9]* tests: .*' "$logdir/$name.parsed" | tail -n 1)
	n=$(echo "$summary" | sed -n 's/^Ran \([0-9]*\) tests.*/\1/p')
	p=$(echo "$summary" | sed -n 's/.*passed: \([0-9]*\).*/\1/p')
	n=${n:-0}
	p=${p:-0}
	grep -E '\[(FAILED|CRASHED)\]' "$logdir/$name.parsed" | sed "s|^|  $name: |" | recap
	f=$((n - p))
	if [ "$n" -eq 0 ] || [ "$status" -ne 0 ]; then
		echo "  $name: no KUnit results, or the guest run failed (status $status)" | recap
		f=$((f + 1))
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	printf '%-28s %3d passed, %d failed  (%d s)\n' "$name" "$p" "$f" "$secs"
	[ "$status" -eq 0 ] || grep '^tests/vm' "$logdir/$name.out" | sed 's/^/  | /' | recap
}

# The kernel series every guest tier runs on, each on its debug kernel.
read -ra kernels <<<"${CHECK_KERNELS-6.1 6.12 7.2}"
# and Debian's stock kernels, with deadline-rb built for them
read -ra stocks <<<"${CHECK_STOCK_KERNELS-debian-6.1 debian-6.12 debian-7.2}"
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
# (deps first, in its own make: it fetches 7.2's source, whose version
# names the kernel's build directory when make starts)
for kernel in "${kernels[@]}"; do
	if ! make -s --no-print-directory deps KERNEL="$kernel" ||
	   ! make -s --no-print-directory initramfs KERNEL="$kernel" FLAVOUR=debug; then
		echo "make check: building the $kernel debug kernel failed"
		echo "0 passed, 1 failed"
		exit 1
	fi
done

# our kernels and their initramfs were built above: guests of one kernel
# may now run side by side, and boot what is built
export VM_PREBUILT=1
# tests/vm's limit for a boot is a hang detector on the wall clock, and a
# busy host stretches every tier: beside make check-stress's CPU hog they
# took 2.3 to 2.5 times as long (sched-prio 460 s against 186, hdd-model
# 282 against 125), and sched-io and sched-policy, whose scripts passed
# every test, were cut at 600 s while the guest shut down.  Three times
# the 600 s they overran: a hang still fails, later.
export VM_TIMEOUT=${VM_TIMEOUT:-1800}

# The timed tiers, longest first (on a debug kernel, sched-policy takes
# about 3 minutes of a host CPU, sched-prio 1.7, the disk model 1.2;
# sched-prio under 1 on Debian's).  The seek-modelled disk is the bench's,
# on 6.1; style.sh builds it for 6.12 and 7.2.
timed=()
for kernel in "${kernels[@]}"; do timed+=("$kernel sched-policy tests/guest/sched-policy.sh"); done
for kernel in "${kernels[@]}"; do timed+=("$kernel sched-prio tests/guest/sched-prio.sh"); done
for kernel in "${kernels[@]}"; do
	[ "$kernel" != 6.1 ] || timed+=("$kernel hdd-model tests/guest/hdd.sh")
done
for kernel in "${stocks[@]}"; do
	timed+=("$kernel sched-prio tests/guest/sched-prio.sh")
done

# The other guest tiers, on every debug kernel, and on Debian's stock
# kernels with deadline-rb built for them (by DKMS; 7.2's from its
# linux-source) those that prove the module, its priority classes and the
# tool there (the rest need our debug kernels), and udev's rule, whose
# kernel side (hot-add, a switch, removal with deadline-rb attached)
# sched-io covers on the debug kernels.  Longest first, so that no lane is
# left with a long one at the end: on a debug kernel sched-io takes about
# 4.5 minutes of a host CPU, guest-lab 2.3, dlctl-profile 1.7, sched-paths
# 1.4, sched-sysfs 1.3, dlctl-guest 0.8, kunit-engine 0.6.
guest=()
add_guest() {
	local t=$1 sc=$2 k
	shift 2
	for k in "$@"; do guest+=("$k $t $sc"); done
}
if [ "${CHECK_SERIAL:-1}" != 0 ]; then
	add_guest sched-io tests/guest/sched-io.sh "${kernels[@]}" "${stocks[@]}"
	add_guest guest-lab tests/guest/lab.sh "${kernels[@]}"
	add_guest dlctl-profile tests/guest/profile.sh "${kernels[@]}"
	add_guest sched-paths tests/guest/sched-paths.sh "${kernels[@]}"
	add_guest sched-sysfs tests/guest/sched-sysfs.sh "${kernels[@]}" "${stocks[@]}"
	add_guest dlctl-guest tests/guest/dlctl.sh "${kernels[@]}" "${stocks[@]}"
	add_guest kunit-engine tests/guest/kunit.sh "${kernels[@]}"
	add_guest dlctl-udev tests/guest/udev.sh "${stocks[@]}"
fi

# The lanes: the host tiers, one after another (CHECK_HOST=0: none, for
# make check-stress), then guest tiers; a lane that starts on the timed
# tiers; and CHECK_LANES (default 1) that start on the other guest tiers.
# A debug guest keeps one to two of this host's two cores busy, a timed
# one one: three lanes keep both busy, and once the timed and host tiers
# are done, their lanes share the guest tiers' queue, so that no kernel's
# tiers wait for another's in one long line.  The host tiers run at nice
# 10, so that the tiers that hunt races are slowed less by them.  The
# guests do not: a guest at nice 10 gets a tenth of what nice-0 work
# beside it gets, and beside make check-stress's CPU hog sched-policy had
# 7% of a core and had reached its 11th test of 24 in 27 minutes, on its
# way to the 1800 s hang limit above.  The guest clock does not care how
# slow it runs; the wall-clock hang limit does.
host_lane() {
	local lock
	STYLE_KERNELS="${kernels[*]}" host_run style tests/host/style.sh
	make -s --no-print-directory build/dlctl-asan build/dlctl-debug >/dev/null
	host_run dlctl-asan tests/host/dlctl.sh
	DLCTL="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=all \
		$top/build/dlctl-debug" host_run dlctl-valgrind tests/host/dlctl.sh
	host_run dlctl-completion tests/host/completion.sh
	# its guests at nice 0, as every guest: at nice 10 beside two guests
	# of the other lanes, a debug guest's vCPU could wait long enough for
	# the guest to see a splat, and its passing run came back as 125
	host_run vm-runner nice -n -10 tests/host/vm-runner.sh
	# it prepares Debian's kernels, as their boots do (guest_run)
	exec {lock}>"$logdir/.stock.lock"
	flock "$lock"
	host_run dkms-deb tests/host/dkms.sh
	exec {lock}>&-
}
jobs=()
if [ "${CHECK_HOST:-1}" != 0 ]; then
	for t in style dlctl-asan dlctl-valgrind dlctl-completion vm-runner dkms-deb; do
		jobs+=("host $t")
	done
fi
for t in "${guest[@]}"; do
	read -r kernel t _ <<<"$t"
	if [ "$t" = kunit-engine ]; then jobs+=("kunit $kernel/$t"); else jobs+=("guest $kernel/$t"); fi
done
for t in "${timed[@]}"; do
	read -r kernel t _ <<<"$t"
	jobs+=("timed $kernel/$t")
done
# A check cut short takes its lanes with it, guests and all.
lanes=()
kill_tree() {
	local c
	for c in $(pgrep -P "$1"); do kill_tree "$c"; done
	kill "$1" 2>/dev/null
}
kill_lanes() {
	local l
	for l in "${lanes[@]}"; do kill_tree "$l"; done
}
trap kill_lanes EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
if [ "${CHECK_HOST:-1}" != 0 ]; then
	( (renice -n 10 -p $BASHPID >/dev/null; host_lane); run_queue guest; run_queue timed) &
	lanes+=($!)
fi
if [ ${#timed[@]} -gt 0 ]; then
	(run_queue timed; run_queue guest) &
	lanes+=($!)
fi
nlanes=${CHECK_LANES:-1}
case $nlanes in '' | *[!0-9]*) echo "make check: CHECK_LANES: a number, not '$nlanes'"; exit 2 ;; esac
if [ ${#guest[@]} -gt 0 ]; then
	for ((l = 0; l < nlanes; l++)); do
		(run_queue guest; run_queue timed) &
		lanes+=($!)
	done
fi

# The main shell counts the lanes' results as they come in.
while :; do
	drain
	alive=0
	for l in "${lanes[@]}"; do
		! kill -0 "$l" 2>/dev/null || alive=1
	done
	[ "$alive" -eq 1 ] || break
	sleep 5
done
wait "${lanes[@]}"
drain all

if [ $((passed + failed)) -eq 0 ]; then
	echo "make check: no test ran (CHECK_KERNELS, CHECK_STOCK_KERNELS and CHECK_HOST chose none)"
	failed=1
fi
if [ -s "$logdir/failures" ]; then
	n=$(wc -l <"$logdir/failures")
	echo "what failed ($n lines; all of them in ${logdir#"$top"/}/failures):"
	head -n 20 "$logdir/failures"
fi
echo "make check: $((SECONDS - start)) s, logs in ${logdir#"$top"/}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
