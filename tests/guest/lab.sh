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

# The verified I/O goes on, pass after pass, until the switcher has made
# its 20 switches on each disk, and the switches go on until the pass
# under way ends: every switch counted is one made during I/O, however
# slow the host.
loop_start vda fio_verify flip-vda vda libaio 4M
loop_start nullb0 fio_verify flip-nullb0 nullb0 io_uring 8M
WANT=20
LIMIT=300
switches=0
bad=0
t0=$(now_s)
met=0
while loop_running vda || loop_running nullb0; do
	if [ "$switches" -ge $((2 * WANT)) ] || [ $(($(now_s) - t0)) -ge $LIMIT ]; then
		[ "$switches" -lt $((2 * WANT)) ] || met=1
		loop_end vda
		loop_end nullb0
	fi
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
loop_stop vda
vp=$loop_passes vf=$loop_failed
loop_stop nullb0
np=$loop_passes nf=$loop_failed
[ "$vf" -eq 0 ]
ok $? "fio verify on vda survives scheduler switches: $vp passes, 0 errors ($vf failed)"
[ "$nf" -eq 0 ]
ok $? "fio verify on nullb0 survives scheduler switches: $np passes, 0 errors ($nf failed)"
is "$bad" 0 "every one of $switches switches took effect"
[ $met -eq 1 ]
ok $? "$WANT switches a disk during I/O ($switches switches; limit $LIMIT s)"
for dev in vda nullb0; do
	echo mq-deadline >/sys/block/$dev/queue/scheduler
done
[ "$(active_sched vda)" = mq-deadline ] && [ "$(active_sched nullb0)" = mq-deadline ]
ok $? "both devices end on mq-deadline"

done_testing
