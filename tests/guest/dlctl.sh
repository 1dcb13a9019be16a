#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dlctl against the real module: set acts on every deadline-rb queue and only
# those, a bad value changes nothing anywhere, enable/disable round-trip,
# -d forms, stats from debugfs.
. /tests/guest/lib.sh

plan 30

# three disks: vda and nullb0 on deadline-rb, nullb1 on mq-deadline
rmmod null_blk
modprobe null_blk nr_devices=2 gb=1 memory_backed=1
kdef=$(active_sched nullb0)	# what the kernel itself chose for null_blk
echo deadline-rb >/sys/block/vda/queue/scheduler
echo deadline-rb >/sys/block/nullb0/queue/scheduler
echo mq-deadline >/sys/block/nullb1/queue/scheduler
echo 8 >/sys/block/nullb1/queue/iosched/fifo_batch	# mq-deadline has one too
fb() { cat /sys/block/$1/queue/iosched/fifo_batch; }
# every tunable of every disk, to prove a failed command changed nothing
snap() { grep -r . /sys/block/*/queue/iosched/ 2>/dev/null | sort; }

out=$(dlctl set fifo_batch 16)
ok $? "dlctl set fifo_batch 16 succeeds"
[ "$(fb vda)" = 16 ] && [ "$(fb nullb0)" = 16 ]
ok $? "... and changed fifo_batch on vda and nullb0"
is "$(cat /sys/block/nullb1/queue/iosched/fifo_batch)" 8 "... but not on nullb1, which runs mq-deadline"
is "$out" "$(printf 'nullb0.fifo_batch = 16\nvda.fifo_batch = 16')" "... and printed the new values"
is "$(dlctl get fifo_batch)" "$(printf 'nullb0.fifo_batch = 16\nvda.fifo_batch = 16')" "dlctl get fifo_batch"

before=$(snap)
for bad in 0 65537 abc 1e3 1.5; do
	out=$(dlctl set fifo_batch "$bad" 2>/tmp/err)
	rc=$?
	[ $rc -eq 1 ] && [ -z "$out" ] && [ "$(snap)" = "$before" ] || break
done
[ $rc -eq 1 ] && [ -z "$out" ] && [ "$(snap)" = "$before" ]
ok $? "bad values (0, 65537, abc, 1e3, 1.5) exit 1 and change nothing anywhere"
grep -q "^dlctl: fifo_batch: '1.5': " /tmp/err
ok $? "... with a message naming the parameter and value"

dlctl -d /dev/vda set read_expire 250ms >/dev/null &&
	[ "$(cat /sys/block/vda/queue/iosched/read_expire)" = 250 ] &&
	[ "$(cat /sys/block/nullb0/queue/iosched/read_expire)" = 500 ]
ok $? "dlctl -d /dev/vda set read_expire 250ms: vda only"
dlctl -d nullb0 set hash_shift 14 >/dev/null &&
	[ "$(cat /sys/block/nullb0/queue/iosched/hash_shift)" = 14 ]
ok $? "dlctl -d nullb0 set hash_shift 14"
dlctl reset >/dev/null && [ "$(fb vda)" = 64 ] &&
	[ "$(cat /sys/block/vda/queue/iosched/read_expire)" = 500 ] &&
	[ "$(cat /sys/block/nullb0/queue/iosched/hash_shift)" = 10 ]
ok $? "dlctl reset: defaults again"

dlctl show >/tmp/show
ok $? "dlctl show"
ad=$(cat /sys/block/vda/queue/nr_requests)	# async_depth's default
grep -qE "^vda +deadline-rb +500 +5000 +2 +64 +4 +10 +1 +$ad +10000\$" /tmp/show &&
	grep -qE '^nullb1 +mq-deadline *$' /tmp/show
ok $? "... lists schedulers and deadline-rb's tunables, a column each"
dlctl show -J -d nullb1 -d vda >/tmp/show
grep -q '"sched": "mq-deadline",' /tmp/show && grep -q '"fifo_batch": null,' /tmp/show &&
	grep -q '"front_merges": true' /tmp/show && grep -q '"front_merges": null' /tmp/show
ok $? "dlctl show -J: typed values, null where deadline-rb does not run"
ln -sf /dev/nullb0 /tmp/by-id-link
is "$(dlctl get fifo_batch -d /tmp/by-id-link)" "nullb0.fifo_batch = 64" "-d of a symlink to /dev/nullb0, after the command"
out=$(dlctl set fifo_batch=12 seek_cost=3 -d vda) && [ "$(fb vda)" = 12 ] &&
	[ "$(cat /sys/block/vda/queue/iosched/seek_cost)" = 3 ]
ok $? "dlctl set fifo_batch=12 seek_cost=3: both"
dlctl reset >/dev/null

# stats: do some I/O first
dd if=/dev/nullb0 of=/dev/null bs=4k count=64 iflag=direct 2>/dev/null
dlctl -d nullb0 stats -o DIR,DISPATCHED -n -r >/tmp/stats
ok $? "dlctl stats"
awk '$1 == "read" && $2 >= 64 { found = 1 } END { exit !found }' /tmp/stats
ok $? "... shows the reads just done as dispatched"

# enable / disable round trip
dlctl -d nullb1 enable >/dev/null && [ "$(active_sched nullb1)" = deadline-rb ]
ok $? "dlctl -d nullb1 enable"
dlctl -d nullb1 -d /dev/nullb0 disable >/dev/null &&
	[ "$(active_sched nullb1)" != deadline-rb ] && [ "$(active_sched nullb0)" != deadline-rb ]
ok $? "dlctl -d nullb1 -d /dev/nullb0 disable: both back to the kernel's default"
is "$(active_sched nullb1)" mq-deadline "... nullb1 back to what it ran before enable"
is "$(active_sched nullb0)" "$kdef" "... nullb0 (enabled by echo) to what the kernel chose at probe"
echo kyber >/sys/block/nullb1/queue/scheduler
dlctl -d nullb1 enable >/dev/null && dlctl disable -d nullb1 -d nullb0 >/dev/null 2>/tmp/err
is "$(active_sched nullb1)" kyber "enable then disable puts kyber back"
[ "$(active_sched nullb0)" = "$kdef" ] &&
	grep -q "nullb0: runs $kdef, not deadline-rb; left alone" /tmp/err
ok $? "... and leaves nullb0, not running deadline-rb, alone"

# enable loads the module on demand
dlctl -d vda disable >/dev/null
rmmod deadline_rb
dlctl -d vda enable >/dev/null && [ -d /sys/module/deadline_rb ] && [ "$(active_sched vda)" = deadline-rb ]
ok $? "dlctl enable loads the module when it is not loaded"

# apply and save on the real sysfs: a switch resets the tunables, and the
# module is loaded by the switch itself
mkdir -p /tmp/conf
printf '[name nullb*]\nfifo_batch = 12\nread_expire = 250ms\n' >/tmp/conf/a.conf
# disable above holds nullb0 and nullb1 off deadline-rb against apply
# (udev.sh tests that); enable lifts it, then sysfs switches them away
dlctl -d nullb0 -d nullb1 enable >/dev/null
dlctl -d vda disable >/dev/null
echo mq-deadline >/sys/block/nullb0/queue/scheduler
echo none >/sys/block/nullb1/queue/scheduler
rmmod deadline_rb
out=$(dlctl apply --config /tmp/conf/a.conf)
ok $? "dlctl apply --config: [name nullb*] fifo_batch, read_expire"
[ "$(active_sched nullb0)" = deadline-rb ] && [ "$(active_sched nullb1)" = deadline-rb ] &&
	[ "$(fb nullb0)" = 12 ] && [ "$(fb nullb1)" = 12 ] &&
	[ "$(cat /sys/block/nullb1/queue/iosched/read_expire)" = 250 ]
ok $? "... both null_blk disks switched (module loaded by the switch) and tuned"
[ "$(active_sched vda)" != deadline-rb ] && echo "$out" | grep -qx 'nullb1: scheduler: none -> deadline-rb'
ok $? "... vda, which it does not match, left alone; the switch printed"
out=$(dlctl apply --config /tmp/conf/a.conf)
[ $? -eq 0 ] && [ -z "$out" ]
ok $? "a second apply changes nothing"
echo 20 >/sys/block/nullb0/queue/iosched/seek_cost
dlctl save -d nullb0 >/tmp/conf/saved.conf && echo mq-deadline >/sys/block/nullb0/queue/scheduler &&
	dlctl apply --config /tmp/conf/saved.conf >/dev/null
[ "$(active_sched nullb0)" = deadline-rb ] && [ "$(fb nullb0)" = 12 ] &&
	[ "$(cat /sys/block/nullb0/queue/iosched/seek_cost)" = 20 ]
ok $? "save, switch away (tunables lost), apply: all of them back"
printf '[name nullb1]\nfifo_batch = 13\n[name nullb0]\nfifo_batch = 14\nseek_cost = 0\n' \
	>/tmp/conf/bad.conf
before=$(snap)
dlctl apply --config /tmp/conf/bad.conf 2>/tmp/err
[ $? -eq 2 ] && [ "$(snap)" = "$before" ] && grep -q '/tmp/conf/bad.conf:5: seek_cost' /tmp/err
ok $? "a configuration error: exit 2, FILE:LINE named, nothing of the file applied"

done_testing
