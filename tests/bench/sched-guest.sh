#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The scheduler benchmark, inside one guest boot (run by tests/bench/run.sh
# through tests/vm):
#
#   sched-guest.sh ROUNDS RUNTIME
#
# Throughput: for each of ROUNDS rounds, each workload runs once under each
# scheduler, in an order rotated by one every round (A B C, B C A, ...), so
# that drift over the boot hits every scheduler alike and rounds can be
# compared pairwise.  Policy: a sequential write flood with one random
# reader on the slowed device, once per scheduler (and deadline-rb
# settings).  Each run prints its fio JSON between "BENCH-BEGIN key=value..."
# and "BENCH-END", with the CPU time the whole guest spent during the run
# (from /proc/stat, fio's own start-up included, alike for every scheduler).
set -u
rounds=${1:-5}
runtime=${2:-3}
scheds="deadline-rb mq-deadline kyber bfq none fifo-floor"

. /tests/guest/lib.sh	# rotate

die() { echo "sched-guest: $*" >&2; exit 1; }

modprobe fifo-floor || die "cannot load fifo-floor"
modprobe deadline-rb || die "cannot load deadline-rb"
# deadline-rb as it was before (tests/bench/run.sh, BENCH_BASE), if given
if [ -f /dlrb/files/dlrb-base.ko ]; then
	insmod /dlrb/files/dlrb-base.ko || die "cannot load dlrb-base.ko"
	scheds="deadline-rb dlrb-base ${scheds#deadline-rb }"
fi

# nullb0: fast, no data (the CPU cost of the I/O path is all there is).
# slow (configfs): one tag, 100 us per request, so requests queue in the
# scheduler; nr_requests is raised per scheduler.
rmmod null_blk 2>/dev/null
modprobe null_blk nr_devices=1 gb=64 || die "null_blk"
grep -q ' /sys/kernel/config ' /proc/mounts || mount -t configfs none /sys/kernel/config
cfg=/sys/kernel/config/nullb/slow
mkdir $cfg || die "null_blk configfs"
echo 64 >$cfg/size		# MiB
echo 2 >$cfg/irqmode		# timer
echo 100000 >$cfg/completion_nsec
echo 1 >$cfg/hw_queue_depth
echo 1 >$cfg/power || die "cannot power on the slow null_blk"
slow=slow			# 6.1 names a configfs null_blk after its directory
[ -b /dev/$slow ] || slow=nullb$(cat $cfg/index)
[ -b /dev/$slow ] || die "no /dev/$slow"

busy_jiffies() {
	# user nice system idle iowait irq softirq steal: all but idle and iowait
	awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat
}

# use DEV SCHED [NR_REQUESTS]: switch, and deepen the scheduler's queue
use() {
	echo "$2" >/sys/block/$1/queue/scheduler || die "$1: cannot switch to $2"
	[ -n "${3:-}" ] && echo "$3" >/sys/block/$1/queue/nr_requests 2>/dev/null
	return 0
}

# run KEYS FIO-ARGS...: one measured fio run
run() {
	keys=$1
	shift
	b=$(busy_jiffies)
	fio --output-format=json --direct=1 --time_based --runtime="$runtime" \
		"$@" >/tmp/fio.json 2>/tmp/fio.err
	rc=$?
	e=$(busy_jiffies)
	echo "BENCH-BEGIN $keys rc=$rc busy_jiffies=$((e - b)) hz=100"
	cat /tmp/fio.json
	echo "BENCH-END"
	[ $rc -eq 0 ] || sed 's/^/# fio: /' /tmp/fio.err
}

echo "sched-guest: $(nproc) CPUs, rounds=$rounds runtime=${runtime}s, slow device $slow"
r=1
while [ $r -le "$rounds" ]; do
	for s in $(rotate $((r - 1)) $scheds); do
		use nullb0 "$s"
		run "section=throughput workload=randread sched=$s round=$r" --name=randread \
			--filename=/dev/nullb0 --ioengine=io_uring --rw=randread --bs=4k --iodepth=32
		run "section=throughput workload=randwrite sched=$s round=$r" --name=randwrite \
			--filename=/dev/nullb0 --ioengine=io_uring --rw=randwrite --bs=4k --iodepth=32
		run "section=throughput workload=seqwrite sched=$s round=$r" --name=seqwrite \
			--filename=/dev/nullb0 --ioengine=io_uring --rw=write --bs=4k --iodepth=32
		use $slow "$s" 2048
		run "section=throughput workload=deepqueue sched=$s round=$r \
nr_requests=$(cat /sys/block/$slow/queue/nr_requests)" --name=deepqueue \
			--filename=/dev/$slow --ioengine=io_uring --rw=randread --bs=4k \
			--iodepth=2048 --iodepth_batch_submit=64 --iodepth_batch_complete_max=64
	done
	r=$((r + 1))
done

# policy: reads against a write flood, on the slow device, 256 requests
# deep, twice as long as a throughput run so that the reader sees enough
flood() {
	runtime=$((2 * runtime))
	run "section=policy sched=$1 setting=$2" \
		--name=flood --filename=/dev/$slow --ioengine=io_uring --rw=write --bs=4k \
		--iodepth=64 \
		--name=reader --filename=/dev/$slow --ioengine=psync --rw=randread --bs=4k
	runtime=$((runtime / 2))
}
for s in $scheds; do
	use $slow "$s" 256
	flood "$s" default
done
use $slow deadline-rb 256
ios=/sys/block/$slow/queue/iosched
for setting in read_expire=100 read_expire=2000 writes_starved=8; do
	echo 500 >$ios/read_expire
	echo 2 >$ios/writes_starved
	echo "${setting#*=}" >"$ios/${setting%=*}"
	flood deadline-rb "$setting"
done
echo 500 >$ios/read_expire
echo 2 >$ios/writes_starved
use $slow none
echo 0 >$cfg/power
rmdir $cfg
echo "sched-guest: done"
