#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dlctl against a fake sysfs tree, in TAP: every command, every error path,
# JSON checked by a real parser.  DLCTL names the binary (or a wrapper, such
# as valgrind); the default is build/dlctl-asan (AddressSanitizer + UBSan).
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
read -r -a DLCTL <<<"${DLCTL:-$top/build/dlctl-asan}"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
tmp=$(mktemp -d /tmp/dlctl-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0

echo "1..72"
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2"
		sed 's/^/# out: /' "$tmp/out"
		sed 's/^/# err: /' "$tmp/err"
	fi
}

# A fake /sys: vda and nullb0 run deadline-rb, sda mq-deadline (one hardware
# queue), nvme0n1 none (two); vda has a partition; debugfs has counters.
mkfake() {
	local r=$1 d
	rm -rf "$r"
	for d in vda nullb0; do
		mkdir -p "$r/block/$d/queue/iosched" "$r/block/$d/mq/0" \
			"$r/kernel/debug/block/$d/sched"
		echo "mq-deadline kyber bfq [deadline-rb] none" >"$r/block/$d/queue/scheduler"
		printf '%s\n' 500 >"$r/block/$d/queue/iosched/read_expire"
		printf '%s\n' 5000 >"$r/block/$d/queue/iosched/write_expire"
		printf '%s\n' 2 >"$r/block/$d/queue/iosched/writes_starved"
		printf '%s\n' 32 >"$r/block/$d/queue/iosched/fifo_batch"
		printf '%s\n' 16 >"$r/block/$d/queue/iosched/seek_cost"
		printf '%s\n' 10 >"$r/block/$d/queue/iosched/hash_shift"
		printf '%s\n' 1 >"$r/block/$d/queue/iosched/front_merges"
		printf 'inserted     10 20\nmerged_back  0 7\nqueued       0 1\n' \
			>"$r/kernel/debug/block/$d/sched/stats"
	done
	mkdir -p "$r/block/vda/vda1"
	echo 1 >"$r/block/vda/vda1/partition"
	mkdir -p "$r/block/sda/queue/iosched" "$r/block/sda/mq/0"
	echo "[mq-deadline] kyber bfq deadline-rb none" >"$r/block/sda/queue/scheduler"
	echo 500 >"$r/block/sda/queue/iosched/read_expire"
	mkdir -p "$r/block/nvme0n1/queue" "$r/block/nvme0n1/mq/0" "$r/block/nvme0n1/mq/1"
	echo "[none] mq-deadline kyber bfq deadline-rb" >"$r/block/nvme0n1/queue/scheduler"
}
R=$tmp/sys
mkfake "$R"

# dl ARGS...: run dlctl on the fake tree; status in $st, streams in files
dl() {
	"${DLCTL[@]}" --sysfs-root "$R" "$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
}
val() { cat "$R/block/$1/queue/iosched/$2"; }
sched() { cat "$R/block/$1/queue/scheduler"; }
# the active one: bracketed as the kernel shows it, or all a fake file holds
active() { sed 's/.*\[\(.*\)\].*/\1/' "$R/block/$1/queue/scheduler"; }
json_ok() { python3 -m json.tool "$tmp/out" >/dev/null 2>&1; }
# snapshot of every tunable, to prove a failed command changed nothing
snap() { (cd "$R/block" && grep -r . --include='*' ./*/queue | sort); }

# --- conventions ---
"${DLCTL[@]}" --help >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && grep -q '^Usage:' "$tmp/out" && [ ! -s "$tmp/err" ]
ok $? "--help: usage on stdout, exit 0"
"${DLCTL[@]}" -V >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && grep -q '^dlctl [0-9]' "$tmp/out"
ok $? "-V prints the version"
dl
[ $st -eq 2 ] && grep -q "Try 'dlctl --help'" "$tmp/err" && [ ! -s "$tmp/out" ]
ok $? "no command: usage error, exit 2"
dl frobnicate
[ $st -eq 2 ] && grep -q "unknown command 'frobnicate'" "$tmp/err"
ok $? "unknown command: exit 2"
dl --frobnicate show
[ $st -eq 2 ] && grep -q "Try 'dlctl --help'" "$tmp/err"
ok $? "unknown option: exit 2"
dl get
[ $st -eq 2 ]
ok $? "get without a parameter: exit 2"
dl get nosuch
[ $st -eq 2 ] && grep -q "unknown parameter 'nosuch'" "$tmp/err"
ok $? "get of an unknown parameter: exit 2"
dl set fifo_batch
[ $st -eq 2 ]
ok $? "set without a value: exit 2"
dl show extra
[ $st -eq 2 ]
ok $? "show with an argument: exit 2"
dl --json set fifo_batch 16
[ $st -eq 2 ] && [ "$(val vda fifo_batch)" = 32 ]
ok $? "--json with set: exit 2, nothing set"

# --- show ---
dl show
[ $st -eq 0 ] && [ "$(grep -c . "$tmp/out")" -eq 5 ]
ok $? "show: a header and one line per device"
grep -q '^vda  *deadline-rb .*fifo_batch=32' "$tmp/out" &&
	grep -q '^sda  *mq-deadline *$' "$tmp/out" &&
	grep -q '^nvme0n1  *none *$' "$tmp/out"
ok $? "show: schedulers, and tunables for deadline-rb devices only"
dl --json show
json_ok
ok $? "show --json is valid JSON"
python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))["devices"]
by = {x["name"]: x for x in d}
assert [x["name"] for x in d] == ["nullb0", "nvme0n1", "sda", "vda"]
assert by["vda"]["scheduler"] == "deadline-rb"
assert by["vda"]["tunables"]["fifo_batch"] == 32
assert by["vda"]["tunables"]["front_merges"] == 1
assert by["sda"]["tunables"] is None' "$tmp/out" 2>>"$tmp/err"
ok $? "show --json: devices sorted, numbers as numbers, null tunables elsewhere"
dl -d sda show
[ $st -eq 0 ] && [ "$(grep -c . "$tmp/out")" -eq 2 ]
ok $? "show -d sda: just that device"

# --- get ---
dl get fifo_batch
[ $st -eq 0 ] && [ "$(cat "$tmp/out")" = "$(printf 'nullb0.fifo_batch = 32\nvda.fifo_batch = 32')" ]
ok $? "get: every deadline-rb queue, name = value"
dl --json get read_expire
json_ok && python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
assert d["parameter"] == "read_expire"
assert d["devices"] == [{"name": "nullb0", "value": 500}, {"name": "vda", "value": 500}]' \
	"$tmp/out" 2>>"$tmp/err"
ok $? "get --json: valid, one value per device"
dl -d /dev/vda1 get hash_shift
[ $st -eq 0 ] && [ "$(cat "$tmp/out")" = "vda.hash_shift = 10" ]
ok $? "-d /dev/vda1: a partition means its disk"
dl -d sda get fifo_batch
[ $st -eq 1 ] && grep -q "dlctl: sda: does not run deadline-rb" "$tmp/err" && [ ! -s "$tmp/out" ]
ok $? "get on a device not running deadline-rb: exit 1, says how to enable"
dl -d nosuch get fifo_batch
[ $st -eq 1 ] && grep -q "dlctl: nosuch: no such block device" "$tmp/err"
ok $? "-d of a missing device: exit 1"
dl -d ../vda get fifo_batch
[ $st -eq 1 ] && grep -q "not a block device name" "$tmp/err"
ok $? "-d with a path outside /dev: refused"

# --- set ---
before=$(snap)
dl set fifo_batch 16
[ $st -eq 0 ] && [ "$(val vda fifo_batch)" = 16 ] && [ "$(val nullb0 fifo_batch)" = 16 ]
ok $? "set fifo_batch 16: every deadline-rb queue"
[ "$(cat "$tmp/out")" = "$(printf 'nullb0.fifo_batch = 16\nvda.fifo_batch = 16')" ]
ok $? "set prints the new values"
[ "$(cat "$R/block/sda/queue/iosched/read_expire")" = 500 ] && [ ! -e "$R/block/sda/queue/iosched/fifo_batch" ]
ok $? "set leaves other schedulers' queues alone"
dl -d vda set fifo_batch 8
[ $st -eq 0 ] && [ "$(val vda fifo_batch)" = 8 ] && [ "$(val nullb0 fifo_batch)" = 16 ]
ok $? "set -d vda: only vda"
dl -d vda -d /dev/nullb0 -d vda set seek_cost 4
[ $st -eq 0 ] && [ "$(val vda seek_cost)" = 4 ] && [ "$(val nullb0 seek_cost)" = 4 ] &&
	[ "$(grep -c . "$tmp/out")" -eq 2 ]
ok $? "-d repeated, a device named twice acts once"
dl set read_expire 250ms
[ $st -eq 0 ] && [ "$(val vda read_expire)" = 250 ]
ok $? "set read_expire 250ms"
dl set write_expire 2s
[ $st -eq 0 ] && [ "$(val vda write_expire)" = 2000 ]
ok $? "set write_expire 2s is 2000 ms"
dl set front_merges off
[ $st -eq 0 ] && [ "$(val vda front_merges)" = 0 ]
ok $? "set front_merges off"
dl set front_merges on
[ $st -eq 0 ] && [ "$(val vda front_merges)" = 1 ]
ok $? "set front_merges on"
dl set writes_starved 0
[ $st -eq 0 ] && [ "$(val vda writes_starved)" = 0 ]
ok $? "set writes_starved 0 (its minimum)"
dl set hash_shift 20
[ $st -eq 0 ] && [ "$(val vda hash_shift)" = 20 ]
ok $? "set hash_shift 20 (its maximum)"

# bad values: refused before anything is written
for bad in 0 65537 abc -1 "" 1.5 12abc " 12" +5 4294967296 18446744073709551616 16ms 0x10; do
	before=$(snap)
	dl set fifo_batch "$bad"
	[ $st -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q "^dlctl: fifo_batch: '$bad': " "$tmp/err" &&
		[ "$(snap)" = "$before" ]
	ok $? "set fifo_batch '$bad': exit 1, message, nothing on stdout, nothing changed"
done
for bad in 0ms 600001 601s 1m 2S ms; do
	before=$(snap)
	dl set read_expire "$bad"
	[ $st -eq 1 ] && [ "$(snap)" = "$before" ]
	ok $? "set read_expire '$bad': refused, nothing changed"
done
dl set front_merges maybe
[ $st -eq 1 ] && grep -q "not a boolean" "$tmp/err"
ok $? "set front_merges maybe: refused"

# a refusal by the kernel midway: what was changed is put back
before=$(snap)
DLCTL_TEST_FAIL_WRITE=block/vda/queue/iosched/fifo_batch dl set fifo_batch 64
[ $st -eq 1 ] && grep -q "^dlctl: vda: fifo_batch: Input/output error" "$tmp/err" && [ ! -s "$tmp/out" ]
ok $? "kernel refusal on vda: exit 1, the kernel's errno text per device"
[ "$(snap)" = "$before" ]
ok $? "... and nullb0, already changed, is restored: nothing changed anywhere"

# --- reset ---
dl reset
[ $st -eq 0 ] && [ "$(val vda fifo_batch)" = 32 ] && [ "$(val nullb0 seek_cost)" = 16 ] &&
	[ "$(val vda read_expire)" = 500 ] && [ "$(val vda write_expire)" = 5000 ] &&
	[ "$(val vda hash_shift)" = 10 ] && [ "$(val vda writes_starved)" = 2 ]
ok $? "reset: every tunable back to its default"
[ "$(grep -c . "$tmp/out")" -eq 14 ]
ok $? "reset prints 7 values for each of 2 devices"
dl set fifo_batch 7
before=$(snap)
DLCTL_TEST_FAIL_WRITE=block/vda/queue/iosched/hash_shift dl reset
[ $st -eq 1 ] && [ "$(snap)" = "$before" ]
ok $? "reset refused midway: nothing changed anywhere"
dl reset

# --- enable / disable ---
dl enable
[ $st -eq 2 ] && grep -q "enable needs the devices" "$tmp/err"
ok $? "enable without -d: usage error"
dl -d sda enable
[ $st -eq 0 ] && [ "$(sched sda)" = deadline-rb ] && grep -q '^sda: mq-deadline -> deadline-rb$' "$tmp/out"
ok $? "enable -d sda: switched, old and new shown"
# as the kernel would now show it (a fake file only keeps what was written)
echo "mq-deadline kyber bfq [deadline-rb] none" >"$R/block/sda/queue/scheduler"
dl -d sda disable
[ $st -eq 0 ] && [ "$(sched sda)" = mq-deadline ]
ok $? "disable -d sda: back to mq-deadline (one hardware queue)"
dl -d nvme0n1 enable
dl -d nvme0n1 disable
[ $st -eq 0 ] && [ "$(sched nvme0n1)" = none ]
ok $? "disable -d nvme0n1: back to none (two hardware queues)"
mkfake "$R"
DLCTL_TEST_FAIL_WRITE=block/sda/queue/scheduler dl -d nvme0n1 -d sda enable
[ $st -eq 1 ] && grep -q "dlctl: sda: cannot switch to deadline-rb" "$tmp/err" &&
	[ "$(active nvme0n1)" = none ] && [ ! -s "$tmp/out" ]
ok $? "enable refused on sda: nvme0n1 switched back, exit 1"
dl -d vda disable
dl get fifo_batch
[ $st -eq 0 ] && [ "$(cat "$tmp/out")" = "nullb0.fifo_batch = 32" ]
ok $? "after disable -d vda, get acts on nullb0 only"
mkfake "$R"

# --- stats ---
dl stats
[ $st -eq 0 ] && grep -q '^vda  *read  *write$' "$tmp/out" && grep -q '^merged_back  *0  *7$' "$tmp/out"
ok $? "stats: a read/write table per device"
dl --json stats
json_ok && python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))["devices"]
assert [x["name"] for x in d] == ["nullb0", "vda"]
assert d[1]["stats"]["inserted"] == {"read": 10, "write": 20}' "$tmp/out" 2>>"$tmp/err"
ok $? "stats --json: valid, counters per direction"
rm -rf "$R/kernel/debug/block/vda"
dl stats
[ $st -eq 1 ] && grep -q "is debugfs mounted" "$tmp/err" && [ ! -s "$tmp/out" ]
ok $? "stats without debugfs: exit 1, says why, nothing on stdout"
mkfake "$R"

# --- no device runs deadline-rb ---
echo "[mq-deadline] deadline-rb none" >"$R/block/vda/queue/scheduler"
echo "[none] deadline-rb" >"$R/block/nullb0/queue/scheduler"
for cmd in "get fifo_batch" "set fifo_batch 8" reset stats; do
	# shellcheck disable=SC2086
	dl $cmd
	[ $st -eq 1 ] && grep -q "no device runs deadline-rb; enable it with 'dlctl -d DEV enable'" "$tmp/err"
	ok $? "$cmd with no deadline-rb device: exit 1, says how to enable"
done
mkfake "$R"

# --- the root: option, environment, missing ---
DLCTL_SYSFS_ROOT=$R "${DLCTL[@]}" get fifo_batch >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(grep -c . "$tmp/out")" -eq 2 ]
ok $? "DLCTL_SYSFS_ROOT sets the root"
"${DLCTL[@]}" --sysfs-root "$tmp/nowhere" show >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "nowhere/block: No such file or directory" "$tmp/err"
ok $? "a missing root: exit 1, names the path"

exit 0

