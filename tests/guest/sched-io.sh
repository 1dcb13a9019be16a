#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# deadline-rb under I/O: verified data, scheduler and tunable changes while
# I/O runs, module reference counting, autoload by name, load/unload cycles.
. /tests/guest/lib.sh

plan 20


# --- autoload: the name alone loads the module ---
[ ! -d /sys/module/deadline_rb ]
ok $? "deadline-rb is not loaded at boot"
echo deadline-rb >/sys/block/vda/queue/scheduler
ok $? "writing deadline-rb to vda's queue/scheduler succeeds"
[ -d /sys/module/deadline_rb ] && [ "$(active_sched vda)" = deadline-rb ]
ok $? "the module was loaded on demand and is active on vda"
echo deadline-rb >/sys/block/nullb0/queue/scheduler

# --- verified I/O ---
fio_verify vda vda libaio 16M
ok $? "fio crc32c verify on vda under deadline-rb: 0 errors"
fio_verify nullb0 nullb0 io_uring 64M
ok $? "fio crc32c verify on memory-backed nullb0 under deadline-rb: 0 errors"

# --- rmmod while in use ---
rmmod deadline_rb 2>/dev/null
[ $? -ne 0 ] && [ -d /sys/module/deadline_rb ]
ok $? "rmmod is refused while queues use deadline-rb"

# --- flip schedulers and every tunable while verified I/O runs ---
# set NAME VALUE: write a tunable and read it back; count what went wrong
set_tunable() {
	{ echo "$2" >"$Q/iosched/$1" && [ "$(cat "$Q/iosched/$1")" = "$2" ]; } ||
		bad=$((bad + 1))
}
flipper() {
	i=0
	bad=0
	while [ ! -e /tmp/stop ]; do
		for dev in vda nullb0; do
			Q=/sys/block/$dev/queue
			case $((i % 4)) in
			0) s=mq-deadline ;;
			1) s=none ;;
			*) s=deadline-rb ;;
			esac
			{ echo $s >$Q/scheduler && [ "$(active_sched $dev)" = $s ]; } ||
				bad=$((bad + 1))
			if [ $s = deadline-rb ]; then
				set_tunable hash_shift $((i % 7 + 4))
				set_tunable fifo_batch $((i % 5 + 1))
				set_tunable seek_cost $((i % 3 + 1))
				set_tunable writes_starved $((i % 4))
				set_tunable read_expire $((i % 200 + 1))
				set_tunable write_expire $((i % 300 + 1))
				set_tunable front_merges $((i % 2))
				{ echo $((i % 16 + 1)) >"$(async_depth_file $dev)" &&
				  [ "$(cat "$(async_depth_file $dev)")" = $((i % 16 + 1)) ]; } ||
					bad=$((bad + 1))
				set_tunable hash_shift $((i % 7 + 14))
			fi
		done
		i=$((i + 1))
		echo "$i $bad" >/tmp/flips
	done
}
# The verified I/O goes on, pass after pass, until the flipper has gone
# round 12 times; the flipper goes on until the pass under way ends.
# Every round counted is one made during I/O, however slow the host.  A
# round takes 2 to 4 times as long on the 7.2 debug kernel as on 6.1's
# (its switches are twice as slow, and the host's other lanes share its
# two cores): 12 took over 300 s there once, so the limit is 600.
WANT=12
LIMIT=600
rm -f /tmp/stop
echo "0 0" >/tmp/flips
loop_start vda fio_verify flip-vda vda libaio 4M
loop_start nullb0 fio_verify flip-nullb0 nullb0 io_uring 8M
flipper &
fpid=$!
met=0
wait_until $LIMIT count_reached /tmp/flips $WANT && met=1
loop_stop vda
vp=$loop_passes vf=$loop_failed
loop_stop nullb0
np=$loop_passes nf=$loop_failed
touch /tmp/stop
wait $fpid
read -r flips bad </tmp/flips
[ "$vf" -eq 0 ]
ok $? "fio verify on vda while schedulers and tunables flip: $vp passes, 0 errors ($vf failed)"
[ "$nf" -eq 0 ]
ok $? "fio verify on nullb0 while schedulers and tunables flip: $np passes, 0 errors ($nf failed)"
[ $met -eq 1 ]
ok $? "the flipper went round at least $WANT times during I/O ($flips; limit $LIMIT s)"
is "$bad" 0 "every switch and tunable write of the flipper took effect"

# --- hash_shift under load, with requests queued on a slow device ---
# A slow nullb0 (two tags, 1 ms a request) under a verified fio at depth
# 256 keeps requests in the sort; resizes (every value from 4 to 20 in
# turn) go on, fio pass after pass, until 10 of them were made with
# requests queued (read just before), and on until the pass under way
# ends.
rmmod null_blk
modprobe null_blk nr_devices=1 gb=1 memory_backed=1 irqmode=2 completion_nsec=1000000 \
	hw_queue_depth=2
echo deadline-rb >/sys/block/nullb0/queue/scheduler
echo 1024 >/sys/block/nullb0/queue/nr_requests
WANT=10
loop_start slow fio_verify slow nullb0 libaio 8M --iodepth=256
n=0
busy=0
bad=0
t0=$(now_s)
met=0
while loop_running slow; do
	if { [ "$busy" -ge $WANT ] && [ "$n" -ge 17 ]; } || [ $(($(now_s) - t0)) -ge $LIMIT ]; then
		[ "$busy" -lt $WANT ] || met=1
		loop_end slow
	fi
	s=$((n % 17 + 4))
	# requests in the sort just before: the resize moved live entries
	q=$(awk '{ print $1 + $2 }' /sys/kernel/debug/block/nullb0/sched/queued)
	if echo $s >/sys/block/nullb0/queue/iosched/hash_shift &&
	   [ "$(cat /sys/block/nullb0/queue/iosched/hash_shift)" = $s ]; then
		[ "$q" -gt 0 ] && busy=$((busy + 1))
	else
		bad=$((bad + 1))
	fi
	n=$((n + 1))
done
loop_stop slow
[ "$loop_failed" -eq 0 ]
ok $? "fio verify on a slow nullb0 at depth 256 while hash_shift resizes ($n times, $loop_passes passes): 0 errors ($loop_failed failed)"
[ "$bad" -eq 0 ] && [ $met -eq 1 ]
ok $? "every resize took effect ($bad failed), $WANT of them with requests queued ($busy; limit $LIMIT s)"

# --- async_depth: the tags writes may hold, counted in flight ---
# A random-write flood at depth 256 on each of three null_blk disks with
# 256 driver tags, so that every write holding a scheduler tag goes on to
# the driver, which completes none for 2 s.  The writes in flight
# (/sys/block/DEV/inflight, a count that is exact only while nothing
# completes) are read while none can have completed: from the last read
# that found none in flight (the first write came later) for 2 s, each read
# timed by the guest clock before and after.  They must be at most
# async_depth, and at least 7/8 of it: a limit applied twice (scaled to a
# word, then again by a kernel whose sbitmap limits the whole map) gives a
# quarter.  Three reads at least in each still time, or the flood runs
# again (three times at most).
rmmod null_blk
# made one after another (each one's partition scan takes the 2 s too)
modprobe null_blk nr_devices=3 gb=1 irqmode=2 completion_nsec=2000000000 \
	hw_queue_depth=256 submit_queues=1
jobs=""
i=0
for nd in 256/64 256/128 64/16; do
	echo deadline-rb >/sys/block/nullb$i/queue/scheduler
	echo "${nd%/*}" >/sys/block/nullb$i/queue/nr_requests
	echo "${nd#*/}" >"$(async_depth_file nullb$i)"
	jobs="$jobs --name=flood$i --filename=/dev/nullb$i"
	i=$((i + 1))
done
# centiseconds since boot
uptime_cs() {
	read -r up _ </proc/uptime
	echo "${up%.*}${up#*.}"
}
# the clock, the writes in flight on each disk, the clock
sample() {
	line=$(uptime_cs)
	for d in 0 1 2; do
		read -r _ w </sys/block/nullb$d/inflight
		line="$line $w"
	done
	echo "$line $(uptime_cs)"
}
flood() {
	# one read before fio starts (the last flood's writes have completed
	# when its fio ends), as fio may have written before the first below
	sample >/tmp/inflight
	# shellcheck disable=SC2086
	fio --direct=1 --ioengine=libaio --rw=randwrite --bs=4k --iodepth=256 \
		--iodepth_batch_submit=1 --time_based --runtime=1 $jobs >/tmp/fio-depth.out 2>&1 &
	fpid=$!
	while kill -0 $fpid 2>/dev/null; do
		sample
		sleep 0.05
	done >>/tmp/inflight
	wait $fpid || sed 's/^/# /' /tmp/fio-depth.out
}
# still DISK: the most writes in flight while none can have completed, and
# how many reads found that
still() {
	awk -v c=$(($1 + 2)) '
		!on && $c == 0 { last0 = $1; next }
		!on { on = 1 }
		$NF < last0 + 200 { n++; if ($c > m) m = $c }
		END { print m + 0, n + 0 }' /tmp/inflight
}
tries=0
while :; do
	flood
	tries=$((tries + 1))
	few=0
	for d in 0 1 2; do
		[ "$(still $d | cut -d' ' -f2)" -ge 3 ] || few=1
	done
	[ $few -eq 1 ] && [ $tries -lt 3 ] || break
done
i=0
for nd in 256/64 256/128 64/16; do
	depth=${nd#*/}
	got="$(cat /sys/block/nullb$i/queue/nr_requests)/$(cat "$(async_depth_file nullb$i)")"
	most=$(still $i | cut -d' ' -f1) reads=$(still $i | cut -d' ' -f2)
	[ "$got" = "$nd" ] && [ "$reads" -ge 3 ] && [ "$most" -le "$depth" ] &&
		[ $((most * 8)) -ge $((depth * 7)) ]
	ok $? "nr_requests/async_depth $got: at most $depth writes in flight, and at least 7/8 of them ($most, the most of $reads reads while none could complete; $tries floods)"
	i=$((i + 1))
done
rmmod null_blk
modprobe null_blk nr_devices=1 gb=1 irqmode=2 completion_nsec=1000000 hw_queue_depth=2

# --- switching away frees the module ---
echo mq-deadline >/sys/block/vda/queue/scheduler
echo mq-deadline >/sys/block/nullb0/queue/scheduler
rmmod deadline_rb
ok $? "rmmod succeeds once no queue uses deadline-rb"
[ ! -d /sys/module/deadline_rb ]
ok $? "the module is gone"

# --- 20 cycles of load, switch, I/O, switch back, unload ---
fails=0
i=0
while [ $i -lt 20 ]; do
	modprobe deadline-rb &&
	echo deadline-rb >/sys/block/nullb0/queue/scheduler &&
	dd if=/dev/zero of=/dev/nullb0 bs=64k count=16 oflag=direct 2>/dev/null &&
	dd if=/dev/nullb0 of=/dev/null bs=64k count=16 iflag=direct 2>/dev/null &&
	echo none >/sys/block/nullb0/queue/scheduler &&
	rmmod deadline_rb || fails=$((fails + 1))
	i=$((i + 1))
done
is "$fails" 0 "20 load/switch/unload cycles"
[ ! -d /sys/module/deadline_rb ]
ok $? "no module left after the cycles"

# --- the dispatch list: passthrough requests go through too ---
echo deadline-rb >/sys/block/vda/queue/scheduler
cat /sys/block/vda/serial >/dev/null &&
	dd if=/dev/vda of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null
ok $? "a passthrough request (reading vda's serial) and a read on vda after the cycles"
echo mq-deadline >/sys/block/vda/queue/scheduler

done_testing
