# SPDX-License-Identifier: GPL-2.0
#
# Helpers for guest tests (busybox ash).  Source it, then:
#   plan N;  ok COND-EXIT-STATUS "description";  is GOT WANT "description"
# and end with `done_testing`, which exits non-zero if any test failed.

_tap_n=0
_tap_failed=0

plan() { echo "1..$1"; }

# pass/fail by the status of the last command: `cmd; ok $? "cmd works"`
ok() {
	_tap_n=$((_tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $_tap_n - $2"
	else
		_tap_failed=$((_tap_failed + 1))
		echo "not ok $_tap_n - $2"
	fi
}

# is GOT WANT DESC: string equality, showing both on failure
is() {
	[ "$1" = "$2" ]
	ok $? "$3"
	[ "$1" = "$2" ] || printf '#   got: "%s"\n#  want: "%s"\n' "$1" "$2"
}

diag() { echo "# $*"; }

done_testing() {
	[ "$_tap_failed" -eq 0 ] || diag "$_tap_failed of $_tap_n failed"
	[ "$_tap_failed" -eq 0 ]
}

# rotate N WORDS...: the words, starting from the N-th (mod their count),
# so that each round of a benchmark runs the schedulers in another order
rotate() {
	_n=$(($1 % ($# - 1)))
	shift
	while [ "$_n" -gt 0 ]; do
		_w=$1
		shift
		set -- "$@" "$_w"
		_n=$((_n - 1))
	done
	echo "$@"
}

# async_depth_file DEV: where DEV's async_depth is: deadline-rb's own
# queue/iosched/async_depth on Linux 6.1 and 6.12, the block layer's
# queue/async_depth on 7.2, which deadline-rb uses instead
async_depth_file() {
	if [ -e "/sys/block/$1/queue/iosched/async_depth" ] ||
	   [ ! -e "/sys/block/$1/queue/async_depth" ]; then
		echo "/sys/block/$1/queue/iosched/async_depth"
	else
		echo "/sys/block/$1/queue/async_depth"
	fi
}

# the scheduler in brackets in /sys/block/DEV/queue/scheduler
active_sched() {
	sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$1/queue/scheduler"
}

# fio_verify NAME DEV ENGINE SIZE [fio options]: crc32c-verified random
# writes then reads back; on failure, fio's report as TAP comments.
fio_verify() {
	name=$1 dev=$2 engine=$3 size=$4
	shift 4
	fio --name="$name" --filename="/dev/$dev" --direct=1 --ioengine="$engine" \
		--iodepth=32 --rw=randwrite --bs=4k --size="$size" \
		--verify=crc32c --do_verify=1 --verify_fatal=1 "$@" \
		>"/tmp/fio-$name.out" 2>&1
	rc=$?
	if [ $rc -ne 0 ] || ! grep -q 'err= 0' "/tmp/fio-$name.out"; then
		sed 's/^/# /' "/tmp/fio-$name.out"
		return 1
	fi
}

# Counted events, not counted luck: a test that needs N events of a kind
# during I/O keeps the I/O going until it has seen them, or a deadline
# passes, rather than counting what one run of fixed length happened to
# give.
#
# loop_start NAME CMD...: run CMD again and again in the background until
# asked to stop (NAME: letters, digits, _).  CMD sees the number of the
# pass in $loop_pass (0, 1, ...); /tmp/loop-NAME.runs holds "PASSES FAILED"
# of the passes ended so far.  The usual shape: go on with what the test
# counts while loop_running NAME, and loop_end NAME once it has counted
# enough; the pass under way then ends, with the counting still going on.
loop_start() {
	_ln=$1
	shift
	rm -f "/tmp/loop-$_ln.stop"
	echo "0 0" >"/tmp/loop-$_ln.runs"
	(
		loop_pass=0 _lf=0
		while [ ! -e "/tmp/loop-$_ln.stop" ]; do
			"$@" || _lf=$((_lf + 1))
			loop_pass=$((loop_pass + 1))
			echo "$loop_pass $_lf" >"/tmp/loop-$_ln.runs"
		done
	) &
	eval "_loop_pid_$_ln=\$!"
}
# loop_end NAME: start no further pass
loop_end() { touch "/tmp/loop-$1.stop"; }
# loop_running NAME: is a pass under way?
loop_running() { eval "kill -0 \$_loop_pid_$1" 2>/dev/null; }
# loop_stop NAME: loop_end, and wait for the pass under way; then
# $loop_passes passes have ended, $loop_failed of them failed.  (Not in
# $(...): a subshell cannot wait for the loop.)
loop_stop() {
	loop_end "$1"
	eval "wait \$_loop_pid_$1"
	read -r loop_passes loop_failed <"/tmp/loop-$1.runs"
}
# count_reached FILE WANT: FILE's first number (a count another process
# keeps there) is WANT or more
count_reached() {
	read -r _c _ <"$1"
	[ "${_c:-0}" -ge "$2" ]
}
# now_s: seconds since boot (the guest's clock)
now_s() { cut -d. -f1 /proc/uptime; }
# wait_until SECONDS CMD...: run CMD every 50 ms until it succeeds (0) or
# SECONDS pass (1): a wait for an event, not a sleep that hopes for one
wait_until() {
	_wl=$(($(now_s) + $1))
	shift
	until "$@"; do
		[ "$(now_s)" -lt "$_wl" ] || return 1
		sleep 0.05
	done
}
