#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# deadline-rb's sysfs tunables: defaults, bounds, and refusal of bad input
# with the right errno and the old value kept (DESIGN.md §3.3).
. /tests/guest/lib.sh

# name default min max (async_depth's default: nr_requests, below)
tunables="
read_expire 500 1 600000
write_expire 5000 1 600000
writes_starved 2 0 1000
fifo_batch 64 1 65536
seek_cost 4 1 65536
hash_shift 10 4 20
front_merges 1 0 1
prio_aging_expire 10000 1 600000
"
EINVAL="Invalid argument"
ERANGE="Numerical result out of range"
big_x=$(printf '%4096s' x | tr ' ' x)
big_9=$(printf '%4096s' 9 | tr ' ' 9)

# write FILE VALUE: "ok", or the kernel's error text
write() {
	if err=$( { echo "$2" >"$1"; } 2>&1 ); then
		echo ok
	else
		echo "${err##*: }"
	fi
}

# refuse ATTR VALUE LABEL ERRNO-TEXT: two facts, the error and the value kept
refuse() {
	f=$Q/$1
	before=$(cat "$f")
	is "$(write "$f" "$2")" "$4" "$1 rejects $3 with ${4}"
	is "$(cat "$f")" "$before" "$1 keeps $before after $3"
}

# On Linux 6.1 and 6.12 async_depth is deadline-rb's own, one of the tunables
# above; on 7.2 it is the block layer's queue/async_depth, and
# deadline-rb offers none of its own (tested after the loop).
echo deadline-rb >/sys/block/vda/queue/scheduler
echo deadline-rb >/sys/block/nullb0/queue/scheduler
Q=/sys/block/vda/queue/iosched
own=0
[ -e $Q/async_depth ] && own=1
# 31 tests a tunable, 4 others, and 4 on async_depth in either layout
plan $(( (8 + own) * 31 + 4 + 4))
is "$(active_sched vda)" deadline-rb "vda runs deadline-rb"
[ $own -eq 0 ] || tunables="$tunables
async_depth $(cat /sys/block/vda/queue/nr_requests) 1 $(cat /sys/block/vda/queue/nr_requests)"

echo "$tunables" | while read -r name def min max; do
	[ -n "$name" ] || continue
	is "$(cat $Q/$name)" "$def" "$name defaults to $def"
	is "$(write $Q/$name "$min")" ok "$name accepts its minimum $min"
	is "$(cat $Q/$name)" "$min" "$name reads back $min"
	is "$(write $Q/$name "$max")" ok "$name accepts its maximum $max"
	is "$(cat $Q/$name)" "$max" "$name reads back $max"
	echo "$def" >$Q/$name

	refuse "$name" "" 'empty' "$EINVAL"
	refuse "$name" abc '"abc"' "$EINVAL"
	refuse "$name" -1 '"-1"' "$EINVAL"
	refuse "$name" 1.5 '"1.5"' "$EINVAL"
	refuse "$name" 12abc '"12abc"' "$EINVAL"
	refuse "$name" " 12" '" 12"' "$EINVAL"
	refuse "$name" +1 '"+1"' "$EINVAL"
	refuse "$name" $((max + 1)) "one past its maximum" "$EINVAL"
	if [ "$min" -gt 0 ]; then
		refuse "$name" $((min - 1)) "one below its minimum" "$EINVAL"
	else
		refuse "$name" 0x1 '"0x1"' "$EINVAL"
	fi
	refuse "$name" 4294967296 "2^32" "$ERANGE"
	refuse "$name" 18446744073709551616 "2^64" "$ERANGE"
	refuse "$name" "$big_x" "4 KiB of letters" "$EINVAL"
	refuse "$name" "$big_9" "4 KiB of digits" "$ERANGE"
done | tee /tmp/sysfs.tap
# the loop ran in a subshell: count its results here
_tap_n=$(grep -c '^\(not \)\{0,1\}ok ' /tmp/sysfs.tap)
_tap_failed=$(grep -c '^not ok ' /tmp/sysfs.tap)

# per queue: a change on vda leaves nullb0 alone
echo 7 >$Q/fifo_batch
is "$(cat /sys/block/nullb0/queue/iosched/fifo_batch)" 64 "fifo_batch on nullb0 unaffected by vda's"
echo 64 >$Q/fifo_batch

# a value with a trailing newline is what echo writes; without one, too
printf 64 >$Q/fifo_batch
is "$(cat $Q/fifo_batch)" 64 "fifo_batch accepts a value without a newline"
echo 64 >$Q/fifo_batch

nr=$(cat /sys/block/vda/queue/nr_requests)
if [ $own -eq 1 ]; then
	# async_depth is nr_requests again whenever nr_requests changes
	echo 16 >$Q/async_depth
	echo 64 >/sys/block/vda/queue/nr_requests
	is "$(cat $Q/async_depth)" 64 "async_depth follows nr_requests: set to 16, back to 64 when it changes"
	echo 16 >$Q/async_depth
	refuse async_depth 65 "65, above nr_requests 64" "$EINVAL"
	[ ! -e /sys/block/vda/queue/async_depth ]
	ok $? "deadline-rb's own async_depth, and no queue/async_depth of the block layer's"
else
	# 7.2: the block layer's, which deadline-rb sets to nr_requests when
	# it starts on a queue (as mq-deadline), and the block layer keeps in
	# proportion when nr_requests changes and within nr_requests
	A=/sys/block/vda/queue/async_depth
	ok 0 "no iosched/async_depth of deadline-rb's own"
	echo mq-deadline >/sys/block/vda/queue/scheduler
	echo 8 >$A
	echo deadline-rb >/sys/block/vda/queue/scheduler
	is "$(cat $A)" "$nr" "queue/async_depth is nr_requests ($nr) when deadline-rb starts"
	echo 16 >$A
	echo $((nr / 4)) >/sys/block/vda/queue/nr_requests
	is "$(cat $A)" 4 "queue/async_depth 16 follows nr_requests from $nr to $((nr / 4)) in proportion: 4"
	echo $((nr / 4 + 1)) >$A
	is "$(cat $A)" $((nr / 4)) "queue/async_depth above nr_requests: the block layer takes nr_requests"
fi
echo "$nr" >/sys/block/vda/queue/nr_requests

# hash_shift with requests queued is covered by sched-io.sh; here: repeated
n=0
for s in 4 20 10 15 4 10; do
	[ "$(write $Q/hash_shift $s)" = ok ] && [ "$(cat $Q/hash_shift)" = $s ] && n=$((n + 1))
done
is "$n" 6 "hash_shift resizes back and forth"

done_testing
