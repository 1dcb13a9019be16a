#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# deadline-rb's I/O priority classes on a slow device: a real-time reader
# keeps its latency far below a best-effort one's under a best-effort read
# flood and under a write flood; an idle-class reader goes only while the
# others pause, yet never waits past prio_aging_expire plus one batch; a
# cgroup's io.prio.class has the effect of ionice; and data written by all
# three classes at once reads back intact.
#
# The device: null_blk completing one request at a time (hw_queue_depth=1)
# after a 4 ms timer, nr_requests far above the floods' depth of 64, so
# that every request waits in the scheduler and the scheduler, not tag
# allocation, decides the order.  A random-read flood is the hard case: no
# preference of reads over writes can tell it from the reader.
. /tests/guest/lib.sh

DEV=nullb0
Q=/sys/block/$DEV/queue
STATS=/sys/kernel/debug/block/$DEV/sched/stats
CG=/sys/fs/cgroup
C_MS=4
AGING_MS=1000
# one batch at the defaults: 16 seeks of C_MS; the emulated guest's own
# time per request is of the order of the device's, hence the margin
BATCH_MS=$((16 * C_MS))
MARGIN_MS=300

# Does this kernel have io.prio.class (CONFIG_BLK_CGROUP_IOPRIO), and
# its promote-to-rt (6.12)?
mount -t cgroup2 none $CG 2>/dev/null
echo +io >$CG/cgroup.subtree_control 2>/dev/null
mkdir -p $CG/dlrb-probe
cgroup_ioprio=0 cg_rt=0
[ -f $CG/dlrb-probe/io.prio.class ] && cgroup_ioprio=1
echo promote-to-rt >$CG/dlrb-probe/io.prio.class 2>/dev/null && cg_rt=1
rmdir $CG/dlrb-probe

plan $((25 + cgroup_ioprio * 4 + cg_rt))

rmmod null_blk 2>/dev/null
modprobe null_blk nr_devices=1 gb=1 memory_backed=1 irqmode=2 \
	completion_nsec=$((C_MS * 1000000)) hw_queue_depth=1 &&
	echo deadline-rb >$Q/scheduler && echo 256 >$Q/nr_requests
ok $? "slow null_blk under deadline-rb: one request at a time, ${C_MS} ms each, 256 deep"
echo $AGING_MS >$Q/iosched/prio_aging_expire
is "$(cat $Q/iosched/prio_aging_expire)" $AGING_MS "prio_aging_expire set to $AGING_MS ms"

# counter NAME COLUMN(2=read,3=write): deadline-rb's debugfs counter
counter() { awk -v n="$1" -v c="$2" '$1 == n { print $c }' $STATS; }
# fio_prio NAME JOBS...: the jobs on the slow disk, terse, into /tmp/prio-NAME.out
fio_prio() {
	_n=$1
	shift
	fio --output-format=terse --terse-version=3 --filename=/dev/$DEV --direct=1 \
		--ioengine=libaio --bs=4k --time_based "$@" >"/tmp/prio-$_n.out" 2>&1
	_rc=$?
	[ $_rc -eq 0 ] || sed 's/^/# /' "/tmp/prio-$_n.out"
	return $_rc
}
# pct P JOB NAME: JOB's read completion latency percentile P in us (terse
# v3 fields 18-37, "P.000000%=us")
pct() {
	awk -F';' -v p="$1.000000%=" -v j="$2" '$3 == j { for (i = 18; i <= 37; i++)
		if (index($i, p) == 1) { sub(/.*=/, "", $i); print $i } }' "/tmp/prio-$3.out"
}
p99() { pct 99 "$@"; }
# lat_max JOB NAME: JOB's read latency maximum in us
lat_max() { awk -F';' -v j="$1" '$3 == j { print int($39) }' "/tmp/prio-$2.out"; }
# reads JOB NAME: reads JOB completed
reads() { awk -F';' -v j="$1" '$3 == j { print int($6 / 4) }' "/tmp/prio-$2.out"; }
# far_below RT BE: RT's p99 is under a fifth of BE's
far_below() { [ -n "$1" ] && [ -n "$2" ] && [ "$1" -gt 0 ] && [ $(($1 * 5)) -lt "$2" ]; }

# rt_vs_be NAME RW WHAT: a best-effort flood of RW at depth 64, and a
# real-time and a best-effort random reader at depth 1; two tests
rt_vs_be() {
	fio_prio "$1" --runtime=5 \
		--name=flood --rw="$2" --iodepth=64 \
		--name=rt --rw=randread --iodepth=1 --prioclass=1 --startdelay=1 \
		--name=be --rw=randread --iodepth=1 --startdelay=1
	ok $? "fio: a $3 flood at depth 64, a real-time and a best-effort reader"
	rt=$(p99 rt "$1") be=$(p99 be "$1")
	diag "$3 flood: p50/p99 rt $(pct 50 rt "$1")/${rt} us, be $(pct 50 be "$1")/${be} us;" \
		"reads rt $(reads rt "$1"), be $(reads be "$1")"
	far_below "$rt" "$be"
	ok $? "under the $3 flood the real-time reader's p99 is under a fifth of the best-effort one's"
}

# --- a best-effort random-read flood, which reads are not preferred over ---
rt0=$(counter rt_dispatched 2)
rt_vs_be readflood randread random-read
n=$(( $(counter rt_dispatched 2) - rt0 ))
[ "$n" -ge "$(reads rt readflood)" ] && [ "$(reads rt readflood)" -gt 100 ]
ok $? "the real-time reads reached the scheduler as RT ($n rt_dispatched)"

# --- a write flood ---
rt_vs_be writeflood randwrite random-write

# --- an idle-class reader: held back by the flood, served on aging, free after ---
aged0=$(counter idle_aged 2)
fio_prio idle \
	--name=flood --rw=randread --iodepth=64 --runtime=4 \
	--name=idle --rw=randread --iodepth=1 --prioclass=3 --runtime=6
ok $? "fio: an idle-class reader, a flood for 4 s of its 6"
max=$(lat_max idle idle) n=$(reads idle idle)
aged=$(( $(counter idle_aged 2) - aged0 ))
bound=$(( (AGING_MS + BATCH_MS + MARGIN_MS) * 1000 ))
diag "idle: latency max ${max} us, bound ${bound} us; $n reads, $aged served on aging"
[ -n "$max" ] && [ "$max" -ge $((AGING_MS * 1000 * 9 / 10)) ]
ok $? "the flood held the idle reader back (its worst read waited ${max} us)"
[ "$max" -le "$bound" ]
ok $? "but never past prio_aging_expire + one batch + ${MARGIN_MS} ms"
[ "$aged" -ge 2 ] && [ "$aged" -le 5 ]
ok $? "during the 4 s flood it was served only on aging: $aged reads (1 a second)"
[ "$n" -gt $((aged + 100)) ]
ok $? "once the flood paused it made progress: $n reads in all"

# --- ionice sets the class as fio's prioclass does ---
for c in 1:rt 2:be 3:idle; do
	cls=${c#*:}
	i0=$(counter "${cls}_inserted" 2)
	ionice -c "${c%%:*}" sh -c "$(command -v fio) --name=eight --filename=/dev/$DEV \
		--direct=1 --ioengine=psync --bs=4k --rw=read --size=32k" >/dev/null 2>&1
	n=$(( $(counter "${cls}_inserted" 2) - i0 ))
	is "$n" 8 "ionice -c ${c%%:*}: 8 direct reads counted as ${cls}_inserted"
done

# --- a cgroup's io.prio.class ---
# in_cg GROUP CMD...: CMD in cgroup GROUP
in_cg() {
	_g=$1
	shift
	sh -c "echo \$\$ >$CG/$_g/cgroup.procs && exec \"\$@\"" sh "$@"
}
# cg_reader GROUP NAME: a 4 s random reader at depth 1 in GROUP
cg_reader() {
	in_cg "$1" fio --output-format=terse --terse-version=3 --filename=/dev/$DEV \
		--direct=1 --ioengine=libaio --bs=4k --time_based --runtime=4 \
		--name="$2" --rw=randread --iodepth=1 >"/tmp/prio-$2.out" 2>&1
}
if [ $cgroup_ioprio = 1 ]; then
	mkdir -p $CG/rt $CG/idle $CG/be
	echo idle >$CG/idle/io.prio.class && echo restrict-to-be >$CG/be/io.prio.class
	# shellcheck disable=SC2320 # the writes' status is the point
	ok $? "cgroups with io.prio.class idle and restrict-to-be"
	# 6.12 promotes every bio to RT.  6.1 has only none-to-rt, which never
	# applies to a task's direct I/O: 6.1 gives such a bio the task's own
	# class (best-effort, from its nice value) before the cgroup is asked.
	rc=1
	echo promote-to-rt >$CG/rt/io.prio.class 2>/dev/null && rc=0
	case $(uname -r) in 6.1.*) [ $rc -ne 0 ] ;; *) [ $rc -eq 0 ] ;; esac
	ok $? "io.prio.class promote-to-rt where the kernel has it (6.12), not on 6.1"
	rt0=$(counter rt_dispatched 2) idle0=$(counter idle_dispatched 2)
	fio_prio cgflood --runtime=6 \
		--name=flood --rw=randread --iodepth=64 \
		--name=be --rw=randread --iodepth=1 --startdelay=1 &
	flood=$!
	sleep 1
	cg_reader idle cgidle &
	idler=$!
	rc=0
	[ $cg_rt = 1 ] && { cg_reader rt cgrt || rc=1; }
	wait $idler || rc=1
	wait $flood || rc=1
	ok $rc "fio: the read flood, a best-effort reader, readers in the idle and the RT cgroup"
	max=$(lat_max cgidle cgidle) n=$(( $(counter idle_dispatched 2) - idle0 ))
	diag "cgroup idle: latency max ${max} us, $(reads cgidle cgidle) reads, idle_dispatched $n"
	[ -n "$max" ] && [ "$max" -ge $((AGING_MS * 1000 * 9 / 10)) ] &&
		[ "$max" -le "$bound" ] && [ "$n" -ge "$(reads cgidle cgidle)" ]
	ok $? "a reader in the idle cgroup is held back and served on aging, as under ionice -c3"
	if [ $cg_rt = 1 ]; then
		rt=$(p99 cgrt cgrt) be=$(p99 be cgflood)
		n=$(( $(counter rt_dispatched 2) - rt0 ))
		diag "cgroup rt: p99 ${rt} us, be ${be} us; $(reads cgrt cgrt) reads, rt_dispatched $n"
		far_below "$rt" "$be" && [ "$n" -ge "$(reads cgrt cgrt)" ]
		ok $? "a reader in the promote-to-rt cgroup is real-time, as under ionice -c1"
	fi
	b0=$(counter be_inserted 2) r0=$(counter rt_inserted 2)
	in_cg be ionice -c 1 fio --name=eight --filename=/dev/$DEV --direct=1 \
		--ioengine=psync --bs=4k --rw=read --size=32k >/dev/null 2>&1
	is "$(( $(counter be_inserted 2) - b0 )) $(( $(counter rt_inserted 2) - r0 ))" "8 0" \
		"ionice -c1 in the restrict-to-be cgroup: 8 reads counted best-effort"
	rmdir $CG/rt $CG/idle $CG/be
else
	case $(uname -r) in *-amd64) rc=0 ;; *) rc=1 ;; esac
	ok $rc "no io.prio.class: Debian's $(uname -r) is built without CONFIG_BLK_CGROUP_IOPRIO"
fi

# --- verified data from the three classes at once ---
for c in 1 2 3; do
	fio_verify prio$c $DEV libaio 1M --iodepth=16 --offset=$((c * 64))M --prioclass=$c &
	eval "pid$c=\$!"
done
for c in 1 2 3; do
	eval "wait \$pid$c"
	ok $? "verified fio in class $c, beside the other two"
done

# --- bad values are refused and change nothing ---
for bad in 0 600001 -1 1x ""; do
	echo "$bad" >$Q/iosched/prio_aging_expire 2>/dev/null
	# shellcheck disable=SC2320 # the write's status is the point
	rc=$?
	[ $rc -ne 0 ] && [ "$(cat $Q/iosched/prio_aging_expire)" = $AGING_MS ]
	ok $? "prio_aging_expire '$bad' refused, $AGING_MS kept"
done
echo 10000 >$Q/iosched/prio_aging_expire

sed 's/^/# /' $STATS | grep -E '^# (rt|be|idle)_'
[ "$(counter rt_queued 2)$(counter be_queued 2)$(counter idle_queued 2)" = 000 ]
ok $? "nothing left queued in any class"
done_testing
