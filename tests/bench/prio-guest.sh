#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# I/O priority classes: deadline-rb beside mq-deadline and bfq, inside one
# guest boot (run by tests/bench/run.sh through tests/vm):
#
#   prio-guest.sh ROUNDS RUNTIME
#
# The device: null_blk serving one request at a time (hw_queue_depth=1),
# 2 ms each, nr_requests 256, so that every request waits in the
# scheduler.  Each workload runs a best-effort flood of 64 in flight and
# three 4 KiB random readers at depth 1, one per class: real-time (fio's
# prioclass=1), best-effort (no class) and idle (prioclass=3):
#   readflood   the flood is 4 KiB random reads, all RUNTIME long
#   writeflood  the flood is 4 KiB random writes, all RUNTIME long
#   pause       random reads again, the flood and the real-time and
#               best-effort readers stopping halfway: the idle reader's
#               chance
# Every scheduler at its defaults (prio_aging_expire 10 s in deadline-rb
# and mq-deadline).  Each run prints its fio JSON between
# "BENCH-BEGIN key=value..." and "BENCH-END".
set -u
rounds=${1:-2}
runtime=${2:-30}
scheds="deadline-rb mq-deadline bfq"
dev=nullb0

. /tests/guest/lib.sh	# rotate

die() { echo "prio-guest: $*" >&2; exit 1; }

rmmod null_blk 2>/dev/null
modprobe null_blk nr_devices=1 gb=4 irqmode=2 completion_nsec=2000000 \
	hw_queue_depth=1 || die "cannot load null_blk"
modprobe deadline-rb || die "cannot load deadline-rb"

# use SCHED: switch through none, so that every run starts from the
# defaults, then 256 requests deep
use() {
	echo none >/sys/block/$dev/queue/scheduler
	echo "$1" >/sys/block/$dev/queue/scheduler || die "cannot switch to $1"
	echo 256 >/sys/block/$dev/queue/nr_requests || die "cannot set nr_requests"
}

# run KEYS END FLOOD-ARGS...: the flood, then the three readers from 1 s
# on, the real-time and best-effort ones until END s, the idle one until
# RUNTIME s
run() {
	keys=$1
	others="--startdelay=1 --runtime=$(($2 - 1))"
	shift 2
	# shellcheck disable=SC2086 # $others is options, split
	fio --output-format=json --direct=1 --time_based --runtime="$runtime" \
		--filename=/dev/$dev --ioengine=libaio --bs=4k \
		--name=flood --iodepth=64 "$@" \
		--name=rt --rw=randread --iodepth=1 --prioclass=1 $others \
		--name=be --rw=randread --iodepth=1 $others \
		--name=idle --rw=randread --iodepth=1 --prioclass=3 \
		--startdelay=1 --runtime=$((runtime - 1)) \
		>/tmp/fio.json 2>/tmp/fio.err
	rc=$?
	echo "BENCH-BEGIN $keys rc=$rc"
	cat /tmp/fio.json
	echo "BENCH-END"
	[ $rc -eq 0 ] || sed 's/^/# fio: /' /tmp/fio.err
}

echo "prio-guest: rounds=$rounds runtime=${runtime}s"
r=1
while [ $r -le "$rounds" ]; do
	for s in $(rotate $((r - 1)) $scheds); do
		use "$s"
		run "section=prio workload=readflood sched=$s round=$r" "$runtime" \
			--rw=randread
		use "$s"
		run "section=prio workload=writeflood sched=$s round=$r" "$runtime" \
			--rw=randwrite
		use "$s"
		run "section=prio workload=pause sched=$s round=$r" $((runtime / 2)) \
			--rw=randread --runtime=$((runtime / 2))
	done
	r=$((r + 1))
done
echo none >/sys/block/$dev/queue/scheduler	# none: one tag deep
echo "prio-guest: done"
