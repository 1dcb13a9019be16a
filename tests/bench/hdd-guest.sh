#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The schedulers on the seek-modelled disk (tests/hdd/dlrb-hdd.c), inside
# one guest boot (run by tests/bench/run.sh through tests/vm):
#
#   hdd-guest.sh ROUNDS RUNTIME
#
# Four workloads, each run once per round under each scheduler, the
# schedulers in an order rotated by one every round:
#   randread  4 KiB random reads, QD32 (libaio)
#   flood     a sequential write flood (64 KiB, QD16) and one random reader
#             (4 KiB, psync)
#   seqread4  four sequential readers (64 KiB, psync), each in its own
#             quarter of the disk
#   randrw    4 KiB random reads and writes, 70/30, QD16 (libaio)
# "cscan" is deadline-rb with read_expire and write_expire at their maximum
# and writes_starved at its maximum: sorted sweeps and nothing else, the
# throughput limit of sorting.  Each run prints its fio JSON between
# "BENCH-BEGIN key=value..." and "BENCH-END", with the disk's own counters
# (the head's reversals, modelled seek time) after it.
set -u
rounds=${1:-3}
runtime=${2:-10}
scheds="deadline-rb cscan mq-deadline bfq kyber none"
dev=hdd0
D=/sys/kernel/debug/dlrb-hdd

. /tests/guest/lib.sh	# rotate

die() { echo "hdd-guest: $*" >&2; exit 1; }

modprobe dlrb-hdd || die "cannot load dlrb-hdd"
modprobe deadline-rb || die "cannot load deadline-rb"
[ -b /dev/$dev ] || die "no /dev/$dev"

# use SCHED: switch through none, so that every run starts from the
# defaults (a switch resets the tunables); cscan is deadline-rb, set so
use() {
	ios=/sys/block/$dev/queue/iosched
	want=$1
	[ "$1" = cscan ] && want=deadline-rb
	echo none >/sys/block/$dev/queue/scheduler
	echo "$want" >/sys/block/$dev/queue/scheduler || die "cannot switch to $want"
	[ "$1" = cscan ] || return 0
	for t in read_expire=600000 write_expire=600000 writes_starved=1000; do
		echo "${t#*=}" >"$ios/${t%=*}" || die "cannot set cscan's $t"
	done
}

# run KEYS FIO-ARGS...: one measured fio run
run() {
	keys=$1
	shift
	echo 0 >$D/stats
	fio --output-format=json --direct=1 --time_based --runtime="$runtime" \
		--filename=/dev/$dev "$@" >/tmp/fio.json 2>/tmp/fio.err
	rc=$?
	echo "BENCH-BEGIN $keys rc=$rc $(tr ' \n' '= ' <$D/stats)"
	cat /tmp/fio.json
	echo "BENCH-END"
	[ $rc -eq 0 ] || sed 's/^/# fio: /' /tmp/fio.err
}

quarter=$(($(cat /sys/block/$dev/size) * 512 / 4))
# deadline-rb's defaults, for the report's bound on read latency
use deadline-rb
defaults=
for t in read_expire fifo_batch seek_cost; do
	defaults="$defaults $t $(cat "$ios/$t")"
done
echo "hdd-guest: rounds=$rounds runtime=${runtime}s,$defaults $(tr '\n' ' ' <$D/model)"
r=1
while [ $r -le "$rounds" ]; do
	for s in $(rotate $((r - 1)) $scheds); do
		use "$s"
		run "section=hdd workload=randread sched=$s round=$r" --name=randread \
			--ioengine=libaio --rw=randread --bs=4k --iodepth=32
		use "$s"
		run "section=hdd workload=flood sched=$s round=$r" \
			--name=flood --ioengine=libaio --rw=write --bs=64k --iodepth=16 \
			--name=reader --ioengine=psync --rw=randread --bs=4k
		use "$s"
		run "section=hdd workload=seqread4 sched=$s round=$r" --name=seqread4 \
			--ioengine=psync --rw=read --bs=64k --numjobs=4 \
			--offset_increment="$quarter" --size="$quarter" --group_reporting
		use "$s"
		run "section=hdd workload=randrw sched=$s round=$r" --name=randrw \
			--ioengine=libaio --rw=randrw --rwmixread=70 --bs=4k --iodepth=16
	done
	r=$((r + 1))
done
use none
echo "hdd-guest: done"
