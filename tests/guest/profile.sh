#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dlctl profile against the real module, with short runs: a row per value,
# the original value back afterwards (also after SIGINT and SIGTERM), the
# counters' deltas, and write workloads refused without --allow-write, on a
# mounted device and on one open exclusively elsewhere.
. /tests/guest/lib.sh

plan 16

rmmod null_blk
# two fast, memory-backed disks; slowed ones further down
modprobe null_blk nr_devices=2 gb=1 memory_backed=1
echo deadline-rb >/sys/block/nullb0/queue/scheduler
echo none >/sys/block/nullb1/queue/scheduler
echo none >/sys/block/vda/queue/scheduler
echo 24 >/sys/block/nullb0/queue/iosched/fifo_batch
fb() { cat /sys/block/$1/queue/iosched/fifo_batch; }
sum() { dd if=/dev/$1 bs=1M count=16 2>/dev/null | md5sum; }

dlctl profile fifo_batch 1,16 64 --runtime-per-value 1s >/tmp/out 2>/tmp/err
rc=$?
sed 's/^/# /' /tmp/out
[ $rc -eq 0 ] && [ "$(awk 'NR > 3 && ($1 == 1 || $1 == 16 || $1 == 64)' /tmp/out | wc -l)" -eq 3 ]
ok $? "dlctl profile fifo_batch 1,16 64 (the only deadline-rb disk): a row per value"
is "$(fb nullb0)" 24 "... and fifo_batch is back to 24"
grep -q '^nullb0: fifo_batch, randread, iodepth 16, bs 4096, 1.0 s per value (was 24, restored)$' /tmp/out
ok $? "... with a heading that says what ran"

dlctl -d nullb0 profile writes_starved 1 4 --runtime-per-value 1s --csv \
	-w randrw --allow-write --size 64M >/tmp/out 2>/tmp/err
rc=$?
sed 's/^/# /' /tmp/out
# col NAME: the CSV column of that header name
col() { head -1 /tmp/out | tr , '\n' | grep -nx "$1" | cut -d: -f1; }
[ $rc -eq 0 ] && [ "$(wc -l </tmp/out)" -eq 3 ] &&
	[ "$(awk -F, -v r="$(col read_iops)" -v w="$(col write_iops)" -v b="$(col batches)" \
		'NR > 1 && $r > 0 && $w > 0 && $b > 0' /tmp/out | wc -l)" -eq 2 ]
ok $? "randrw --allow-write --csv: reads, writes and batches on every row"
is "$(cat /sys/block/nullb0/queue/iosched/writes_starved)" 2 "... writes_starved back to 2"

dlctl -d nullb0 --json profile read_expire 50ms,2s --duration 2s >/tmp/out 2>/tmp/err
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '"device": "nullb0",' /tmp/out)" -eq 2 ] &&
	[ "$(grep -c '"original": 500,' /tmp/out)" -eq 2 ] &&
	[ "$(grep -c '"runtime": 1.000,' /tmp/out)" -eq 2 ] &&
	[ "$(grep '"value":' /tmp/out | tr -d ' ,' | tr '\n' ' ')" = '"value":50 "value":2000 ' ]
ok $? "--json with units and --duration: values 50 and 2000 ms, 1 s each"

# counters: sequential writes on a slowed device merge, and the row says so.
# A write merges with one still in the scheduler.  With the device's one
# tag, nr_requests is 2: one request at the device, the next one taken
# out for it at once, and every later write waits for a tag, so a merge
# needed the next write to come before that (on 6.12 beside three other
# guests: 0 merges of 656 writes).  64 requests, 50 ms each: writes wait
# in the scheduler, and the next ones come long before they leave.
rmmod null_blk
modprobe null_blk nr_devices=2 gb=1 memory_backed=1 irqmode=2 completion_nsec=50000000 \
	hw_queue_depth=1
echo none >/sys/block/nullb0/queue/scheduler
echo deadline-rb >/sys/block/nullb1/queue/scheduler
echo 64 >/sys/block/nullb1/queue/nr_requests
dlctl -d nullb1 profile fifo_batch 32 -w seqwrite --allow-write --size 64M \
	--runtime-per-value 2s --csv >/tmp/out 2>/tmp/err
rc=$?
sed 's/^/# /' /tmp/out
[ $rc -eq 0 ] && [ "$(awk -F, -v w="$(col write_iops)" -v m="$(col merges)" \
	'NR == 2 && $w > 0 && $m > 0' /tmp/out | wc -l)" -eq 1 ]
ok $? "seqwrite on a slowed device: the row counts the merges made during the run"
# the rest on disks of 0.2 ms a request, as before
rmmod null_blk
modprobe null_blk nr_devices=2 gb=1 memory_backed=1 irqmode=2 completion_nsec=200000 hw_queue_depth=1

# write refusals: no data touched, nothing set
echo deadline-rb >/sys/block/nullb0/queue/scheduler
dd if=/dev/urandom of=/dev/nullb0 bs=1M count=16 2>/dev/null
before=$(sum nullb0)
dlctl -d nullb0 profile fifo_batch 8 -w seqwrite --runtime-per-value 1s >/tmp/out 2>/tmp/err
rc=$?
[ $rc -eq 1 ] && [ ! -s /tmp/out ] && grep -q 'add --allow-write' /tmp/err &&
	[ "$(sum nullb0)" = "$before" ] && [ "$(fb nullb0)" = 64 ]
ok $? "seqwrite without --allow-write: refused, data and fifo_batch untouched"

mke2fs -q /dev/nullb0 >/dev/null 2>&1 && mkdir -p /mnt && mount -t ext2 /dev/nullb0 /mnt
ok $? "an ext2 file system on nullb0, mounted on /mnt"
# the device's own count of writes (field 5 of stat): mount and umount
# write the superblock, so a checksum of the blocks could not tell
writes() { awk '{ print $5 }' /sys/block/$1/stat; }
before=$(writes nullb0)
dlctl -d nullb0 profile fifo_batch 8 -w randwrite --allow-write --runtime-per-value 1s >/tmp/out 2>/tmp/err
rc=$?
[ $rc -eq 1 ] && grep -q '^dlctl: nullb0: mounted on /mnt; refusing to write to it$' /tmp/err &&
	[ "$(fb nullb0)" = 64 ]
ok $? "randwrite --allow-write on the mounted device: refused"
is "$(writes nullb0)" "$before" "... and not one write reached the device"
umount /mnt

# a device claimed outside dlctl's view (a mount in another mount
# namespace, absent from our mountinfo) is turned away by O_EXCL
# (the mount holds until told to let go, so the profile surely meets it)
rm -f /tmp/held /tmp/release
unshare -m sh -c 'mount -t ext2 /dev/nullb0 /mnt && touch /tmp/held &&
	until [ -e /tmp/release ]; do sleep 0.05; done' &
holder=$!
rc=9
wait_until 60 test -e /tmp/held &&
	{ dlctl -d nullb0 profile fifo_batch 8 -w randwrite --allow-write --runtime-per-value 1s \
		>/tmp/out 2>/tmp/err; rc=$?; }
touch /tmp/release
wait $holder
[ $rc -eq 1 ] && grep -q '^dlctl: /dev/nullb0: Device or resource busy (mounted or open exclusively elsewhere); refusing' /tmp/err
ok $? "a write profile of a device mounted in another namespace: refused (EBUSY)"

# a second profile waits for the first's lock, then runs
# (the first is stopped while it holds the lock, and let go once the
# second says it waits: no sleep decides who comes first)
# (10 s for its value, so that the test sees it set however slow the host)
dlctl -d nullb0 profile fifo_batch 8 -w randwrite --allow-write --runtime-per-value 10s \
	>/tmp/out1 2>/tmp/err1 &
first=$!
rc=9
if wait_until 60 sh -c '[ "$(cat /sys/block/nullb0/queue/iosched/fifo_batch)" = 8 ]'; then
	kill -STOP $first
	dlctl -d nullb0 profile fifo_batch 4 --runtime-per-value 1s >/tmp/out 2>/tmp/err &
	second=$!
	wait_until 60 grep -q 'waiting for another dlctl' /tmp/err
	kill -CONT $first
	wait $second
	rc=$?
fi
kill -CONT $first 2>/dev/null
wait $first
rc1=$?
[ $rc -eq 0 ] && [ $rc1 -eq 0 ] && grep -q 'waiting for another dlctl to finish (/run/dlctl/lock)' /tmp/err &&
	[ "$(fb nullb0)" = 64 ]
ok $? "a second profile while one runs: waits for the lock, then both finish, 64 restored"

# signals: the original value comes back (each value would run a minute:
# the signal comes long before, once the first is seen set, however slow
# the host; at 2 s a value, a loaded host once let it pass unseen)
for sig in INT TERM; do
	dlctl -d nullb0 profile fifo_batch 1 2 3 --runtime-per-value 60s >/tmp/out 2>/tmp/err &
	pid=$!
	# the signal comes once the first value is set
	wait_until 60 sh -c '[ "$(cat /sys/block/nullb0/queue/iosched/fifo_batch)" = 1 ]'
	mid=$(fb nullb0)
	kill -$sig $pid
	wait $pid
	rc=$?
	[ "$mid" = 1 ] && [ $rc -eq 1 ] && [ ! -s /tmp/out ] && [ "$(fb nullb0)" = 64 ] &&
		grep -q 'interrupted by .*; fifo_batch restored to 64$' /tmp/err
	ok $? "SIG$sig mid-run (fifo_batch was $mid): exit 1, 64 restored"
done

dlctl -d vda profile fifo_batch 8 --runtime-per-value 1s >/tmp/out 2>/tmp/err
[ $? -eq 1 ] && grep -q 'vda: does not run deadline-rb' /tmp/err
ok $? "profile on a disk without deadline-rb: refused"

done_testing
