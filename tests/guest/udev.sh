#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dlctl.conf carried out by Debian's systemd-udevd through dlctl's rule
# (/lib/udev/rules.d/60-dlctl.rules), as on a booted system: coldplug of
# vda by its /dev/disk/by-id/ name (Debian's 60-persistent-storage.rules,
# from QEMU's serial), null_blk disks hot-added through configfs matched by
# name glob and by a by-id link, removal and re-adding, a disk that matches
# nothing, a broken file, drop-in precedence, idempotence, save then
# apply, and `dlctl disable` holding against udev's events.
. /tests/guest/lib.sh

plan 40

# null_blk disks are added through configfs only
rmmod null_blk
modprobe null_blk nr_devices=0
syslogd -O /tmp/messages
mkdir -p /etc/dlctl.d /usr/lib/dlctl.d /run

# A by-id link for null_blk, which has no serial: its size stands in for
# one, so that [id ...] finds a disk whatever its kernel name.
cat >/etc/udev/rules.d/59-dlrb-test-id.rules <<'EOF'
ACTION!="remove", SUBSYSTEM=="block", ENV{DEVTYPE}=="disk", KERNEL=="slow*", \
  SYMLINK+="disk/by-id/nullb-test-$attr{size}"
EOF

cat >/etc/dlctl.d/50-test.conf <<'EOF'
# vda, by Debian's by-id name for QEMU's serial
[id virtio-dlrb-vda]
read_expire = 250ms
fifo_batch = 12

# every tunable, by kernel name
[name fast*]
scheduler = deadline-rb
read_expire = 300ms
write_expire = 4s
writes_starved = 3
fifo_batch = 24
seek_cost = 20
hash_shift = 12
front_merges = 0
async_depth = 16
prio_aging_expire = 20s

# by a by-id link (512 MiB: 1048576 sectors)
[id nullb-test-1048576]
fifo_batch = 40
write_expire = 6000
EOF

# DEV TUNABLE: its value
tv() { cat "/sys/block/$1/queue/iosched/$2"; }
# every tunable of DEV, name=value (on Linux 7.2 async_depth is the
# block layer's queue/async_depth)
tunables() {
	{
		(cd "/sys/block/$1/queue/iosched" && grep -r . .)
		[ -e "/sys/block/$1/queue/iosched/async_depth" ] ||
			echo "./async_depth:$(cat "/sys/block/$1/queue/async_depth")"
	} | sort
}
snap() { grep -r . /sys/block/*/queue/scheduler /sys/block/*/queue/iosched/ 2>/dev/null | sort; }

# add NAME MiB: a memory-backed null_blk disk through configfs
add() {
	mkdir "/sys/kernel/config/nullb/$1" &&
		echo 1 >"/sys/kernel/config/nullb/$1/memory_backed" &&
		echo "$2" >"/sys/kernel/config/nullb/$1/size" &&
		echo 1 >"/sys/kernel/config/nullb/$1/power"
}
del() {
	echo 0 >"/sys/kernel/config/nullb/$1/power" && rmdir "/sys/kernel/config/nullb/$1"
}
settle() { udevadm settle -t 60; }
# milliseconds since boot
ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }
# the syslog lines of dlctl since mark N (a line count)
mark() { wc -l </tmp/messages; }
logged() { tail -n +"$(($1 + 1))" /tmp/messages | grep ' dlctl\['; }

# --- udevd, and boot's coldplug ---
# stdout and stderr away from the run's pipe, which must reach its end
/lib/systemd/systemd-udevd --daemon --debug >/dev/null 2>/tmp/udevd.log
ok $? "systemd-udevd starts"
kdef_vda=$(active_sched vda)
udevadm trigger --action=add --subsystem-match=block && settle
ok $? "coldplug: udevadm trigger --action=add, settle"
grep -q 'Reading rules file: /lib/udev/rules.d/60-dlctl.rules' /tmp/udevd.log
ok $? "udevd reads /lib/udev/rules.d/60-dlctl.rules"
! grep -iE '\.rules:[0-9]+.*(invalid|unknown|failed|error|ignor)' /tmp/udevd.log
ok $? "... and finds nothing wrong in any rule"
[ -L /dev/disk/by-id/virtio-dlrb-vda ]
ok $? "Debian's rule made /dev/disk/by-id/virtio-dlrb-vda"
is "$(active_sched vda) $(tv vda read_expire) $(tv vda fifo_batch)" "deadline-rb 250 12" \
	"coldplug: vda by its by-id name: deadline-rb, read_expire 250, fifo_batch 12"
grep -q ' dlctl\[[0-9]*\]: vda: scheduler: '"$kdef_vda"' -> deadline-rb$' /tmp/messages
ok $? "... and dlctl said so in syslog"

# --- hot-plug by name glob: the scheduler and every tunable ---
t0=$(ms)
add fast1 256
ok $? "hot-add fast1 through configfs"
t1=
while [ $(($(ms) - t0)) -lt 30000 ]; do
	if [ "$(active_sched fast1 2>/dev/null)" = deadline-rb ] &&
		[ "$(tv fast1 prio_aging_expire 2>/dev/null)" = 20000 ]; then
		t1=$(ms)
		break
	fi
	sleep 0.05
done
[ -n "$t1" ]
ok $? "fast1 applied within 30 s of add"
diag "add to applied: $((${t1:-0} - t0)) ms"
settle
want="./async_depth:16
./fifo_batch:24
./front_merges:0
./hash_shift:12
./prio_aging_expire:20000
./read_expire:300
./seek_cost:20
./write_expire:4000
./writes_starved:3"
is "$(tunables fast1)" "$want" "fast1, by [name fast*]: every tunable as configured"

# --- by a by-id link, whatever the kernel name ---
m=$(mark)
add slowA 512 && settle
ok $? "hot-add slowA (512 MiB)"
[ -L /dev/disk/by-id/nullb-test-1048576 ]
ok $? "... the test rule made its by-id link"
is "$(active_sched slowA) $(tv slowA fifo_batch) $(tv slowA write_expire) $(tv slowA read_expire)" \
	"deadline-rb 40 6000 500" "slowA, by [id nullb-test-1048576]: its settings, the rest defaults"
logged "$m" | grep -q 'slowA: fifo_batch: 64 -> 40$'
ok $? "... logged to syslog by the rule's dlctl --syslog"

# --- removed and added again, under another name ---
del slowA && settle
ok $? "slowA removed"
add slowB 512 && settle && [ "$(active_sched slowB) $(tv slowB fifo_batch)" = "deadline-rb 40" ]
ok $? "re-added as slowB: the same by-id link, the same settings"
del slowB && add slowA 512 && settle &&
	[ "$(active_sched slowA) $(tv slowA fifo_batch)" = "deadline-rb 40" ]
ok $? "re-added as slowA again: applied again"

# --- a disk that matches nothing ---
m=$(mark)
add other1 128 && settle
ok $? "hot-add other1, which no section matches"
[ "$(active_sched other1)" != deadline-rb ] && ! logged "$m" | grep -q other1
ok $? "... left alone: $(active_sched other1), nothing logged"

# --- a broken file: nothing from it, reported with file and line ---
cat >/etc/dlctl.d/40-broken.conf <<'EOF'
[name fast*]
fifo_batch = 3
read_expire = soon
EOF
m=$(mark)
add fast2 128 && settle
ok $? "hot-add fast2 with a broken file in /etc/dlctl.d"
is "$(tv fast2 fifo_batch) $(tv fast2 read_expire)" "24 300" \
	"fast2: nothing from the broken file, the good one applied"
logged "$m" | grep -q 'dlctl\[[0-9]*\]: /etc/dlctl.d/40-broken.conf:3: .*nothing from this file'
ok $? "... the broken file reported in syslog with file and line"
grep -q "fast2: Process '/usr/bin/dlctl --syslog apply -d fast2' failed with exit code 2" \
	/tmp/udevd.log
ok $? "... and udevd saw exit status 2"
rm /etc/dlctl.d/40-broken.conf

# --- drop-in precedence ---
cat >/usr/lib/dlctl.d/50-test.conf <<'EOF'
[name prec*]
fifo_batch = 50
EOF
cat >/usr/lib/dlctl.d/60-vendor.conf <<'EOF'
[name prec*]
seek_cost = 7
writes_starved = 4
EOF
cat >/etc/dlctl.d/70-site.conf <<'EOF'
[name prec*]
writes_starved = 5
read_expire = 100ms
EOF
cat >/etc/dlctl.conf <<'EOF'
[name prec*]
read_expire = 150ms
EOF
add prec1 128 && settle
ok $? "hot-add prec1"
is "$(tv prec1 fifo_batch) $(tv prec1 seek_cost) $(tv prec1 writes_starved) $(tv prec1 read_expire)" \
	"64 7 5 150" "precedence: /etc/dlctl.d hides /usr/lib's file of its name; later files win"

# --- idempotent ---
before=$(snap)
out=$(dlctl apply 2>&1)
ok $? "dlctl apply by hand: exit 0"
is "$out" "" "... prints nothing: everything is applied already"
m=$(mark)
udevadm trigger --action=change --subsystem-match=block && settle
echo "$before" >/tmp/before
snap >/tmp/after
logged "$m" >/tmp/logged
cmp -s /tmp/before /tmp/after && ! [ -s /tmp/logged ]
rc=$?
ok $rc "a change event on every disk: nothing changes, nothing logged"
if [ $rc -ne 0 ]; then
	sed 's/^/# /' /tmp/logged
	diff /tmp/before /tmp/after | sed 's/^/# /'
fi

# --- save, then apply ---
dlctl -d slowA set fifo_batch=9 read_expire=700ms >/dev/null
dlctl save -d slowA >/etc/dlctl.d/90-saved.conf
ok $? "dlctl save -d slowA > /etc/dlctl.d/90-saved.conf"
grep -q '^\[id nullb-test-1048576\]$' /etc/dlctl.d/90-saved.conf
ok $? "... saved by its by-id name"
del slowA && add slowA 512 && settle
is "$(tv slowA fifo_batch) $(tv slowA read_expire)" "9 700" \
	"re-added: the saved settings came back"
dlctl -d slowA reset >/dev/null && out=$(dlctl apply -d slowA) &&
	[ "$(tv slowA fifo_batch) $(tv slowA read_expire)" = "9 700" ]
ok $? "reset, then dlctl apply -d slowA: the saved settings again"
echo "$out" | grep -q '^slowA: fifo_batch: 64 -> 9$'
ok $? "... and it said what it changed"

# --- dlctl disable holds against udev ---
dlctl disable -d fast1 >/dev/null
ok $? "dlctl disable -d fast1"
off=$(active_sched fast1)
m=$(mark)
udevadm trigger --action=change /sys/block/fast1 && settle
is "$(active_sched fast1)" "$off" "a change event: fast1 stays off deadline-rb"
logged "$m" | grep -q "fast1: .*dlctl disable"
ok $? "... and the rule's dlctl says why in syslog"
out=$(dlctl apply -d fast1 2>&1)
rc=$?
[ $rc -eq 0 ] && [ "$(active_sched fast1)" = "$off" ] && echo "$out" | grep -q 'dlctl enable'
ok $? "dlctl apply by hand: left alone too, saying how to undo"
dlctl enable -d fast1 >/dev/null && udevadm trigger --action=change /sys/block/fast1 && settle
is "$(active_sched fast1) $(tv fast1 fifo_batch)" "deadline-rb 24" \
	"dlctl enable -d fast1: a change event applies again"
dlctl disable -d fast1 >/dev/null && del fast1 && add fast1 256 && settle
is "$(active_sched fast1) $(tv fast1 fifo_batch)" "deadline-rb 24" \
	"disabled, then removed and added: a new disk, applied"

# the pipe of this run must close: no daemon may keep it
udevadm control --exit
ok $? "udevd exits"
done_testing
