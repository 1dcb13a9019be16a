#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# deadline-rb's policy on a slow device: reads are not starved by a write
# flood, writes are not starved by reads, and sequential writes merge.
#
# The device: null_blk completing one request at a time (hw_queue_depth=1)
# after a 1 ms timer (irqmode=2), so everything else waits in the scheduler.
# The bound for read latency is the one deadline-rb(4) states: a read
# starts within read_expire, plus the batch in progress when it expired,
# plus one write batch that writes_starved forces; a batch is at most
# fifo_batch requests (each costs >= 1 unit) of 1 ms each.  100 ms more
# absorb the emulated guest: its own CPU time per request is of the order
# of the device's under TCG with KASAN, and grows when the host is busy (a
# tighter margin, 50 ms, failed by 4 ms with a second guest running).
#
# The bound must be one that a plain FIFO fails: the write stream keeps
# 512 requests queued, so a read behind them waits over half a second
# under fifo-floor (a one-list FIFO elevator, built beside deadline-rb),
# which the test asserts.  The same flood under `none` shows what the sort
# and the merges are worth.
. /tests/guest/lib.sh

plan 13

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

done_testing
