#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# deadline-rb on the paths that plain I/O does not take, where races hide
# (two CPUs, the wall clock): a zoned disk (one write per sequential zone
# in flight, in order, up to 6.9), and requeues and at-head inserts
# (null_blk's fault injection).  Each check is one that the scheduler
# without its fix fails: writes out of order in a zone are I/O errors.
# Merges and scheduler tags, which are counted and timed, are
# sched-policy's, on the instruction-clocked guest.
. /tests/guest/lib.sh

plan 10

DEV=nullb0
Q=/sys/block/$DEV/queue
STATS=/sys/kernel/debug/block/$DEV/sched/stats

# counter NAME DIR(2=read,3=write) from deadline-rb's debugfs stats
counter() { awk -v n="$1" -v c="$2" '$1 == n { print $c }' $STATS; }
# null_blk as nullb0 with PARAMS
nullb() { rmmod null_blk 2>/dev/null; modprobe null_blk nr_devices=1 gb=1 "$@"; }

# --- zoned: 4 conventional zones of 4 MiB, the rest sequential; 10% of
# requests requeued, which reorders writes unless each zone has one in flight
nullb memory_backed=1 zoned=1 zone_size=4 zone_nr_conv=4 requeue=1,10,0,-1
is "$(cat $Q/zoned)" host-managed "a host-managed zoned null_blk with requeues injected"
echo deadline-rb >$Q/scheduler
is "$(active_sched $DEV)" deadline-rb "deadline-rb can be chosen on a zoned disk"

# zbd_fio NAME: four jobs of sequential 8 KiB writes at depth 16, in 8 MiB
# regions (the first two conventional, the others sequential), verified.
# --zonesize: fio 3.33 asserts without it when a region starts at 0.
zbd_fio() {
	name=$1 offset=$2
	shift 2
	fio --name="$name" --filename=/dev/$DEV --direct=1 --ioengine=libaio \
		--zonemode=zbd --zonesize=4M --iodepth=16 --rw=write --bs=8k \
		--numjobs=4 --size=8M --offset="$offset" --offset_increment=8M \
		--verify=crc32c --do_verify=1 --verify_fatal=1 --group_reporting "$@" \
		>"/tmp/fio-$name.out" 2>&1
	rc=$?
	if [ $rc -ne 0 ] || ! grep -q 'err= 0' "/tmp/fio-$name.out"; then
		sed 's/^/# /' "/tmp/fio-$name.out"
		return 1
	fi
}
# Half the writes real-time (per I/O, libaio's cmdprio): a zone's writes
# must still reach it in order, so deadline-rb keeps them best-effort.
zbd_fio zbd 0 --cmdprio_percentage=50 --cmdprio_class=1
ok $? "fio zonemode=zbd, 4 jobs at depth 16, half the writes RT, crc32c verified: 0 errors"
# RT writes to the conventional zones (the first two regions) stay RT:
# the priorities did reach the scheduler.  Those to sequential zones,
# queued RT, would overtake best-effort writes to their zone (tried:
# fio then fails with unaligned-write I/O errors).
[ "$(counter rt_inserted 3)" -gt 0 ]
ok $? "RT writes reached deadline-rb as RT where zones allow ($(counter rt_inserted 3) to conventional zones)"
diag "$(tr '\n' ' ' <$STATS)"
[ "$(counter dispatched 3)" -gt 0 ] && [ "$(counter requeued 3)" -gt 0 ]
ok $? "deadline-rb dispatched the writes, $(counter requeued 3) of them requeued"

# The same while the scheduler flips to mq-deadline and back and every
# tunable changes; each write the flipper makes must succeed.
flipper() {
	i=0
	bad=0
	while [ ! -e /tmp/stop ]; do
		if [ $((i % 3)) -eq 0 ]; then
			echo mq-deadline >$Q/scheduler || bad=$((bad + 1))
		else
			echo deadline-rb >$Q/scheduler || bad=$((bad + 1))
			for kv in fifo_batch=$((i % 9 + 1)) seek_cost=$((i % 5 + 1)) \
				writes_starved=$((i % 3)) read_expire=$((i % 50 + 1)) \
				write_expire=$((i % 70 + 1)) front_merges=$((i % 2)) \
				hash_shift=$((i % 9 + 4)); do
				echo "${kv#*=}" >"$Q/iosched/${kv%%=*}" || bad=$((bad + 1))
			done
		fi
		i=$((i + 1))
		echo "$i $bad" >/tmp/flips
	done
}
# fio goes on, pass after pass in regions of its own (each pass resets
# the zones it writes), until the flipper has gone round 6 times; the
# flipper goes on until the pass under way ends.  Each round counted is
# one made during I/O.
zbd_pass() { zbd_fio zbd-flip $((64 + loop_pass % 28 * 32))M; }
WANT=6
LIMIT=300
rm -f /tmp/stop
echo "0 0" >/tmp/flips
loop_start zbd zbd_pass
flipper &
fpid=$!
met=0
wait_until $LIMIT count_reached /tmp/flips $WANT && met=1
loop_stop zbd
touch /tmp/stop
wait $fpid
[ "$loop_failed" -eq 0 ]
ok $? "fio zonemode=zbd while schedulers and tunables flip: $loop_passes passes, 0 errors ($loop_failed failed)"
read -r flips bad </tmp/flips
[ $met -eq 1 ] && [ "$bad" -eq 0 ]
ok $? "the flipper went round $flips times during I/O (at least $WANT; limit $LIMIT s), every write accepted ($bad refused)"

# --- requeues on a plain disk: 20% of requests handed back by the driver
# come back at the head, onto the dispatch list
nullb memory_backed=1 requeue=1,20,0,-1
echo deadline-rb >$Q/scheduler
# every insert shows as a block_rq_insert event, sorted or not (blktrace's
# I): only the disk's events, in a buffer that holds them all
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs none $T
ev=$T/events/block/block_rq_insert
IFS=: read -r maj min </sys/block/$DEV/dev
echo 16384 >$T/buffer_size_kb
echo "dev == $(( (maj << 20) | min ))" >$ev/filter
: >$T/trace
echo 1 >$ev/enable
fio_verify requeue $DEV libaio 16M
ok $? "fio verify with 20% of requests requeued: 0 errors"
echo 0 >$ev/enable
traced=$(grep -c ' block_rq_insert: ' $T/trace)
echo 0 >$ev/filter
diag "$(tr '\n' ' ' <$STATS)"
req=$(( $(counter requeued 2) + $(counter requeued 3) ))
uns=$(( $(counter unsorted 2) + $(counter unsorted 3) ))
ins=$(( $(counter inserted 2) + $(counter inserted 3) ))
[ "$req" -gt 0 ] && [ "$uns" -ge "$req" ]
ok $? "requeued requests ($req) came back through the dispatch list ($uns unsorted)"
# inserted counts a request once in the sort, unsorted each trip through
# the dispatch list (every requeue above: at the head); once each, no more
[ "$traced" -eq $((ins + uns)) ]
ok $? "block_rq_insert traced every insert once, at the head too ($traced for $ins sorted, $uns unsorted)"

echo none >$Q/scheduler
done_testing
