#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The lab itself works: CPUs, devices, module load/unload, fio with verify,
# and switching the in-tree schedulers and deadline-rb while I/O is in flight.
. /tests/guest/lib.sh

plan 16

# --- the machine ---
is "$(cat /sys/devices/system/cpu/online)" "0-1" "guest sees 2 CPUs online"
is "$(grep -c '^processor' /proc/cpuinfo)" "2" "/proc/cpuinfo lists 2 processors"
[ -b /dev/vda ] && [ -d /sys/block/vda ]
ok $? "virtio disk vda exists"
[ -b /dev/nullb0 ] && [ -d /sys/block/nullb0 ]
ok $? "null_blk disk nullb0 exists"

# --- modules ---
rmmod null_blk && [ ! -e /sys/block/nullb0 ]
ok $? "rmmod null_blk removes nullb0"
modprobe null_blk nr_devices=1 gb=1 memory_backed=1 && [ -b /dev/nullb0 ]
ok $? "modprobe null_blk brings nullb0 back"
is "$(cat /sys/module/null_blk/parameters/memory_backed)" "Y" "null_blk is memory-backed"

# --- fio, crc32c-verified random write then read back ---

fio_verify vda-libaio vda libaio 8M
ok $? "fio crc32c randwrite+verify on vda (libaio): 0 errors"
fio_verify nullb0-uring nullb0 io_uring 16M
ok $? "fio crc32c randwrite+verify on memory-backed nullb0 (io_uring): 0 errors"

# --- switching schedulers while I/O is in flight ---
for dev in vda nullb0; do
	avail=$(cat /sys/block/$dev/queue/scheduler)
	missing=
	for s in mq-deadline kyber bfq none; do
		case " $avail " in
		*" $s "*|*"[$s]"*) ;;
		*) missing="$missing $s" ;;
		esac
	done
	is "$missing" "" "$dev offers mq-deadline, kyber, bfq and none"
done

fio_verify flip-vda vda libaio 8M --loops=2 &
pid_vda=$!
fio_verify flip-nullb0 nullb0 io_uring 16M --loops=2 &
pid_null=$!

switches=0
bad=0
while kill -0 $pid_vda 2>/dev/null || kill -0 $pid_null 2>/dev/null; do
	for s in mq-deadline kyber deadline-rb bfq none; do
		for dev in vda nullb0; do
			if ! echo $s >/sys/block/$dev/queue/scheduler ||
			   [ "$(active_sched $dev)" != "$s" ]; then
				bad=$((bad + 1))
				diag "$dev: switch to $s failed (now $(active_sched $dev))"
			fi
			switches=$((switches + 1))
		done
		sleep 0.2
	done
done
wait $pid_vda
ok $? "fio verify on vda survives scheduler switches: 0 errors"
wait $pid_null
ok $? "fio verify on nullb0 survives scheduler switches: 0 errors"
is "$bad" 0 "every one of $switches switches took effect"
[ "$switches" -ge 16 ]
ok $? "at least 16 switches happened during I/O ($switches)"
for dev in vda nullb0; do
	echo mq-deadline >/sys/block/$dev/queue/scheduler
done
[ "$(active_sched vda)" = mq-deadline ] && [ "$(active_sched nullb0)" = mq-deadline ]
ok $? "both devices end on mq-deadline"

done_testing
