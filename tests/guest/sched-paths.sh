#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# deadline-rb on the paths that plain I/O does not take: a zoned disk (one
# write per sequential zone in flight, in order, up to 6.9), requeues and
# at-head inserts (null_blk's fault injection), merges found at insert time
# through the scheduler's own hash, front merges, and scheduler tags kept
# from writes (async_depth).  Each check is one that the scheduler without
# its fix fails: writes out of order in a zone are I/O errors; an
# insert-merge lookup that finds nothing merges a quarter of what
# mq-deadline merges on the same batches.
. /tests/guest/lib.sh

plan 19

DEV=nullb0
Q=/sys/block/$DEV/queue
STATS=/sys/kernel/debug/block/$DEV/sched/stats

# counter NAME DIR(2=read,3=write) from deadline-rb's debugfs stats
counter() { awk -v n="$1" -v c="$2" '$1 == n { print $c }' $STATS; }
# disk_stat FIELD of /sys/block/DEV/stat: 5 writes, 6 write merges, 7 sectors
disk_stat() { awk -v f="$1" '{ print $f }' /sys/block/$DEV/stat; }
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
	done
	echo "$i $bad" >/tmp/flips
}
rm -f /tmp/stop
flipper &
fpid=$!
zbd_fio zbd-flip 64M
r=$?
touch /tmp/stop
wait $fpid
ok $r "fio zonemode=zbd while schedulers and tunables flip: 0 errors"
read -r flips bad </tmp/flips
[ "$flips" -ge 6 ] && [ "$bad" -eq 0 ]
ok $? "the flipper went round $flips times (at least 6), every write accepted ($bad refused)"

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

# --- insert-time merges: batches of 32 random 4 KiB writes in a 256 KiB
# region, each batch one io_submit (one plug), so that neighbours meet only
# when the plug is inserted.  The same seed gives every scheduler the same
# batches.
nullb
insert_batches() {
	echo "$1" >$Q/scheduler
	w0=$(disk_stat 5) m0=$(disk_stat 6) s0=$(disk_stat 7)
	fio --name=insert --filename=/dev/$DEV --direct=1 --ioengine=libaio \
		--rw=randwrite --bs=4k --size=256k --io_size=4m --norandommap \
		--randrepeat=1 --randseed=42 --iodepth=32 --iodepth_batch_submit=32 \
		--iodepth_batch_complete_min=32 >"/tmp/fio-insert-$1.out" 2>&1 ||
		sed 's/^/# /' "/tmp/fio-insert-$1.out"
	ios=$(( $(disk_stat 5) - w0 ))
	merges=$(( $(disk_stat 6) - m0 ))
	sectors=$(( $(disk_stat 7) - s0 ))
	diag "$1: $ios write requests, $merges merges, $sectors sectors"
}
insert_batches deadline-rb
rb_merges=$merges rb_size=$((sectors * 100 / ios))
merged_rq=$(counter merged_rq 3)
insert_batches mq-deadline
mq_merges=$merges
insert_batches none
none_size=$((sectors * 100 / ios))
[ "$merged_rq" -gt 0 ]
ok $? "deadline-rb merged requests as they were inserted (merged_rq $merged_rq)"
[ $((rb_merges * 4)) -ge $((mq_merges * 3)) ]
ok $? "deadline-rb merges at least 3/4 of what mq-deadline does on the same batches ($rb_merges vs $mq_merges)"
[ "$rb_size" -gt "$none_size" ]
ok $? "the disk saw larger writes under deadline-rb than under none ($rb_size vs $none_size hundredths of a sector)"

# --- front merges: four writers going down the disk, each bio ending where
# the writer's last queued request starts, on a disk that takes 20 ms a
# request.  The core's one-hit cache (q->last_merge) front-merges too, but
# with four streams it mostly points at another writer's request.
nullb irqmode=2 completion_nsec=20000000 hw_queue_depth=1
front() {
	echo none >$Q/scheduler		# a new instance: counters from 0
	echo deadline-rb >$Q/scheduler
	echo 256 >$Q/nr_requests
	echo "$1" >$Q/iosched/front_merges
	w0=$(disk_stat 5)
	fio --name=down --filename=/dev/$DEV --direct=1 --ioengine=libaio \
		--iodepth=8 --rw=write:-8k --bs=4k --size=512k --numjobs=4 \
		--offset_increment=1M >/tmp/fio-front.out 2>&1 ||
		sed 's/^/# /' /tmp/fio-front.out
	ios=$(( $(disk_stat 5) - w0 ))
	fm=$(counter merged_front 3)
	diag "front_merges $1: $ios write requests, merged_front $fm"
}
front 1
ios1=$ios fm1=$fm
front 0
ios0=$ios fm0=$fm
[ "$fm1" -gt 0 ] && [ "$fm0" -lt $((fm1 / 2)) ]
ok $? "front_merges 1 front-merges over twice as many bios as 0 ($fm1 vs $fm0)"
[ "$ios0" -gt $((ios1 * 2)) ]
ok $? "... and the disk sees under half the requests ($ios1 vs $ios0)"

# --- scheduler tags: a write flood from 8 submitters at depth 32 each,
# beyond nr_requests (64), and one reader at depth 1, on a disk taking 10 ms
# a request.  Writes may hold async_depth tags at once: the most tags in
# use (sampled from debugfs) is at most that plus the reader's one, and the
# reader, no longer queued for tags behind the writers, does far more reads
# (2x to 2.5x, 420-450 against 165-230, on 6.1 and 6.12).  Batches of two
# scattered writes (seek_cost 16 in fifo_batch 32, the defaults before
# 0.7.0) keep the reader from waiting behind a write batch: at the defaults,
# 16 of them, a read waits for one, and that is what the test would measure
# (124 against 88 reads).
nullb irqmode=2 completion_nsec=10000000 hw_queue_depth=1
tags() {
	echo none >$Q/scheduler
	echo deadline-rb >$Q/scheduler
	echo 64 >$Q/nr_requests
	echo 32 >$Q/iosched/fifo_batch
	echo 16 >$Q/iosched/seek_cost
	[ "$1" = default ] || echo "$1" >$Q/iosched/async_depth
	depth=$(cat $Q/iosched/async_depth)
	fio --output-format=terse --terse-version=3 \
		--name=flood --filename=/dev/$DEV --direct=1 --ioengine=libaio \
		--iodepth=32 --numjobs=8 --group_reporting --rw=randwrite --bs=4k \
		--size=512M --time_based --runtime=6 \
		--name=reader --filename=/dev/$DEV --direct=1 --ioengine=psync \
		--rw=randread --bs=4k --size=512M --time_based --runtime=4 \
		--startdelay=1 >/tmp/fio-tags.out 2>&1 &
	fpid=$!
	busy=0
	while kill -0 $fpid 2>/dev/null; do
		b=$(sed -n 's/^busy=//p' /sys/kernel/debug/block/$DEV/hctx0/sched_tags |
			head -n 1)
		[ "${b:-0}" -gt "$busy" ] && busy=$b
		sleep 0.1
	done
	wait $fpid || sed 's/^/# /' /tmp/fio-tags.out
	# terse v3: 6 read ios, 40 mean completion latency (us)
	reads=$(awk -F';' '$3 == "reader" { print $6 }' /tmp/fio-tags.out)
	lat=$(awk -F';' '$3 == "reader" { print int($40) }' /tmp/fio-tags.out)
	diag "async_depth $depth: at most $busy tags in use; the reader did $reads reads, mean latency $lat us"
}
tags default
is "$depth" 64 "async_depth defaults to nr_requests (64)"
[ "$busy" -gt 17 ]
ok $? "at the default the writes hold more than 16 tags ($busy)"
reads64=${reads:-0}
tags 16
[ "$busy" -le 17 ]
ok $? "at async_depth 16 at most 17 tags are in use ($busy)"
[ "${reads:-0}" -gt $((reads64 * 3 / 2)) ]
ok $? "... and the reader does over 1.5x the reads ($reads against $reads64)"

echo none >$Q/scheduler
done_testing
