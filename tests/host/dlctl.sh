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

echo "1..96"
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
[ $? -eq 0 ] && grep -qx "dlctl $("$top/scripts/version.sh")" "$tmp/out"
ok $? "-V prints CHANGELOG's version"
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

# --- profile: a regular file stands in for each device node ---
# (in the build directory: O_DIRECT needs a disk file system, not tmpfs)
mkdir -p "$top/build"
D=$(mktemp -d "$top/build/dlctl-dev.XXXXXX")
trap 'rm -rf "$tmp" "$D"' EXIT
export DLCTL_DEV_DIR=$D
mkprof() {
	local d
	mkfake "$R"
	for d in vda nullb0; do
		echo 32768 >"$R/block/$d/size"		# 16 MiB in sectors
		yes "$d" | head -c 16M >"$D/$d"
		printf 'expired      1 2\nstarved      0 3\nbatches      4 5\n' \
			>>"$R/kernel/debug/block/$d/sched/stats"
	done
	echo 7:90 >"$R/block/vda/dev"
	echo 7:91 >"$R/block/vda/vda1/dev"
	echo 7:92 >"$R/block/nullb0/dev"
}
sum() { md5sum <"$D/$1"; }
pr() { dl -d nullb0 profile "$@"; }
# pyjson 'python expression on d': the JSON on stdout, checked in Python
pyjson() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($1) else 1)" "$tmp/out"; }
mkprof

pr fifo_batch 1,8 64 --runtime-per-value 100ms
[ $st -eq 0 ] && [ "$(grep -cE '^ +(1|8|64) \|' "$tmp/out")" -eq 3 ] &&
	grep -q '^nullb0: fifo_batch, randread, iodepth 16, bs 4096, 0.1 s per value (was 32, restored)' "$tmp/out"
ok $? "profile fifo_batch 1,8 64: a table row per value"
is_val() { [ "$(val "$1" "$2")" = "$3" ]; }
is_val nullb0 fifo_batch 32
ok $? "... and fifo_batch is back to 32"
pr fifo_batch 4 12 --runtime-per-value 100ms --json
[ $st -eq 0 ] && pyjson 'd["device"] == "nullb0" and d["parameter"] == "fifo_batch" and d["original"] == 32
	and d["workload"] == "randread" and [r["value"] for r in d["rows"]] == [4, 12]
	and all(r["read"]["ios"] > 0 and r["read"]["iops"] > 0 and r["write"]["ios"] == 0 for r in d["rows"])
	and all(0 < r["read"]["lat_us"]["p50"] <= r["read"]["lat_us"]["p99"] <= r["read"]["lat_us"]["max"] for r in d["rows"])
	and all(set(r) >= {"merges", "expired", "starved", "batches"} for r in d["rows"])'
ok $? "profile --json: valid, rows for 4 and 12, reads only, p50 <= p99 <= max"
dl --json -d nullb0 profile fifo_batch 4 --duration 100ms
[ $st -eq 0 ] && pyjson 'len(d["rows"]) == 1 and abs(d["runtime_per_value"] - 0.1) < 1e-9'
ok $? "dlctl --json ... profile --duration: JSON too, the duration is the whole run"
pr fifo_batch 1,64 --duration 200ms --json
[ $st -eq 0 ] && pyjson 'abs(d["runtime_per_value"] - 0.1) < 1e-9'
ok $? "--duration 200ms over two values: 0.1 s each"
pr read_expire 100ms,1s --runtime-per-value 50ms --csv
[ $st -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 3 ] &&
	head -1 "$tmp/out" | grep -q '^read_expire,read_iops,read_mb_per_s,read_p50_us,read_p99_us,read_max_us,write_iops,' &&
	[ "$(cut -d, -f1 "$tmp/out" | tail -2 | tr '\n' ' ')" = "100 1000 " ] &&
	[ "$(awk -F, '{print NF}' "$tmp/out" | sort -u)" = 15 ] && is_val nullb0 read_expire 500
ok $? "profile read_expire 100ms,1s --csv: header, two rows of 15 fields, ms units, restored"

before=$(sum nullb0)
pr fifo_batch 8 -w randrw --allow-write --runtime-per-value 100ms --json
[ $st -eq 0 ] && pyjson 'd["rows"][0]["read"]["ios"] > 0 and d["rows"][0]["write"]["ios"] > 0' &&
	[ "$(sum nullb0)" != "$before" ]
ok $? "randrw --allow-write: reads and writes, and the device's data changed"
pr fifo_batch 8 -w seqwrite+randread --allow-write --runtime-per-value 100ms -q 4 --json
[ $st -eq 0 ] && pyjson 'd["iodepth"] == 4 and d["rows"][0]["read"]["ios"] > 0 and d["rows"][0]["write"]["ios"] > 0'
ok $? "seqwrite+randread -q 4: one reader, three writers, both directions counted"
mkprof
before=$(sum nullb0)
for w in randwrite randrw seqwrite seqwrite+randread; do
	pr fifo_batch 8 -w "$w" --runtime-per-value 100ms
	[ $st -eq 1 ] && [ ! -s "$tmp/out" ] &&
		grep -q "the $w workload writes to the device and destroys its data; add --allow-write" "$tmp/err" || break
done
[ $st -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$(sum nullb0)" = "$before" ] && is_val nullb0 fifo_batch 32
ok $? "every write workload without --allow-write: exit 1, says why, nothing written or set"

root_dev=$(awk '$5 == "/" { print $3; exit }' /proc/self/mountinfo)
echo "$root_dev" >"$R/block/nullb0/dev"
pr fifo_batch 8 -w randwrite --allow-write --runtime-per-value 100ms
[ $st -eq 1 ] && grep -q '^dlctl: nullb0: mounted on /; refusing to write to it$' "$tmp/err" &&
	[ "$(sum nullb0)" = "$before" ] && is_val nullb0 fifo_batch 32
ok $? "a mounted device ($root_dev, /): refused, nothing written or set"
pr fifo_batch 8 --runtime-per-value 50ms
[ $st -eq 0 ]
ok $? "... but read-only profiling of it is allowed"
mkprof
echo "$root_dev" >"$R/block/vda/vda1/dev"
dl -d /dev/vda1 profile fifo_batch 8 -w seqwrite --allow-write --runtime-per-value 100ms
[ $st -eq 1 ] && grep -q '^dlctl: vda: mounted on /; refusing' "$tmp/err"
ok $? "a disk with a mounted partition: refused"
mkprof
mkdir -p "$R/block/nullb0/holders/dm-0" "$R/block/vda/vda1/holders/md0"
pr fifo_batch 8 -w randwrite --allow-write --runtime-per-value 100ms
[ $st -eq 1 ] && grep -q '^dlctl: nullb0: held by dm-0; refusing to write to it$' "$tmp/err"
ok $? "a device held by dm-0: refused"
dl -d vda profile fifo_batch 8 -w randwrite --allow-write --runtime-per-value 100ms
[ $st -eq 1 ] && grep -q '^dlctl: vda: vda1 is held by md0; refusing to write to it$' "$tmp/err"
ok $? "a disk whose partition is held by md0: refused"
mkprof

echo 8192 >"$R/block/vda/vda1/size"
yes vda1 | head -c 4M >"$D/vda1"
before=$(sum vda)
dl -d /dev/vda1 profile fifo_batch 8 -w randwrite --allow-write --runtime-per-value 100ms --json
[ $st -eq 0 ] && pyjson 'd["device"] == "vda" and d["target"] == "vda1" and d["size"] == 4194304' &&
	[ "$(sum vda)" = "$before" ] && is_val vda fifo_batch 32
ok $? "profile -d /dev/vda1: vda's tunable, I/O to the partition only"
dl profile fifo_batch 8 --runtime-per-value 50ms
[ $st -eq 1 ] && grep -q 'profile runs on one device; choose it with -d DEV' "$tmp/err"
ok $? "profile with two deadline-rb devices and no -d: exit 1, says to choose"
dl -d sda profile fifo_batch 8 --runtime-per-value 50ms
[ $st -eq 1 ] && grep -q "sda: does not run deadline-rb" "$tmp/err"
ok $? "profile on a device without deadline-rb: exit 1"
before=$(snap)
pr fifo_batch 8,0 --runtime-per-value 50ms
[ $st -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q "fifo_batch: '0': out of range (1..65536)" "$tmp/err" &&
	[ "$(snap)" = "$before" ]
ok $? "a bad value in the list: exit 1 before anything runs, nothing changed"
DLCTL_TEST_FAIL_WRITE=block/nullb0/queue/iosched/fifo_batch pr fifo_batch 8 --runtime-per-value 50ms
[ $st -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q '^dlctl: nullb0: fifo_batch: 8: Input/output error' "$tmp/err" &&
	[ "$(snap)" = "$before" ]
ok $? "the kernel refuses the value: exit 1, its errno shown, nothing changed"
bad=0
for args in "fifo_batch 8 -w nosuch" "fifo_batch 8 --runtime-per-value 5x" \
	"fifo_batch 8 --runtime-per-value 0" "fifo_batch 8 --duration 1s --runtime-per-value 1s" \
	"fifo_batch" "nosuch 8" "fifo_batch 8 -q 0" "fifo_batch 8 --iodepth 2000" \
	"fifo_batch 8 --bs 1000" "fifo_batch 8 --size 0" "fifo_batch 8 --csv --bogus"; do
	# shellcheck disable=SC2086
	pr $args
	if [ $st -ne 2 ] || [ -s "$tmp/out" ] || ! grep -q "Try 'dlctl --help'" "$tmp/err"; then
		echo "# profile $args: status $st"
		bad=1
	fi
done
dl --json -d nullb0 profile fifo_batch 8 --csv
[ $st -eq 2 ] && [ "$bad" -eq 0 ] && [ "$(snap)" = "$before" ]
ok $? "profile usage errors (workload, times, values, iodepth, bs, size, --json --csv): exit 2"
rm "$D/nullb0"
pr fifo_batch 8 --runtime-per-value 50ms
[ $st -eq 1 ] && grep -q "nullb0: No such file or directory" "$tmp/err" && is_val nullb0 fifo_batch 32
ok $? "no device node: exit 1, names it, nothing changed"
mkprof
echo 4 >"$R/block/nullb0/size"
pr fifo_batch 8 --runtime-per-value 50ms
[ $st -eq 1 ] && grep -q "nullb0: smaller than one block of 4096 bytes" "$tmp/err"
ok $? "a device smaller than one block: exit 1"
mkprof

# a signal mid-run puts the original value back
for sig in INT TERM; do
	"${DLCTL[@]}" --sysfs-root "$R" -d nullb0 profile fifo_batch 1 2 3 \
		--runtime-per-value 2s >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	i=0
	while [ "$(val nullb0 fifo_batch)" = 32 ] && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	changed=$(val nullb0 fifo_batch)
	kill -"$sig" $pid
	wait $pid
	st=$?
	[ "$changed" = 1 ] && [ $st -eq 1 ] && [ ! -s "$tmp/out" ] && is_val nullb0 fifo_batch 32 &&
		grep -q "^dlctl: nullb0: interrupted by .*; fifo_batch restored to 32$" "$tmp/err"
	ok $? "SIG$sig mid-run (fifo_batch was $changed): exit 1, 32 restored, says so"
done

exit 0
