#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# deadline-rb's policy on a slow device: reads are not starved by a write
# flood, writes are not starved by reads, and sequential writes merge; then
# merges found at insert time, front merges and merges of writes to a
# zoned disk's sequential zones, and the scheduler tags that async_depth
# keeps from writes.
#
# make check runs this tier on the instruction-clocked guest (VM_ICOUNT:
# one CPU, guest time counted in guest instructions), where the host's load
# cannot stretch a latency or change a rate: every bound here is a time or
# a count of I/Os in a time.
#
# The device: null_blk completing one request at a time (hw_queue_depth=1)
# after a 1 ms timer (irqmode=2), so everything else waits in the scheduler.
# The bound for read latency is the one deadline-rb(4) states: a read
# starts within read_expire, plus the batch in progress when it expired,
# plus one write batch that writes_starved forces; a batch is at most
# fifo_batch requests (each costs >= 1 unit) of 1 ms each.  100 ms more
# are for the guest's own CPU time per request, which on the debug kernel
# (KASAN, lockdep) is of the order of the device's.
#
# The bound must be one that a plain FIFO fails: the write stream keeps
# 512 requests queued, so a read behind them waits over half a second
# under fifo-floor (a one-list FIFO elevator, built beside deadline-rb),
# which the test asserts.  The same flood under `none` shows what the sort
# and the merges are worth.
. /tests/guest/lib.sh

plan 24

C_MS=1
READ_EXPIRE=100
FIFO_BATCH=32
BOUND_US=$(( (READ_EXPIRE + 2 * FIFO_BATCH * C_MS + 100) * 1000 ))
DEV=nullb0
Q=/sys/block/$DEV/queue
STATS=/sys/kernel/debug/block/$DEV/sched/stats

rmmod null_blk
modprobe null_blk nr_devices=1 gb=1 irqmode=2 completion_nsec=$((C_MS * 1000000)) \
	hw_queue_depth=1
ok $? "slow null_blk: one request at a time, ${C_MS} ms each"

# stat_write_ios / stat_write_sectors from /sys/block/DEV/stat (iostat's source)
stat_field() { awk -v f="$1" '{ print $f }' /sys/block/$DEV/stat; }
# counter NAME DIR(2=read,3=write) from deadline-rb's debugfs stats
counter() { awk -v n="$1" -v c="$2" '$1 == n { print $c }' $STATS; }

# flood: a sequential 4 KiB O_DIRECT write stream at depth 512, and a random
# reader at depth 8, so that both directions always have requests waiting
flood() {
	fio --output-format=terse --terse-version=3 \
		--name=flood --filename=/dev/$DEV --direct=1 --ioengine=libaio \
		--iodepth=512 --rw=write --bs=4k --size=512M --time_based --runtime=8 \
		--name=reader --filename=/dev/$DEV --direct=1 --ioengine=libaio \
		--iodepth=8 --rw=randread --bs=4k --size=512M --time_based \
		--runtime=6 --startdelay=1 >/tmp/flood-$1.out 2>&1
}
# lat_max_us JOB FILE: the read latency maximum fio saw, in microseconds
read_lat_max_us() { awk -F';' -v j="$1" '$3 == j { print int($39) }' "$2"; }

# --- deadline-rb ---
echo deadline-rb >$Q/scheduler
echo 1024 >$Q/nr_requests
echo $READ_EXPIRE >$Q/iosched/read_expire
echo $FIFO_BATCH >$Q/iosched/fifo_batch
w_ios0=$(stat_field 5)
w_sec0=$(stat_field 7)
flood deadline-rb
ok $? "fio write flood plus random reads under deadline-rb"
w_ios=$(( $(stat_field 5) - w_ios0 ))
w_sec=$(( $(stat_field 7) - w_sec0 ))
lat=$(read_lat_max_us reader /tmp/flood-deadline-rb.out)
diag "deadline-rb: read latency max ${lat} us, bound ${BOUND_US} us"
[ -n "$lat" ] && [ "$lat" -gt 0 ] && [ "$lat" -le "$BOUND_US" ]
ok $? "every read completed within read_expire + 2 batches of fifo_batch x ${C_MS} ms + 100 ms"
[ "$(counter expired 2)" -gt 0 ]
ok $? "reads did expire under the flood ($(counter expired 2)), and the bound held for them"
# Each forced write batch follows writes_starved (2) read batches with
# writes waiting; a few more read batches open while no write waits.  So
# read batches are at least twice the forced ones, and well under three
# times (what writes_starved 3 would give).
rb=$(counter batches 2) st=$(counter starved 3)
[ "$st" -gt 0 ] && [ "$rb" -ge $((2 * st - 2)) ] && [ $((rb * 10)) -le $((st * 27)) ]
ok $? "read batches ($rb) are 2 to 2.7 times the forced write batches ($st): writes_starved 2"
sed 's/^/# /' $STATS
[ "$(counter dispatched 3)" -gt 0 ] && [ "$(counter starved 3)" -gt 0 ]
ok $? "writes kept being served while reads waited: writes_starved forced write batches"
[ "$(counter dispatched 2)" -gt 100 ]
ok $? "reads were served too"
[ "$(counter merged_back 3)" -gt 0 ]
ok $? "sequential 4 KiB writes were merged at the back (merged_back $(counter merged_back 3))"
avg_rb=$((w_sec / w_ios))
diag "deadline-rb: $w_ios write requests, $w_sec sectors, $avg_rb sectors each"
[ "$avg_rb" -gt 8 ]
ok $? "the disk saw merged writes: more than 8 sectors per request ($avg_rb)"

# --- a plain FIFO at the same depth: the bound above is not one it keeps ---
modprobe fifo-floor && echo fifo-floor >$Q/scheduler && echo 1024 >$Q/nr_requests
ok $? "fifo-floor, a one-list FIFO elevator, 1024 requests deep"
flood fifo-floor
lat_fifo=$(read_lat_max_us reader /tmp/flood-fifo-floor.out)
diag "fifo-floor: read latency max ${lat_fifo} us, bound ${BOUND_US} us"
[ -n "$lat_fifo" ] && [ "$lat_fifo" -gt "$BOUND_US" ]
ok $? "under a plain FIFO the same flood breaks that bound (${lat_fifo} us)"

# --- none, for comparison: no sort, no merging, no batching ---
echo none >$Q/scheduler
w_ios0=$(stat_field 5)
w_sec0=$(stat_field 7)
flood none
ok $? "the same flood under none"
w_ios=$(( $(stat_field 5) - w_ios0 ))
w_sec=$(( $(stat_field 7) - w_sec0 ))
avg_none=$((w_sec / w_ios))
diag "none: read latency max $(read_lat_max_us reader /tmp/flood-none.out) us"
diag "none: $w_ios write requests, $w_sec sectors, $avg_none sectors each"
[ "$avg_rb" -gt $((2 * avg_none)) ]
ok $? "deadline-rb's write requests carry over twice the sectors of none's ($avg_rb vs $avg_none)"

# --- merges and scheduler tags: counted and timed, so here, on the
# instruction-clocked guest, and no longer among sched-paths' races
# null_blk as nullb0 with PARAMS
nullb() { rmmod null_blk 2>/dev/null; modprobe null_blk nr_devices=1 gb=1 "$@"; }

# --- insert-time merges: batches of 32 random 4 KiB writes in a 256 KiB
# region, each batch one io_submit (one plug), so that neighbours meet only
# when the plug is inserted.  The same seed gives every scheduler the same
# batches.
nullb
insert_batches() {
	echo "$1" >$Q/scheduler
	w0=$(stat_field 5) m0=$(stat_field 6) s0=$(stat_field 7)
	fio --name=insert --filename=/dev/$DEV --direct=1 --ioengine=libaio \
		--rw=randwrite --bs=4k --size=256k --io_size=4m --norandommap \
		--randrepeat=1 --randseed=42 --iodepth=32 --iodepth_batch_submit=32 \
		--iodepth_batch_complete_min=32 >"/tmp/fio-insert-$1.out" 2>&1 ||
		sed 's/^/# /' "/tmp/fio-insert-$1.out"
	ios=$(( $(stat_field 5) - w0 ))
	merges=$(( $(stat_field 6) - m0 ))
	sectors=$(( $(stat_field 7) - s0 ))
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
	w0=$(stat_field 5)
	fio --name=down --filename=/dev/$DEV --direct=1 --ioengine=libaio \
		--iodepth=8 --rw=write:-8k --bs=4k --size=512k --numjobs=4 \
		--offset_increment=1M >/tmp/fio-front.out 2>&1 ||
		sed 's/^/# /' /tmp/fio-front.out
	ios=$(( $(stat_field 5) - w0 ))
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

# --- merges on a zoned disk, by class: up to 6.9 deadline-rb queues a
# write to a sequential zone as best-effort whatever its priority, and a
# bio's merge lookup must search the class its request would be queued in.
# One writer, two zones: batches of 8 sequential 4 KiB writes alternating
# between them (a replayed iolog), on a disk taking 50 ms a request.  The
# first write of a batch goes to the disk at once and each next write's
# partner is a request no bio has merged with yet, which only deadline-rb's
# own lookup knows: the core's one-hit cache points at the other zone.  So
# real-time and idle writes merge as much as best-effort ones, or far less
# (224 requests against 64 when the lookup used the bio's own class).
# From 6.10 the core's zone write plugs merge a zone's writes before the
# scheduler sees them (96 requests in every class on 6.12).
{
	echo "fio version 2 iolog"
	echo "/dev/$DEV add"
	echo "/dev/$DEV open"
	i=0
	while [ $i -lt 128 ]; do
		echo "/dev/$DEV write $((i * 4096)) 4096"
		echo "/dev/$DEV write $((4194304 + i * 4096)) 4096"
		i=$((i + 1))
	done
	echo "/dev/$DEV close"
} >/tmp/two-zones.log
zoned_writes() {
	nullb zoned=1 zone_size=4 zone_nr_conv=0 irqmode=2 completion_nsec=50000000 \
		hw_queue_depth=1
	echo deadline-rb >$Q/scheduler
	fio --name=zones --filename=/dev/$DEV --direct=1 --ioengine=libaio \
		--iodepth=8 --iodepth_batch_submit=8 --iodepth_batch_complete_min=8 \
		--read_iolog=/tmp/two-zones.log --replay_no_stall=1 \
		--cmdprio_percentage=100 --cmdprio_class="$1" >/tmp/fio-zones.out 2>&1 &&
		grep -q 'err= 0' /tmp/fio-zones.out
	fio_rc=$?
	[ $fio_rc -eq 0 ] || sed 's/^/# /' /tmp/fio-zones.out
	ios=$(stat_field 5)
	diag "class $1: $ios write requests for 256 writes, merged_back $(counter merged_back 3), merged_rq $(counter merged_rq 3)"
}
zoned_writes 2
be_ios=$ios be_rc=$fio_rc
zoned_writes 1
[ $be_rc -eq 0 ] && [ "$be_ios" -lt 128 ] &&
	[ $fio_rc -eq 0 ] && [ "$ios" -gt 0 ] && [ "$ios" -le "$be_ios" ]
ok $? "real-time writes to sequential zones merge as best-effort ones do ($ios requests vs $be_ios for 256 writes)"
zoned_writes 3
[ $fio_rc -eq 0 ] && [ "$ios" -gt 0 ] && [ "$ios" -le "$be_ios" ]
ok $? "... and so do idle writes ($ios requests vs $be_ios)"

# --- scheduler tags: a write flood from 8 submitters at depth 32 each,
# beyond nr_requests (64), and one reader at depth 1, on a disk taking 10 ms
# a request.  Writes may hold async_depth tags at once: the most tags in
# use (sampled from debugfs) is at most that plus the reader's one, and the
# reader, no longer queued for tags behind the writers, does more reads:
# 1.56x on 6.1 and 1.86x on 6.12 on the instruction-clocked guest (KiB
# read, 512 against 328 and 492 against 264; 2x to 2.5x on two vCPUs;
# 6.12 read 2.26x more while its writes were held to 4 or 5 tags), so
# the test asks for 1.3x, where a limit with no effect gives 1x.  Batches of two
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
	[ "$1" = default ] || echo "$1" >"$(async_depth_file $DEV)"
	depth=$(cat "$(async_depth_file $DEV)")
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
[ $((${reads:-0} * 10)) -gt $((reads64 * 13)) ]
ok $? "... and the reader does over 1.3x the reads ($reads against $reads64 KiB)"

done_testing
