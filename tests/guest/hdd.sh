#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The seek-modelled disk (tests/hdd/dlrb-hdd.c): it loads, is rotational,
# keeps data (fio verify), serves random and sequential reads as the
# datasheet it models says (from its own counters and from fio's), and
# deadline-rb on it dispatches in ascending order: the head turns back once
# a sweep, where `none` turns at every other request.
. /tests/guest/lib.sh

plan 19

D=/sys/kernel/debug/dlrb-hdd
# stat NAME: a counter of the fixture
stat() { sed -n "s/^$1 //p" $D/stats; }
model() { sed -n "s/^$1 //p" $D/model; }
# within GOT WANT PERCENT
within() { awk -v g="$1" -v w="$2" -v p="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d * 100 <= w * p) }'; }
# fio_terse NAME ARGS...: run fio on hdd0, terse v3 output in /tmp/NAME.terse
fio_terse() {
	name=$1
	shift
	fio --name="$name" --filename=/dev/hdd0 --direct=1 --ioengine=libaio \
		--output-format=terse --terse-version=3 "$@" >"/tmp/$name.terse" 2>&1
}
# terse field N of /tmp/NAME.terse (v3: 7 read KiB/s, 8 read IOPS, 16 read clat mean us)
field() { cut -d';' -f"$2" "/tmp/$1.terse" | head -n 1; }

modprobe dlrb-hdd store=1
ok $? "modprobe dlrb-hdd store=1"
is "$(cat /sys/block/hdd0/queue/rotational)" 1 "hdd0 is rotational"
diag "$(tr '\n' ' ' <$D/model)"
rot=$(model rotation_ns)
is "$rot" 8333333 "7200 rpm: a revolution in 8.333 ms"
within "$(model seek_avg_ns)" 12000000 1
ok $? "the fitted seek curve's mean is the datasheet's 12 ms, within 1%"
within "$(model seek_t2t_ns)" 1000000 1
ok $? "... and a one-track seek costs its 1.0 ms, within 1%"

fio_verify hdd-verify hdd0 libaio 2M --iodepth=4
ok $? "fio crc32c verify on hdd0 (store=1)"

# QD1 random 4 KiB reads over the whole disk: average seek, half a turn,
# and the transfer, from the datasheet's figures
echo 0 >$D/stats
fio_terse qd1 --rw=randread --bs=4k --iodepth=1 --runtime=6 --time_based
ok $? "fio: QD1 random 4 KiB reads, 6 s"
n=$(stat requests)
want=$((12000000 + rot / 2 + 60000))
svc=$(($(stat busy_ns) / (n ? n : 1)))
diag "QD1 random read: $n requests, modelled service $svc ns, fio clat mean $(field qd1 16) us; want $want ns"
within "$svc" "$want" 10
ok $? "modelled service time within 10% of average seek + half a revolution"
within "$(field qd1 16 | cut -d. -f1)000" "$want" 10
ok $? "... and so is fio's mean completion latency"

# sequential 1 MiB reads from the outer zone: the sustained rate
fio_terse seq --rw=read --bs=1M --iodepth=1 --size=192M
ok $? "fio: sequential 1 MiB reads, 192 MiB from the outer diameter"
bw=$(field seq 7)
diag "sequential read: $bw KiB/s; datasheet 64.8 MB/s"
within "$((bw * 1024))" 64800000 10
ok $? "sequential rate within 10% of the outer zone's sustained rate"

# The order of dispatch, QD32 random reads.  deadline-rb with read_expire
# at its maximum is C-SCAN: one sweep up the disk after another, the head
# turning back twice a sweep.  At its defaults a sweep of 32 takes about
# read_expire, so some reads expire and a batch starts at the oldest
# instead; with 16 seeks a batch (fifo_batch 64, seek_cost 4) that stays
# rare.  At the seed's 32 and 16, two seeks a batch, the head turned back
# in 36 of 100 requests.
sweep() {
	echo "$1" >/sys/block/hdd0/queue/scheduler &&
		{ [ -z "${2:-}" ] || echo "$2" >/sys/block/hdd0/queue/iosched/read_expire; } &&
		echo 0 >$D/stats &&
		fio_terse "qd32-$1" --rw=randread --bs=4k --iodepth=32 --runtime=4 --time_based
}
sweep deadline-rb 600000
ok $? "deadline-rb, read_expire 600000 (C-SCAN): QD32 random reads, 4 s"
cn=$(stat requests) cr=$(stat reversals) cs=$(stat seek_ns)
sweep deadline-rb 500
ok $? "deadline-rb at its defaults (read_expire 500): the same"
dn=$(stat requests) dr=$(stat reversals) ds=$(stat seek_ns)
sweep none
nn=$(stat requests) nr=$(stat reversals) ns=$(stat seek_ns)
diag "C-SCAN: $cn requests, $cr reversals, seek $((cs / cn)) ns each"
diag "defaults: $dn, $dr, $((ds / dn)) ns; none: $nn, $nr, $((ns / nn)) ns"
[ $((cr * 8)) -le "$cn" ]
ok $? "C-SCAN: the head turns back at most once in 8 requests (it sweeps)"
[ $((cs / cn * 10)) -le $((ns / nn * 5)) ]
ok $? "... and its seeks cost at most half of none's"
[ $((ds / dn)) -lt $((ns / nn)) ]
ok $? "deadline-rb at its defaults seeks less than none"
[ $((dr * 6)) -le "$dn" ]
ok $? "deadline-rb at its defaults: the head turns back at most once in 6 requests"
[ $((nr * 10)) -ge $((nn * 4)) ]
ok $? "none: the head turns at 4 in 10 requests or more (arrival order)"

echo deadline-rb >/sys/block/hdd0/queue/scheduler && rmmod dlrb-hdd
ok $? "rmmod dlrb-hdd with deadline-rb attached"
done_testing
