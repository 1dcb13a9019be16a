#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dlctl against a fake sysfs tree, in TAP: every command, every error path,
# JSON checked by a real parser.  DLCTL names the binary (or a wrapper, such
# as valgrind); the default is build/dlctl-asan (AddressSanitizer + UBSan),
# a test build: the DLCTL_TEST_* hooks work in it alone.  Runs as root
# (device nodes made with mknod stand for -d paths).
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
read -r -a DLCTL <<<"${DLCTL:-$top/build/dlctl-asan}"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
tmp=$(mktemp -d /tmp/dlctl-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export DLCTL_TEST_RUN_DIR=$tmp/run	# the lock and enable's records
n=0
failed=0
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
# queue), nvme0n1 none (two); vda has a partition; debugfs has counters,
# those of each I/O priority class (prio_stats: name read write) after the
# others.  async_depth starts at the kernel's default, nr_requests: 256 on
# vda, 64 on nullb0, so that one fixed default cannot be right for both.
prio_stats='rt_inserted 3 0
rt_dispatched 3 0
rt_merged 0 0
rt_queued 0 0
rt_aged 0 0
be_inserted 7 19
be_dispatched 7 18
be_merged 0 7
be_queued 0 1
be_aged 0 2
idle_inserted 0 1
idle_dispatched 0 1
idle_merged 0 0
idle_queued 0 0
idle_aged 0 1'
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
		printf '%s\n' "$(nr_requests "$d")" >"$r/block/$d/queue/nr_requests"
		printf '%s\n' "$(nr_requests "$d")" >"$r/block/$d/queue/iosched/async_depth"
		printf '%s\n' 10000 >"$r/block/$d/queue/iosched/prio_aging_expire"
		{
			printf 'inserted     10 20\nmerged_back  0 7\nqueued       0 1\n'
			printf '%s\n' "$prio_stats"
		} >"$r/kernel/debug/block/$d/sched/stats"
	done
	mkdir -p "$r/block/vda/vda1"
	echo 1 >"$r/block/vda/vda1/partition"
	# the kernel's indexes: by name (class/block) and by number (dev/block)
	mkdir -p "$r/class/block" "$r/dev/block"
	ln -s ../../block/vda/vda1 "$r/class/block/vda1"
	ln -s ../../block/vda "$r/dev/block/7:90"
	ln -s ../../block/vda/vda1 "$r/dev/block/7:91"
	ln -s ../../block/nullb0 "$r/dev/block/7:92"
	mkdir -p "$r/block/sda/queue/iosched" "$r/block/sda/mq/0"
	echo "[mq-deadline] kyber bfq deadline-rb none" >"$r/block/sda/queue/scheduler"
	echo 500 >"$r/block/sda/queue/iosched/read_expire"
	mkdir -p "$r/block/nvme0n1/queue" "$r/block/nvme0n1/mq/0" "$r/block/nvme0n1/mq/1"
	echo "[none] mq-deadline kyber bfq deadline-rb" >"$r/block/nvme0n1/queue/scheduler"
}
nr_requests() { case $1 in vda) echo 256 ;; *) echo 64 ;; esac; }
R=$tmp/sys
mkfake "$R"

# dl ARGS...: run dlctl on the fake tree; status in $st, streams in files
dl() {
	"${DLCTL[@]}" --sysfs-root "$R" "$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
}
val() { cat "$R/block/$1/queue/iosched/$2"; }
# wait_until SECONDS CMD...: CMD every 50 ms until it succeeds (0) or
# SECONDS pass (1): a wait for an event, not a sleep that hopes for one.
# Its limits here, and the timeouts, are 300 s, for a hang to reach:
# make check runs this tier at nice 10 beside two lanes of guests, where
# under valgrind it took 596 s for what takes 213 alone.
wait_until() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -lt $end ] || return 1
		sleep 0.05
	done
}
# hold_lock: take dlctl's lock in the background and keep it until
# release_lock; returns once the lock is held, and $held is 0 if it was
held=1
hold_lock() {
	rm -f "$tmp/held" "$tmp/release"
	flock "$DLCTL_TEST_RUN_DIR/lock" sh -c \
		'touch "$1"; until [ -e "$2" ]; do sleep 0.05; done' sh "$tmp/held" "$tmp/release" &
	lockpid=$!
	wait_until 300 test -e "$tmp/held"
	held=$?
}
release_lock() {
	touch "$tmp/release"
	wait "$lockpid"
}
# dl_behind_lock DEV TUNABLE ARGS...: dl ARGS, started while hold_lock's
# lock is held; once it says it waits, $mid is DEV's TUNABLE and the lock
# is let go; $st is its status
dl_behind_lock() {
	local dev=$1 t=$2 pid
	shift 2
	"${DLCTL[@]}" --sysfs-root "$R" "$@" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	wait_until 300 grep -q 'waiting for another dlctl' "$tmp/err"
	mid=$(val "$dev" "$t")
	release_lock
	wait $pid
	st=$?
}
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
grep -qx ' async_depth .* (default nr_requests, 1\.\.nr_requests)' "$tmp/out" &&
	grep -qx ' fifo_batch .* (default 64, 1\.\.65536)' "$tmp/out"
ok $? "--help: a per-device default in words, a fixed one as its number"
params=$(sed -n '/^Parameters:$/,/^$/{/^ /p}' "$tmp/out")
[ "$(grep -c . <<<"$params")" -eq 9 ] && ! grep -qvE '^ [a-z_ ]{17} [a-z].* \(default .*\)$' <<<"$params" &&
	[ "$(tail -1 <<<"$params")" = \
		' prio_aging_expire ms before a lower priority class goes first (default 10000, 1..600000)' ]
ok $? "--help: 9 tunables, prio_aging_expire last, the descriptions in one column"
"${DLCTL[@]}" -V >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && grep -qx "dlctl $("$top/scripts/version.sh")" "$tmp/out"
ok $? "-V prints CHANGELOG's version"
dl set --help
[ $st -eq 0 ] && grep -q '^ dlctl \[options\] set <param> <value> | <param>=<value>\.\.\.$' "$tmp/out" &&
	! grep -q 'Commands:' "$tmp/out"
ok $? "set --help: the usage of set alone, exit 0"
# a command's --help lists the tunables when it takes them or acts on them
for cmd in get set reset profile enable disable stats apply save show; do
	dl "$cmd" --help
	case $cmd in get | set | reset | profile) want=9 ;; *) want=0 ;; esac
	[ $st -eq 0 ] && [ "$(sed -n '/^Parameters:$/,/^$/{/^ /p}' "$tmp/out" | grep -c .)" -eq $want ]
	ok $? "$cmd --help: $want tunables listed"
done
dl profile --help
[ $st -eq 0 ] && grep -q -- '^ -d, --device <dev> .*the device' "$tmp/out" && ! grep -q repeatable "$tmp/out"
ok $? "profile --help: -d names the one device, not 'repeatable' (profile refuses two)"
dl show --help
cols=$(sed -n '/^Available output columns:$/,/^$/{/^ /p}' "$tmp/out" | awk '{ print $1 }' | paste -sd' ')
[ $st -eq 0 ] && [ "$cols" = "NAME SCHED READ_EXPIRE WRITE_EXPIRE WRITES_STARVED FIFO_BATCH SEEK_COST HASH_SHIFT FRONT_MERGES ASYNC_DEPTH PRIO_AGING_EXPIRE" ]
ok $? "show --help: the columns, each with what it holds"
dl show --list-columns -J
json_ok && python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))["columns"]
assert [x["name"] for x in d] == sys.argv[2].split(), d
assert {x["name"]: x["type"] for x in d}["FRONT_MERGES"] == "boolean"
assert {x["name"]: x["type"] for x in d}["ASYNC_DEPTH"] == "number"
assert all(x["description"] for x in d)' "$tmp/out" "$cols" 2>>"$tmp/err"
ok $? "show --list-columns -J: the same columns, typed and described"
dl show -H -r -n
[ $st -eq 0 ] && [ "$(cut -d' ' -f1 "$tmp/out" | paste -sd' ')" = "$cols" ]
ok $? "show -H -r -n: one column a line"
dl get fifo_batch --list-columns
[ $st -eq 2 ] && grep -q -- '--list-columns: applies to show only' "$tmp/err"
ok $? "--list-columns with get: exit 2"
dl apply --config=
[ $st -eq 2 ] && grep -qx 'dlctl: --config: an empty file name' "$tmp/err"
ok $? "--config= (an empty value): exit 2, says so"
"${DLCTL[@]}" --help >/dev/full 2>"$tmp/err"
[ $? -eq 1 ] && grep -q '^dlctl: write error: No space left on device$' "$tmp/err"
ok $? "--help >/dev/full: exit 1, write error"
dl
[ $st -eq 2 ] && grep -q "Try 'dlctl --help'" "$tmp/err" && [ ! -s "$tmp/out" ]
ok $? "no command: usage error, exit 2"
dl frobnicate
[ $st -eq 2 ] && grep -q "unknown command 'frobnicate'" "$tmp/err"
ok $? "unknown command: exit 2"
dl --frobnicate show
[ $st -eq 2 ] && grep -qx "dlctl: unrecognized option '--frobnicate'" "$tmp/err"
ok $? "unknown option: exit 2, the message names dlctl, not the path run"
dl get
[ $st -eq 2 ]
ok $? "get without a parameter: exit 2"
dl get nosuch
[ $st -eq 2 ] && grep -q "unknown parameter 'nosuch'" "$tmp/err"
ok $? "get of an unknown parameter: exit 2"
dl get $'\e[31mred'
[ $st -eq 2 ] && grep -qF "unknown parameter '\\x1b[31mred'" "$tmp/err" && ! grep -q $'\e' "$tmp/err"
ok $? "control bytes of an argument are escaped in messages"
dl $'--\e[31mx' show
[ $st -eq 2 ] && grep -qF "unrecognized option '--\x1b[31mx'" "$tmp/err" && ! grep -q $'\e' "$tmp/err"
ok $? "an unknown option with control bytes: escaped too (getopt's own message is not used)"
dl show -o
[ $st -eq 2 ] && grep -q "option '-o' requires an argument" "$tmp/err"
ok $? "an option without its argument: exit 2"
dl get fifo_batch fifo_batch
[ $st -eq 2 ] && grep -q "'fifo_batch' given twice" "$tmp/err"
ok $? "get of a name twice: exit 2 (no duplicate JSON keys)"
dl set fifo_batch
[ $st -eq 2 ]
ok $? "set without a value: exit 2"
dl show extra
[ $st -eq 2 ]
ok $? "show with an argument: exit 2"
dl set fifo_batch 16 --json
[ $st -eq 2 ] && [ "$(val vda fifo_batch)" = 32 ] && grep -q -- '--json: output options apply' "$tmp/err"
ok $? "--json with set: exit 2, nothing set"
dl get fifo_batch --bs 8k
[ $st -eq 2 ] && grep -q -- '--bs: applies to profile only' "$tmp/err"
ok $? "a profile option with get: exit 2"
dl show -J -r
[ $st -eq 2 ] && grep -q 'exclude each other' "$tmp/err"
ok $? "two output formats: exit 2"
"${DLCTL[@]}" --sysfs-root "" show >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q -- '--sysfs-root: an empty path' "$tmp/err"
ok $? "--sysfs-root '': refused, not silently /sys"

# --- show ---
dl show
[ $st -eq 0 ] && [ "$(grep -c . "$tmp/out")" -eq 5 ] &&
	head -1 "$tmp/out" | grep -qE '^NAME +SCHED +READ_EXPIRE +WRITE_EXPIRE +WRITES_STARVED +FIFO_BATCH +SEEK_COST +HASH_SHIFT +FRONT_MERGES +ASYNC_DEPTH +PRIO_AGING_EXPIRE$'
ok $? "show: a header with one column per tunable, in sysfs's order, and a line per device"
grep -qE '^vda +deadline-rb +500 +5000 +2 +32 +16 +10 +1 +256 +10000$' "$tmp/out" &&
	grep -qE '^sda +mq-deadline *$' "$tmp/out" && grep -qE '^nvme0n1 +none *$' "$tmp/out"
ok $? "show: schedulers, and tunables for deadline-rb devices only"
# the README's walk-through shows what dlctl show prints: every column
sample=$(sed -n '/^    # dlctl show /,/^    # /p' "$top/README.md" | sed '1d;$d')
[ "$(head -1 <<<"$sample" | tr -s ' ' | sed 's/^ //')" = "$(head -1 "$tmp/out" | tr -s ' ')" ] &&
	[ "$(awk '{ print NF }' <<<"$sample" | sort -u)" = "$(head -1 "$tmp/out" | awk '{ print NF }')" ] &&
	[ "$(grep -c . <<<"$sample")" -ge 2 ]
ok $? "README.md's 'dlctl show' sample: dlctl show's header, and a value under each column"
dl show --json
json_ok && python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))["blockdevices"]
by = {x["name"]: x for x in d}
assert [x["name"] for x in d] == ["nullb0", "nvme0n1", "sda", "vda"]
assert by["vda"]["sched"] == "deadline-rb"
assert by["vda"]["fifo_batch"] == 32 and by["vda"]["read_expire"] == 500
assert by["vda"]["front_merges"] is True
assert by["vda"]["async_depth"] == 256 and by["nullb0"]["async_depth"] == 64
assert by["sda"]["fifo_batch"] is None and by["sda"]["front_merges"] is None
assert by["sda"]["async_depth"] is None
assert by["vda"]["prio_aging_expire"] == 10000 and by["sda"]["prio_aging_expire"] is None' \
	"$tmp/out" 2>>"$tmp/err"
ok $? "show --json (option after the command): flat records, typed, null elsewhere"
dl -d sda show
[ $st -eq 0 ] && [ "$(grep -c . "$tmp/out")" -eq 2 ]
ok $? "show -d sda: just that device"
dl show -o NAME,fifo_batch -n -r
[ $st -eq 0 ] && [ "$(cat "$tmp/out")" = "$(printf 'nullb0 32\nnvme0n1 \nsda \nvda 32')" ]
ok $? "show -o NAME,fifo_batch -n -r: the columns asked, no header, raw"
dl show -o hash_shift,NAME,Sched -P -d vda
[ $st -eq 0 ] && [ "$(cat "$tmp/out")" = 'HASH_SHIFT="10" NAME="vda" SCHED="deadline-rb"' ]
ok $? "show -o in any case and order -P: those columns, in that order, as pairs"
dl stats -o +QUEUED -r -n -d vda
[ $st -eq 0 ] && [ "$(head -1 "$tmp/out")" = "vda read 10 0 0" ]
ok $? "-o +LIST adds to the default columns (a column already there stays put)"
dl show -o NAME,nosuch
[ $st -eq 1 ] && grep -q "unknown column: 'nosuch'" "$tmp/err" && [ ! -s "$tmp/out" ]
ok $? "show -o with an unknown column: exit 1, names it"
# a bio-based device has no queue/scheduler (newer kernels hide it)
mkdir -p "$R/block/zram0/queue"
rm "$R/block/nullb0/queue/iosched/seek_cost"
mkdir "$R/block/nullb0/queue/iosched/seek_cost"	# unreadable: EISDIR
dl show --json
json_ok && python3 -c 'import json,sys
by = {x["name"]: x for x in json.load(open(sys.argv[1]))["blockdevices"]}
assert by["zram0"]["sched"] is None and by["zram0"]["fifo_batch"] is None
assert by["nullb0"]["seek_cost"] is None and by["nullb0"]["fifo_batch"] == 32
assert by["vda"]["seek_cost"] == 16' "$tmp/out" 2>>"$tmp/err" &&
	[ $st -eq 0 ] && grep -q '^dlctl: nullb0: seek_cost: Is a directory$' "$tmp/err"
ok $? "show goes on past a device without a scheduler (null) and an unreadable tunable"
mkfake "$R"
# a tunable that reads back as no number: null, never a bare word in JSON
echo abc >"$R/block/vda/queue/iosched/read_expire"
echo '2 3' >"$R/block/nullb0/queue/iosched/fifo_batch"
echo yes >"$R/block/vda/queue/iosched/front_merges"
dl show -J
json_ok && python3 -c 'import json,sys
by = {x["name"]: x for x in json.load(open(sys.argv[1]))["blockdevices"]}
assert by["vda"]["read_expire"] is None and by["vda"]["front_merges"] is None
assert by["nullb0"]["fifo_batch"] is None and by["vda"]["fifo_batch"] == 32' \
	"$tmp/out" 2>>"$tmp/err" && [ $st -eq 0 ] &&
	grep -qx "dlctl: vda: read_expire reads back as 'abc', not a number" "$tmp/err" &&
	grep -qx "dlctl: nullb0: fifo_batch reads back as '2 3', not a number" "$tmp/err" &&
	grep -qx "dlctl: vda: front_merges reads back as 'yes', not 0 or 1" "$tmp/err"
ok $? "show -J: a tunable that is no number (abc, '2 3', a boolean 'yes') is null, named on stderr"
dl get -J fifo_batch read_expire
json_ok && python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))["blockdevices"]
assert d == [{"name": "nullb0", "fifo_batch": None, "read_expire": 500},
             {"name": "vda", "fifo_batch": 32, "read_expire": None}]' \
	"$tmp/out" 2>>"$tmp/err" && [ $st -eq 0 ] && [ "$(grep -c 'not a number' "$tmp/err")" -eq 2 ]
ok $? "get -J: the same, null and a message for each"
echo 032 >"$R/block/vda/queue/iosched/fifo_batch"
dl show -J -d vda
json_ok && python3 -c 'import json,sys
assert json.load(open(sys.argv[1]))["blockdevices"][0]["fifo_batch"] == 32' "$tmp/out" 2>>"$tmp/err"
ok $? "show -J of a tunable reading 032: 32, valid JSON (no leading zero)"
mkfake "$R"

# --- get ---
dl get fifo_batch
[ $st -eq 0 ] && [ "$(cat "$tmp/out")" = "$(printf 'nullb0.fifo_batch = 32\nvda.fifo_batch = 32')" ]
ok $? "get: every deadline-rb queue, name = value"
dl get fifo_batch read_expire -d vda
[ $st -eq 0 ] && [ "$(cat "$tmp/out")" = "$(printf 'vda.fifo_batch = 32\nvda.read_expire = 500')" ]
ok $? "get of two tunables, -d after them"
dl -J get read_expire front_merges
json_ok && python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))["blockdevices"]
assert d == [{"name": "nullb0", "read_expire": 500, "front_merges": True},
             {"name": "vda", "read_expire": 500, "front_merges": True}]' \
	"$tmp/out" 2>>"$tmp/err"
ok $? "get -J: a flat record per device, typed"
dl -d vda1 get hash_shift
[ $st -eq 0 ] && [ "$(cat "$tmp/out")" = "vda.hash_shift = 10" ]
ok $? "-d vda1: a partition means its disk"
dl -d sda get fifo_batch
[ $st -eq 1 ] && grep -q "dlctl: sda: does not run deadline-rb" "$tmp/err" && [ ! -s "$tmp/out" ]
ok $? "get on a device not running deadline-rb: exit 1, says how to enable"
dl -d nosuch get fifo_batch
[ $st -eq 1 ] && grep -q "dlctl: nosuch: no such block device" "$tmp/err"
ok $? "-d of a missing device: exit 1"
dl -d ../vda get fifo_batch
[ $st -eq 1 ] && grep -q "dlctl: ../vda: No such file or directory" "$tmp/err"
ok $? "-d of a path that does not exist: exit 1"
dl -d "$R/block/vda/queue/scheduler" get fifo_batch
[ $st -eq 1 ] && grep -q "scheduler: not a block device$" "$tmp/err"
ok $? "-d of a regular file: not a block device"
printf '%0300d\n' 7 >"$R/block/vda/queue/iosched/hash_shift"
dl -d vda get hash_shift
[ $st -eq 1 ] && grep -q "vda: hash_shift: Value too large" "$tmp/err" && [ ! -s "$tmp/out" ]
ok $? "a value longer than dlctl reads: an error, not a cut value"
mkfake "$R"

# -d PATH: any path to a device node, resolved by its number (as util-linux)
N=$tmp/nodes
mkdir -p "$N/by-id"
mknod "$N/vda" b 7 90 && mknod "$N/vda1" b 7 91 && mknod "$N/nullb0" b 7 92 &&
	mknod "$N/other" b 7 99 && mknod "$N/chr" c 1 3 &&
	ln -s ../vda "$N/by-id/virtio-disk0" && ln -s ../vda1 "$N/by-id/virtio-disk0-part1"
ok $? "device nodes for the -d tests (mknod, needs root)"
dl -d "$N/by-id/virtio-disk0" get fifo_batch
[ $st -eq 0 ] && [ "$(cat "$tmp/out")" = "vda.fifo_batch = 32" ]
ok $? "-d /dev/disk/by-id/... (a symlink to the node): its disk"
dl -d "$N/by-id/virtio-disk0-part1" -d "$N/nullb0" get fifo_batch
[ $st -eq 0 ] && [ "$(cat "$tmp/out")" = "$(printf 'vda.fifo_batch = 32\nnullb0.fifo_batch = 32')" ]
ok $? "-d of a partition's by-id link and of another node: both disks, in order"
dl -d "$N/other" get fifo_batch
[ $st -eq 1 ] && grep -q "other: block device 7:99 is not in $R/dev/block" "$tmp/err"
ok $? "-d of a node sysfs does not know: exit 1, says which number"
dl -d "$N/chr" get fifo_batch
[ $st -eq 1 ] && grep -q "chr: not a block device" "$tmp/err"
ok $? "-d of a character device: not a block device"

# --- set ---
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
dl set seek_cost 4 -d vda -d nullb0 -d vda
[ $st -eq 0 ] && [ "$(val vda seek_cost)" = 4 ] && [ "$(val nullb0 seek_cost)" = 4 ] &&
	[ "$(grep -c . "$tmp/out")" -eq 2 ]
ok $? "-d repeated after the command, a device named twice acts once"
dl set fifo_batch=12 seek_cost=6 front_merges=off
[ $st -eq 0 ] && [ "$(val vda fifo_batch)" = 12 ] && [ "$(val nullb0 seek_cost)" = 6 ] &&
	[ "$(val nullb0 front_merges)" = 0 ] && [ "$(grep -c . "$tmp/out")" -eq 6 ]
ok $? "set NAME=VALUE...: every pair on every device"
before=$(snap)
dl set fifo_batch=10 seek_cost=0
[ $st -eq 1 ] && grep -q "^dlctl: seek_cost: '0': out of range (1..65536)$" "$tmp/err" && [ "$(snap)" = "$before" ]
ok $? "set with one bad pair: exit 1, none of the pairs set"
DLCTL_TEST_FAIL_WRITE=block/vda/queue/iosched/seek_cost dl set fifo_batch=10 seek_cost=9
[ $st -eq 1 ] && [ "$(snap)" = "$before" ]
ok $? "set NAME=VALUE... refused by the kernel midway: nothing changed anywhere"
dl set fifo_batch=10 nosuch=1
[ $st -eq 2 ] && grep -q "unknown parameter 'nosuch'" "$tmp/err" && [ "$(snap)" = "$before" ]
ok $? "set with an unknown name among pairs: exit 2, nothing set"
dl set fifo_batch=10 12
[ $st -eq 2 ] && grep -q "'12': not NAME=VALUE" "$tmp/err"
ok $? "set mixing NAME=VALUE and a bare word: exit 2"
dl set read_expire 250ms
[ $st -eq 0 ] && [ "$(val vda read_expire)" = 250 ]
ok $? "set read_expire 250ms"
dl set write_expire 2s
[ $st -eq 0 ] && [ "$(val vda write_expire)" = 2000 ]
ok $? "set write_expire 2s is 2000 ms"
dl set read_expire 1m
[ $st -eq 0 ] && [ "$(val vda read_expire)" = 60000 ]
ok $? "set read_expire 1m is 60000 ms (the one number parser: as --runtime-per-value)"
dl set read_expire 250MS
[ $st -eq 0 ] && [ "$(val vda read_expire)" = 250 ]
ok $? "set read_expire 250MS: units in any case, as sizes take them"
dl set prio_aging_expire 2s
[ $st -eq 0 ] && [ "$(val vda prio_aging_expire)" = 2000 ] && [ "$(val nullb0 prio_aging_expire)" = 2000 ] &&
	[ "$(cat "$tmp/out")" = "$(printf 'nullb0.prio_aging_expire = 2000\nvda.prio_aging_expire = 2000')" ]
ok $? "set prio_aging_expire 2s is 2000 ms, on every deadline-rb queue"
dl -d vda set prio_aging_expire=1
[ $st -eq 0 ] && [ "$(val vda prio_aging_expire)" = 1 ] && [ "$(val nullb0 prio_aging_expire)" = 2000 ]
ok $? "set prio_aging_expire=1 (its minimum) -d vda: only vda"
dl set prio_aging_expire 10m
[ $st -eq 0 ] && [ "$(val vda prio_aging_expire)" = 600000 ] && [ "$(val nullb0 prio_aging_expire)" = 600000 ]
ok $? "set prio_aging_expire 10m is 600000 ms (its maximum)"
dl -d vda get prio_aging_expire
[ $st -eq 0 ] && [ "$(cat "$tmp/out")" = "vda.prio_aging_expire = 600000" ]
ok $? "get prio_aging_expire"
# out of range, or not a time: CASE is VALUE|why
before=$(snap)
wrong=""
range_why='out of range (1..600000 ms)' time_why='not a time (like 250, 250ms, 2s, 1m)'
for case in "0|$range_why" "0ms|$range_why" "600001|$range_why" "601s|$range_why" \
	"11m|$range_why" "1.5s|$time_why" "10 s|$time_why" "-1|$time_why" "abc|$time_why" \
	"0x10|$time_why"; do
	v=${case%%|*}
	dl set prio_aging_expire="$v"
	[ $st -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$(snap)" = "$before" ] &&
		[ "$(cat "$tmp/err")" = "dlctl: prio_aging_expire: '$v': ${case#*|}" ] || wrong+=" '$v'"
done
[ -z "$wrong" ]
ok $? "set prio_aging_expire 0, 0ms, 600001, 601s, 11m (the range in ms), 1.5s, '10 s', -1, abc, 0x10 (not a time): exit 1, nothing changed${wrong:+ (not so:$wrong)}"
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
dl set async_depth 16
[ $st -eq 0 ] && [ "$(val vda async_depth)" = 16 ] && [ "$(val nullb0 async_depth)" = 16 ] &&
	[ "$(cat "$tmp/out")" = "$(printf 'nullb0.async_depth = 16\nvda.async_depth = 16')" ]
ok $? "set async_depth 16: every deadline-rb queue"
dl -d nullb0 set async_depth 64
[ $st -eq 0 ] && [ "$(val nullb0 async_depth)" = 64 ] && [ "$(val vda async_depth)" = 16 ]
ok $? "set async_depth 64 on nullb0 (its maximum there: nr_requests)"
before=$(snap)
dl set async_depth 65
[ $st -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$(snap)" = "$before" ] &&
	[ "$(cat "$tmp/err")" = "dlctl: nullb0: async_depth: '65': out of range (1..64, its nr_requests)" ]
ok $? "set async_depth 65: above nullb0's nr_requests (64), so on no queue: exit 1, nothing changed"
dl set async_depth 0
[ $st -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$(snap)" = "$before" ] &&
	[ "$(cat "$tmp/err")" = "dlctl: async_depth: '0': out of range (1..nr_requests)" ]
ok $? "set async_depth 0: exit 1, the range, nothing changed"
for bad in 2147483648 16ms; do
	dl set async_depth "$bad"
	[ $st -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$(snap)" = "$before" ] &&
		grep -q "^dlctl: async_depth: '$bad': " "$tmp/err"
	ok $? "set async_depth '$bad': exit 1, nothing changed"
done

# bad values: refused before anything is written, exit 1 as a bad option value
for bad in 0 65537 abc "" 1.5 12abc " 12" +5 4294967296 18446744073709551616 16ms 0x10 1e3; do
	before=$(snap)
	dl set fifo_batch "$bad"
	[ $st -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q "^dlctl: fifo_batch: '$bad': " "$tmp/err" &&
		[ "$(snap)" = "$before" ]
	ok $? "set fifo_batch '$bad': exit 1, message, nothing on stdout, nothing changed"
done
dl set fifo_batch=-1
[ $st -eq 1 ] && grep -q "^dlctl: fifo_batch: '-1': not a decimal number$" "$tmp/err" && [ "$(snap)" = "$before" ]
ok $? "set fifo_batch=-1: refused, not 2^64-1"
for bad in 0ms 600001 601s 11m 2x ms 0x1p-3; do
	before=$(snap)
	dl set read_expire "$bad"
	[ $st -eq 1 ] && [ "$(snap)" = "$before" ]
	ok $? "set read_expire '$bad': refused, nothing changed"
done
dl set front_merges maybe
[ $st -eq 1 ] && grep -qx "dlctl: front_merges: 'maybe': not a boolean (0, 1, on, off, yes, no, true, false)" "$tmp/err"
ok $? "set front_merges maybe: refused, one pair of brackets"
dl set read_expire 601s
grep -qx "dlctl: read_expire: '601s': out of range (1..600000 ms)" "$tmp/err"
ok $? "a time out of range: the range once, in ms"

# a refusal by the kernel midway: what was changed is put back
before=$(snap)
DLCTL_TEST_FAIL_WRITE=block/vda/queue/iosched/fifo_batch dl set fifo_batch 64
[ $st -eq 1 ] && [ "$(cat "$tmp/err")" = "dlctl: vda: fifo_batch: 64: Input/output error" ] && [ ! -s "$tmp/out" ]
ok $? "kernel refusal on vda: exit 1, the kernel's errno text, nothing else"
[ "$(snap)" = "$before" ]
ok $? "... and nullb0, already changed, is restored: nothing changed anywhere"
"${DLCTL[@]}" --sysfs-root "$R" set fifo_batch 40 >/dev/full 2>"$tmp/err"
st=$?
[ $st -eq 1 ] && grep -q 'write error' "$tmp/err" && grep -q 'the change was undone' "$tmp/err" &&
	[ "$(snap)" = "$before" ]
ok $? "set >/dev/full: exit 1, and the change undone (a failed command changes nothing)"
# a pipe whose reader is gone: EPIPE, not death by SIGPIPE after the change
python3 -c 'import os, subprocess, sys
r, w = os.pipe(); os.close(r)
sys.exit(subprocess.call(sys.argv[1:], stdout=w))' "${DLCTL[@]}" --sysfs-root "$R" set fifo_batch 40 2>"$tmp/err"
st=$?
[ $st -eq 1 ] && grep -q 'the change was undone' "$tmp/err" && [ "$(snap)" = "$before" ]
ok $? "set into a closed pipe: exit 1 (not killed by SIGPIPE), the change undone"
# a write the kernel takes, but that reads back as something else (a value
# clamped): changes go nullb0.fifo_batch, nullb0.seek_cost, vda.fifo_batch
# (clamped from 64 to 48; it was 12), vda.seek_cost; every one made is put
# back, the one that read back wrong included
before=$(snap)
DLCTL_TEST_CLAMP=block/vda/queue/iosched/fifo_batch:48 dl set fifo_batch=64 seek_cost=9
[ $st -eq 1 ] && [ ! -s "$tmp/out" ] &&
	[ "$(cat "$tmp/err")" = "dlctl: vda: fifo_batch: wrote 64, but it did not take" ] &&
	[ "$(snap)" = "$before" ] && [ "$(val vda fifo_batch)" = 12 ]
ok $? "set whose value reads back otherwise on vda: exit 1, every change put back, vda's too"

# --- the lock: one dlctl changes things at a time ---
mkdir -p "$DLCTL_TEST_RUN_DIR"
hold_lock
dl_behind_lock vda fifo_batch set fifo_batch 44
[ $held -eq 0 ] && [ "$mid" != 44 ] && [ $st -eq 0 ] && [ "$(val vda fifo_batch)" = 44 ] &&
	grep -q "waiting for another dlctl to finish ($DLCTL_TEST_RUN_DIR/lock)" "$tmp/err"
ok $? "set waits while another holds the lock (value then $mid), and goes on after"
bad=0
for i in $(seq 20); do
	"${DLCTL[@]}" --sysfs-root "$R" set fifo_batch=$((100 + i)) seek_cost=$((100 + i)) >/dev/null 2>&1 &
	"${DLCTL[@]}" --sysfs-root "$R" set fifo_batch=$((200 + i)) seek_cost=$((200 + i)) >/dev/null 2>&1 &
	wait
	[ "$(val vda fifo_batch)" = "$(val nullb0 fifo_batch)" ] &&
		[ "$(val vda fifo_batch)" = "$(val nullb0 seek_cost)" ] || bad=$((bad + 1))
done
[ $bad -eq 0 ]
ok $? "20 pairs of concurrent sets: every device ends with the same run's values ($bad mixed)"

# --- closed stdout and stderr: never the lock file's descriptor ---
# (the binary itself, without a wrapper: valgrind does not start with its
# stderr closed, exit 127)
bare=${DLCTL[${#DLCTL[@]}-1]}
lockf=$DLCTL_TEST_RUN_DIR/lock
: >"$lockf"
before=$(snap)
"$bare" --sysfs-root "$R" set fifo_batch 21 >&- 2>"$tmp/err"
st=$?
[ $st -eq 1 ] && [ "$(snap)" = "$before" ] && [ ! -s "$lockf" ] &&
	grep -q 'write error: Bad file descriptor' "$tmp/err" && grep -q 'the change was undone' "$tmp/err"
ok $? "set >&-: its report cannot be written, so undone, exit 1; nothing in the lock file"
"$bare" --sysfs-root "$R" reset >&- 2>"$tmp/err"
st=$?
[ $st -eq 1 ] && [ "$(snap)" = "$before" ] && [ ! -s "$lockf" ]
ok $? "reset >&-: the same"
"$bare" --sysfs-root "$R" set fifo_batch 0 >"$tmp/out" 2>&-
st=$?
[ $st -eq 1 ] && [ "$(snap)" = "$before" ] && [ ! -s "$lockf" ] && [ ! -s "$tmp/out" ]
ok $? "set of a bad value 2>&-: exit 1, its message in no file (not the lock's)"
"$bare" --sysfs-root "$R" set fifo_batch 21 >"$tmp/out" 2>&- <&-
st=$?
[ $st -eq 0 ] && [ "$(val vda fifo_batch)" = 21 ] && [ ! -s "$lockf" ] &&
	grep -qx 'vda.fifo_batch = 21' "$tmp/out"
ok $? "set with stdin and stderr closed: done, the report on stdout, the lock file empty"

# --- reset ---
dl reset
[ $st -eq 0 ] && [ "$(val vda fifo_batch)" = 64 ] && [ "$(val nullb0 seek_cost)" = 4 ] &&
	[ "$(val vda read_expire)" = 500 ] && [ "$(val vda write_expire)" = 5000 ] &&
	[ "$(val vda hash_shift)" = 10 ] && [ "$(val vda writes_starved)" = 2 ] &&
	[ "$(val vda prio_aging_expire)" = 10000 ] && [ "$(val nullb0 prio_aging_expire)" = 10000 ]
ok $? "reset: every tunable back to its default (prio_aging_expire 600000 -> 10000)"
grep -qx 'vda.prio_aging_expire = 10000' "$tmp/out"
ok $? "reset prints each tunable it changed (prio_aging_expire 600000 -> 10000)"
dl reset
[ $st -eq 0 ] && [ ! -s "$tmp/out" ] && [ ! -s "$tmp/err" ]
ok $? "reset with every tunable at its default: silent, as dlctl(8) shows it"
dl -d vda set fifo_batch 7
dl reset
[ $st -eq 0 ] && [ "$(cat "$tmp/out")" = 'vda.fifo_batch = 64' ]
ok $? "reset after one set: the one line it changed"
dl set fifo_batch 7
before=$(snap)
DLCTL_TEST_FAIL_WRITE=block/vda/queue/iosched/hash_shift dl reset
[ $st -eq 1 ] && [ "$(snap)" = "$before" ]
ok $? "reset refused midway: nothing changed anywhere"
dl set async_depth 7
dl reset
[ $st -eq 0 ] && [ "$(val vda async_depth)" = 256 ] && [ "$(val nullb0 async_depth)" = 64 ] &&
	grep -qx 'vda.async_depth = 256' "$tmp/out" && grep -qx 'nullb0.async_depth = 64' "$tmp/out"
ok $? "reset: async_depth back to each device's nr_requests (256, 64)"
echo 10 >"$R/block/nullb0/queue/nr_requests"
echo 1 >"$R/block/vda/queue/nr_requests"
dl reset
[ $st -eq 0 ] && [ "$(val nullb0 async_depth)" = 10 ] && [ "$(val vda async_depth)" = 1 ]
ok $? "reset reads nr_requests as it is now: 10, and 1"
dl set async_depth 5
rm "$R/block/vda/queue/nr_requests"
before=$(snap)
dl reset
[ $st -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$(snap)" = "$before" ] &&
	[ "$(cat "$tmp/err")" = "dlctl: vda: nr_requests: No such file or directory" ]
ok $? "reset without vda's nr_requests to go by: exit 1, says so, nullb0 unchanged too"
echo 1 >"$R/block/vda/queue/nr_requests"
echo 12abc >"$R/block/nullb0/queue/nr_requests"
before=$(snap)
dl reset
[ $st -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$(snap)" = "$before" ] &&
	[ "$(cat "$tmp/err")" = "dlctl: nullb0: nr_requests: '12abc': not a number of requests" ]
ok $? "reset with a malformed nr_requests: exit 1, names it, nothing changed"
mkfake "$R"

# --- enable / disable ---
dl enable
[ $st -eq 2 ] && grep -q "enable needs the devices" "$tmp/err"
ok $? "enable without -d: usage error"
dl -d sda enable
[ $st -eq 0 ] && [ "$(sched sda)" = deadline-rb ] && grep -q '^sda: mq-deadline -> deadline-rb$' "$tmp/out"
ok $? "enable -d sda: switched, old and new shown"
dl -d vda enable
[ $st -eq 0 ] && [ "$(cat "$tmp/out")" = 'vda: deadline-rb already' ]
ok $? "enable -d of a disk already running deadline-rb: says so, not 'deadline-rb -> deadline-rb'"
# as the kernel would now show it (a fake file only keeps what was written)
echo "mq-deadline kyber bfq [deadline-rb] none" >"$R/block/sda/queue/scheduler"
dl -d sda disable
[ $st -eq 0 ] && [ "$(sched sda)" = mq-deadline ] && grep -q '^sda: deadline-rb -> mq-deadline$' "$tmp/out"
ok $? "disable -d sda: back to mq-deadline"
echo "mq-deadline kyber [bfq] deadline-rb none" >"$R/block/sda/queue/scheduler"
dl -d sda enable
echo "mq-deadline kyber bfq [deadline-rb] none" >"$R/block/sda/queue/scheduler"
dl -d sda disable
[ $st -eq 0 ] && [ "$(sched sda)" = bfq ]
ok $? "disable puts back what enable found (bfq), not the kernel's default"
echo "mq-deadline kyber [bfq] deadline-rb none" >"$R/block/sda/queue/scheduler"
dl -d sda enable
echo "mq-deadline kyber bfq [deadline-rb] none" >"$R/block/sda/queue/scheduler"
"${DLCTL[@]}" --sysfs-root "$R" -d sda disable >/dev/full 2>"$tmp/err"
st=$?
[ $st -eq 1 ] && [ "$(sched sda)" = deadline-rb ] &&
	[ -s "$DLCTL_TEST_RUN_DIR/before-enable-sda" ]
ok $? "disable >/dev/full: undone, and the record of bfq kept"
echo "mq-deadline kyber bfq [deadline-rb] none" >"$R/block/sda/queue/scheduler"
dl -d sda disable
[ $st -eq 0 ] && [ "$(sched sda)" = bfq ] && [ ! -e "$DLCTL_TEST_RUN_DIR/before-enable-sda" ]
ok $? "... so the next disable still puts back bfq, and forgets it then"
echo "[mq-deadline] kyber bfq deadline-rb none" >"$R/block/sda/queue/scheduler"
rm "$R/block/vda/queue/scheduler" && mkdir "$R/block/vda/queue/scheduler"
dl -d sda -d vda disable
[ $st -eq 1 ] && grep -q 'vda: scheduler: Is a directory' "$tmp/err"
ok $? "disable -d sda -d vda with vda unreadable: exit 1 (once freed, not twice)"
mkfake "$R"
echo "[mq-deadline] kyber bfq deadline-rb none" >"$R/block/sda/queue/scheduler"
dl -d sda disable
[ $st -eq 0 ] && [ "$(active sda)" = mq-deadline ] && [ ! -s "$tmp/out" ] &&
	grep -q "sda: runs mq-deadline, not deadline-rb; left alone" "$tmp/err"
ok $? "disable -d of a device not running deadline-rb: left alone, said on stderr"
dl -d nvme0n1 enable
dl -d nvme0n1 disable
[ $st -eq 0 ] && [ "$(sched nvme0n1)" = none ]
ok $? "enable then disable -d nvme0n1: back to none"
rm -f "$DLCTL_TEST_RUN_DIR"/before-enable-*
# the kernel's own choice, with nothing recorded
mkloop() {	# mkloop NAME HWQS FLAGS [MAPPED]: a queue running deadline-rb
	mkdir -p "$R/block/$1/queue/iosched"
	# sysfs mq/ lists the hardware queues with CPUs mapped, debugfs all
	for q in $(seq 0 $((${4:-$2} - 1))); do mkdir -p "$R/block/$1/mq/$q"; done
	echo "mq-deadline kyber bfq [deadline-rb] none" >"$R/block/$1/queue/scheduler"
	if [ -n "$3" ]; then
		for q in $(seq 0 $(($2 - 1))); do mkdir -p "$R/kernel/debug/block/$1/hctx$q"; done
		echo "alloc_policy=FIFO $3" >"$R/kernel/debug/block/$1/hctx0/flags"
	fi
}
mkloop loop0 1 "SHOULD_MERGE|NO_SCHED_BY_DEFAULT"	# 6.12's debugfs
mkloop loop1 1 "SHOULD_MERGE|7"				# 6.1's: the bit unnamed
mkloop loop2 1 ""					# no debugfs
mkloop sdb 4 "SHOULD_MERGE|TAG_HCTX_SHARED"		# host-wide shared tags
mkloop nvme1n1 4 "SHOULD_MERGE"
mkloop nvme2n1 4 "SHOULD_MERGE" 1			# one CPU: one hctx mapped
mkloop vdb 1 "SHOULD_MERGE"
dl -d loop0 -d loop1 -d loop2 -d sdb -d nvme1n1 -d nvme2n1 -d vdb disable
[ $st -eq 0 ] && [ "$(sched loop0)$(sched loop1)$(sched loop2)" = nonenonenone ] &&
	[ "$(sched sdb)" = mq-deadline ] && [ "$(sched nvme1n1)$(sched nvme2n1)" = nonenone ] &&
	[ "$(sched vdb)" = mq-deadline ]
ok $? "disable without a record: the kernel's choice (loop none, shared tags or one queue mq-deadline, queues counted in debugfs)"
mkfake "$R"
dl disable
[ $st -eq 0 ] && [ "$(sched vda)$(sched nullb0)" = mq-deadlinemq-deadline ] &&
	[ "$(active sda)" = mq-deadline ] && [ "$(grep -c . "$tmp/out")" -eq 2 ]
ok $? "disable without -d: every deadline-rb device, and only those"
mkfake "$R"
DLCTL_TEST_FAIL_WRITE=block/sda/queue/scheduler dl -d nvme0n1 -d sda enable
[ $st -eq 1 ] && grep -q "dlctl: sda: scheduler: deadline-rb: Input/output error" "$tmp/err" &&
	[ "$(active nvme0n1)" = none ] && [ ! -s "$tmp/out" ] && ! grep -q nvme0n1 "$tmp/err"
ok $? "enable refused on sda: nvme0n1 switched back, exit 1"
# why enable was refused: a bare "none" has no schedulers to offer; any
# other line is a queue, bracketed as the kernel shows it or one word as a
# fake tree keeps it
mkdir -p "$R/block/zram0/queue"
echo none >"$R/block/zram0/queue/scheduler"	# bio-based, as 6.1 shows it
DLCTL_TEST_FAIL_WRITE=block/zram0/queue/scheduler dl -d zram0 enable
[ $st -eq 1 ] && [ "$(sched zram0)" = none ] &&
	grep -qx 'dlctl: zram0: a bio-based device, without I/O schedulers' "$tmp/err" &&
	! grep -q 'does not offer' "$tmp/err"
ok $? "enable refused on a bare none: a bio-based device, says so"
for line in "[mq-deadline] kyber bfq none" "mq-deadline"; do
	echo "$line" >"$R/block/sda/queue/scheduler"
	DLCTL_TEST_FAIL_WRITE=block/sda/queue/scheduler dl -d sda enable
	[ $st -eq 1 ] && grep -q 'sda: the kernel does not offer deadline-rb; is the module installed' "$tmp/err" &&
		! grep -q 'bio-based' "$tmp/err"
	ok $? "enable refused on '$line', without deadline-rb: not offered, not called bio-based"
done
mkfake "$R"
dl -d vda disable
dl get fifo_batch
[ $st -eq 0 ] && [ "$(cat "$tmp/out")" = "nullb0.fifo_batch = 32" ]
ok $? "after disable -d vda, get acts on nullb0 only"
mkfake "$R"

# --- stats ---
dl stats
[ $st -eq 0 ] && grep -qE '^NAME +DIR +INSERTED +MERGED_BACK +QUEUED$' "$tmp/out" &&
	grep -qE '^vda +write +20 +7 +1$' "$tmp/out" && [ "$(grep -c . "$tmp/out")" -eq 5 ]
ok $? "stats: a line per device and direction, a column per counter but the priority classes'"
dl stats -r
[ $st -eq 0 ] && [ "$(head -1 "$tmp/out")" = "NAME DIR INSERTED MERGED_BACK QUEUED" ] &&
	[ "$(awk '{ print NF }' "$tmp/out" | sort -u)" = 5 ]
ok $? "stats -r: no priority class columns by default either"
dl stats -J
json_ok && python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))["stats"]
assert [(x["name"], x["dir"]) for x in d] == [("nullb0", "read"), ("nullb0", "write"), ("vda", "read"), ("vda", "write")]
assert d[3]["inserted"] == 20 and d[3]["merged_back"] == 7' "$tmp/out" 2>>"$tmp/err"
ok $? "stats -J: valid, flat records, counters as numbers"
python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))["stats"]
cls = [c + "_" + k for c in ("rt", "be", "idle")
       for k in ("inserted", "dispatched", "merged", "queued", "aged")]
assert all(list(x) == ["name", "dir", "inserted", "merged_back", "queued"] + cls for x in d)
vr, vw = d[2], d[3]
assert vr["name"] == "vda" and vr["rt_dispatched"] == 3 and vw["rt_dispatched"] == 0
assert vr["be_dispatched"] == 7 and vw["be_dispatched"] == 18 and vw["be_merged"] == 7
assert vw["be_queued"] == 1 and vw["be_aged"] == 2 and vw["idle_inserted"] == 1
assert vw["idle_aged"] == 1 and vr["idle_aged"] == 0' "$tmp/out" 2>>"$tmp/err"
ok $? "stats -J: every priority class counter too, in the kernel's order, as numbers"
dl stats -o +RT_DISPATCHED,BE_DISPATCHED -r -n -d vda
[ $st -eq 0 ] && [ "$(cat "$tmp/out")" = "$(printf 'vda read 10 0 0 3 7\nvda write 20 7 1 0 18')" ]
ok $? "stats -o +RT_DISPATCHED,BE_DISPATCHED: those class columns after the default ones"
dl stats -o NAME,DIR,idle_aged,Be_Aged -d vda
[ $st -eq 0 ] && [ "$(tr -s ' ' <"$tmp/out")" = "$(printf 'NAME DIR IDLE_AGED BE_AGED\nvda read 0 0\nvda write 1 2')" ]
ok $? "stats -o NAME,DIR,idle_aged,Be_Aged: class columns in a table, any case, that order"
dl stats -J -o name,dir,rt_queued -d vda
json_ok && python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))["stats"]
assert d == [{"name": "vda", "dir": "read", "rt_queued": 0},
             {"name": "vda", "dir": "write", "rt_queued": 0}]' "$tmp/out" 2>>"$tmp/err"
ok $? "stats -J -o: only the columns asked, as without classes"
dl stats --csv -d vda
[ $st -eq 0 ] && [ "$(head -1 "$tmp/out")" = "name,dir,inserted,merged_back,queued,$(cut -d' ' -f1 <<<"$prio_stats" | paste -sd,)" ] &&
	[ "$(sed -n 3p "$tmp/out")" = "vda,write,20,7,1,$(cut -d' ' -f3 <<<"$prio_stats" | paste -sd,)" ]
ok $? "stats --csv: every column, as -J and -P"
dl stats -o NAME,DIR,QUEUED -n -d vda
[ $st -eq 0 ] && [ "$(tr -s ' ' <"$tmp/out")" = "$(printf 'vda read 0\nvda write 1')" ]
ok $? "stats -o NAME,DIR,QUEUED -n -d vda"
S=$R/kernel/debug/block/vda/sched/stats
printf 'expired 3 4\n' >>"$S"
dl stats -P
# the priority classes' pairs, each direction's
rd=$(awk '{ printf " %s=\"%s\"", toupper($1), $2 }' <<<"$prio_stats")
wr=$(awk '{ printf " %s=\"%s\"", toupper($1), $3 }' <<<"$prio_stats")
[ $st -eq 0 ] && [ "$(cat "$tmp/out")" = "$(printf '%s\n' \
	'NAME="nullb0" DIR="read" INSERTED="10" MERGED_BACK="0" QUEUED="0"'"$rd"' EXPIRED=""' \
	'NAME="nullb0" DIR="write" INSERTED="20" MERGED_BACK="7" QUEUED="1"'"$wr"' EXPIRED=""' \
	'NAME="vda" DIR="read" INSERTED="10" MERGED_BACK="0" QUEUED="0"'"$rd"' EXPIRED="3"' \
	'NAME="vda" DIR="write" INSERTED="20" MERGED_BACK="7" QUEUED="1"'"$wr"' EXPIRED="4"')" ]
ok $? "stats -P: KEY=\"value\" pairs, every column, a line per device and direction, a counter one lacks empty"
# LINE|FILE: a malformed counters file, and the line its message must name
for case in '1|merged"x 1 2' '2|queued 1 2\ninserted 1' '1|inserted -1 2' \
	'3|queued 1 2\nexpired 3 4\ninserted 1 2 3' '1|inserted 0x1 2' \
	'2|queued 1 2\ninserted 18446744073709551616 0' \
	'3|queued 1 2\ninserted 3 4\nqueued 5 6' '2|ok 1 2\n\nafter 3 4' '1|Upper 1 2'; do
	line=${case%%|*} bad=${case#*|}
	printf "$bad\n" >"$S"
	dl stats
	[ $st -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$(grep -c . "$tmp/err")" -eq 1 ] &&
		grep -q "^dlctl: vda: $S:$line: " "$tmp/err"
	ok $? "stats of '$bad': exit 1, the message names line $line"
done
: >"$S"
dl stats
[ $st -eq 1 ] && grep -q "no counters" "$tmp/err"
ok $? "stats of an empty file: exit 1"
# the module prints counters with %llu: every u64 is one
printf 'inserted 18446744073709551615 18446744073709551610\nqueued 0 1\n' >"$S"
dl stats -J -o name,dir,inserted -d vda
json_ok && python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))["stats"]
assert [x["inserted"] for x in d] == [18446744073709551615, 18446744073709551610]' \
	"$tmp/out" 2>>"$tmp/err" && [ $st -eq 0 ]
ok $? "stats: counters up to 18446744073709551615 (2^64 - 1), the largest %llu prints"
rm -rf "$R/kernel/debug/block/vda"
dl stats
[ $st -eq 1 ] && grep -q "is debugfs mounted" "$tmp/err" && [ ! -s "$tmp/out" ]
ok $? "stats without debugfs: exit 1, says why, nothing on stdout"
mkfake "$R"

# --- no device runs deadline-rb, and devices that cannot be read ---
echo "[mq-deadline] deadline-rb none" >"$R/block/vda/queue/scheduler"
echo "[none] deadline-rb" >"$R/block/nullb0/queue/scheduler"
for cmd in "get fifo_batch" "set fifo_batch 8" reset stats; do
	# shellcheck disable=SC2086
	dl $cmd
	[ $st -eq 1 ] && grep -q "no device runs deadline-rb; enable it with 'dlctl -d DEV enable'" "$tmp/err"
	ok $? "$cmd with no deadline-rb device: exit 1, says how to enable"
done
mkfake "$R"
rm "$R/block/sda/queue/scheduler"
mkdir "$R/block/sda/queue/scheduler"		# unreadable: EISDIR
before=$(snap)
dl set fifo_batch 8
[ $st -eq 1 ] && grep -q "dlctl: sda: scheduler: Is a directory" "$tmp/err" && [ "$(snap)" = "$before" ]
ok $? "an unreadable scheduler file: set fails naming it, never skips the device"
dl get fifo_batch
[ $st -eq 1 ] && grep -q "dlctl: sda: scheduler: Is a directory" "$tmp/err"
ok $? "... and so does get"
mkfake "$R"
mv "$R/block" "$R/block.away" && touch "$R/block"
dl -d vda get fifo_batch
[ $st -eq 1 ] && grep -q "$R/block: Not a directory" "$tmp/err"
ok $? "-d vda with $R/block unreadable: says so, not 'no such block device'"
rm "$R/block" && mv "$R/block.away" "$R/block"

# --- more than 256 devices: no cap anywhere ---
for i in $(seq -w 0 299); do
	mkdir -p "$R/block/d$i/queue/iosched"
	echo "[deadline-rb] none" >"$R/block/d$i/queue/scheduler"
	echo 32 >"$R/block/d$i/queue/iosched/fifo_batch"
done
mkdir -p "$R/block/d299/d299p1" && echo 1 >"$R/block/d299/d299p1/partition"
dl set fifo_batch 9
[ $st -eq 0 ] && [ "$(grep -c . "$tmp/out")" -eq 302 ] && [ "$(val d299 fifo_batch)" = 9 ] &&
	[ "$(cat "$R"/block/d*/queue/iosched/fifo_batch | sort -u)" = 9 ]
ok $? "set on 302 deadline-rb devices: every one"
dl show -o NAME -n
[ $st -eq 0 ] && [ "$(grep -c . "$tmp/out")" -eq 304 ]
ok $? "show lists all 304 devices"
dl -d d299p1 get fifo_batch
[ $st -eq 0 ] && [ "$(cat "$tmp/out")" = "d299.fifo_batch = 9" ]
ok $? "-d of a partition of the 300th disk (looked up under every disk)"
mkfake "$R"

# --- the root: option, environment, missing ---
DLCTL_SYSFS_ROOT=$R "${DLCTL[@]}" get fifo_batch >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(grep -c . "$tmp/out")" -eq 2 ]
ok $? "DLCTL_SYSFS_ROOT sets the root"
"${DLCTL[@]}" --sysfs-root "$tmp/nowhere" show >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "nowhere/block: No such file or directory" "$tmp/err"
ok $? "a missing root: exit 1, names the path"

# --- the release build has no test hooks ---
if [ -x "$top/build/dlctl" ]; then
	before=$(snap)
	DLCTL_TEST_FAIL_WRITE=block/vda/queue/iosched/fifo_batch DLCTL_TEST_RUN_DIR=/nonexistent/x \
		"$top/build/dlctl" --sysfs-root "$R" -d vda set fifo_batch 48 >"$tmp/out" 2>"$tmp/err"
	st=$?
	[ $st -eq 0 ] && [ "$(val vda fifo_batch)" = 48 ] && ! grep -q DLCTL_TEST "$top/build/dlctl"
	ok $? "build/dlctl ignores DLCTL_TEST_* (and has none of their names)"
	"$top/build/dlctl" --sysfs-root "$R" -d vda set fifo_batch 32 >/dev/null 2>&1
else
	ok 1 "build/dlctl ignores DLCTL_TEST_*: build/dlctl is missing"
fi

# --- profile: a regular file stands in for each device node ---
# (in the build directory: O_DIRECT needs a disk file system, not tmpfs)
mkdir -p "$top/build"
D=$(mktemp -d "$top/build/dlctl-dev.XXXXXX")
trap 'rm -rf "$tmp" "$D"' EXIT
export DLCTL_TEST_DEV_DIR=$D
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
# (rows: the flat records, r0 the first)
pyjson() { python3 -c "import json,sys; rows=json.load(open(sys.argv[1]))['profile']; r0=rows[0]; sys.exit(0 if ($1) else 1)" "$tmp/out"; }
mkprof

pr fifo_batch 1,8 64 --runtime-per-value 100ms
[ $st -eq 0 ] && [ "$(awk 'NR > 3 && ($1 == 1 || $1 == 8 || $1 == 64)' "$tmp/out" | wc -l)" -eq 3 ] &&
	sed -n 3p "$tmp/out" | grep -qE '^ *VALUE +READ_IOPS +READ_MBPS +READ_P50_US +READ_P99_US +READ_MAX_US +WRITE_IOPS' &&
	grep -qx 'nullb0: fifo_batch, randread, iodepth 16, bs 4096, 0.1 s per value (was 32, restored)' "$tmp/out"
ok $? "profile fifo_batch 1,8 64: a table row per value"
is_val() { [ "$(val "$1" "$2")" = "$3" ]; }
is_val nullb0 fifo_batch 32
ok $? "... and fifo_batch is back to 32"
pr fifo_batch 4 12 --runtime-per-value 100ms --json
[ $st -eq 0 ] && pyjson 'all(r["device"] == "nullb0" and r["parameter"] == "fifo_batch" and r["original"] == 32
	and r["workload"] == "randread" for r in rows) and [r["value"] for r in rows] == [4, 12]
	and all(r["read_ios"] > 0 and r["read_iops"] > 0 and r["write_ios"] == 0 for r in rows)
	and all(0 < r["read_p50_us"] <= r["read_p99_us"] <= r["read_max_us"] for r in rows)
	and all(set(r) >= {"merges", "expired", "starved", "batches", "bs", "size"} for r in rows)'
ok $? "profile --json: a flat record per value, every column, reads only, p50 <= p99 <= max"
pyjson 'all(len(r) == 27 and not any(k.startswith(("rt_", "be_", "idle_")) for k in r) for r in rows)'
ok $? "... 27 columns, none of the priority classes' counters in the stats file"
dl --json -d nullb0 profile fifo_batch 4 --duration 100ms
[ $st -eq 0 ] && pyjson 'len(rows) == 1 and abs(r0["runtime"] - 0.1) < 1e-9'
ok $? "dlctl --json ... profile --duration: JSON too, the duration is the whole run"
pr fifo_batch 1,64 --duration 200ms --json
[ $st -eq 0 ] && pyjson 'abs(r0["runtime"] - 0.1) < 1e-9'
ok $? "--duration 200ms over two values: 0.1 s each"
pr read_expire 100ms,1s --runtime-per-value 50ms --csv
[ $st -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 3 ] &&
	head -1 "$tmp/out" | grep -q '^value,device,target,parameter,original,workload,iodepth,bs,size,runtime,seconds,read_ios,read_iops,' &&
	[ "$(cut -d, -f1 "$tmp/out" | tail -2 | tr '\n' ' ')" = "100 1000 " ] &&
	[ "$(awk -F, '{print NF}' "$tmp/out" | sort -u)" = 27 ] && is_val nullb0 read_expire 500
ok $? "profile read_expire 100ms,1s --csv: header, two rows of 27 fields, ms units, restored"

before=$(sum nullb0)
pr fifo_batch 8 -w randrw --allow-write --runtime-per-value 100ms --json
[ $st -eq 0 ] && pyjson 'r0["read_ios"] > 0 and r0["write_ios"] > 0' &&
	[ "$(sum nullb0)" != "$before" ]
ok $? "randrw --allow-write: reads and writes, and the device's data changed"
pr fifo_batch 8 -w seqwrite+randread --allow-write --runtime-per-value 100ms -q 4 --json
[ $st -eq 0 ] && pyjson 'r0["iodepth"] == 4 and r0["read_ios"] > 0 and r0["write_ios"] > 0'
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
dl -d vda1 profile fifo_batch 8 -w seqwrite --allow-write --runtime-per-value 100ms
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
dl -d vda1 profile fifo_batch 8 -w randwrite --allow-write --runtime-per-value 100ms --json
[ $st -eq 0 ] && pyjson 'r0["device"] == "vda" and r0["target"] == "vda1" and r0["size"] == 4194304' &&
	[ "$(sum vda)" = "$before" ] && is_val vda fifo_batch 32
ok $? "profile -d vda1: vda's tunable, I/O to the partition only"

# --size and --bs in either order: each keeps its own meaning
mkprof
head -c 4M "$D/nullb0" | md5sum >"$tmp/head"
tail -c +$((4 * 1048576 + 1)) "$D/nullb0" | md5sum >"$tmp/tail"
pr fifo_batch 8 -w randwrite --allow-write --size 4M --bs 8k --runtime-per-value 100ms -J
[ $st -eq 0 ] && pyjson 'r0["size"] == 4194304 and r0["bs"] == 8192 and r0["write_ios"] > 0' &&
	[ "$(tail -c +$((4 * 1048576 + 1)) "$D/nullb0" | md5sum)" = "$(cat "$tmp/tail")" ] &&
	[ "$(head -c 4M "$D/nullb0" | md5sum)" != "$(cat "$tmp/head")" ]
ok $? "profile --size 4M --bs 8k: 8 KiB writes to the first 4 MiB only, the rest untouched"
pr fifo_batch 8 --bs 8k --size 4M --runtime-per-value 50ms -J
[ $st -eq 0 ] && pyjson 'r0["size"] == 4194304 and r0["bs"] == 8192'
ok $? "profile --bs 8k --size 4M: the same"
pr fifo_batch 8 --bs 4KB --runtime-per-value 50ms
[ $st -eq 1 ] && grep -qx "dlctl: --bs: '4KB': not a multiple of 4k up to 16M" "$tmp/err"
ok $? "--bs 4KB is 4000 bytes (KB: powers of 10, as util-linux), refused"
pr fifo_batch 8 --size 1MiB --bs 4KiB --runtime-per-value 50ms -J
[ $st -eq 0 ] && pyjson 'r0["size"] == 1048576 and r0["bs"] == 4096'
ok $? "--size 1MiB --bs 4KiB"
pr fifo_batch 8 --runtime-per-value 0x1p-3
[ $st -eq 1 ] && grep -q "runtime-per-value: '0x1p-3': not a time" "$tmp/err"
ok $? "--runtime-per-value 0x1p-3: refused (the one number parser)"
dl profile fifo_batch 8 --runtime-per-value 50ms
[ $st -eq 1 ] && grep -q 'profile runs on one device, and 2 run deadline-rb; choose one with -d DEV' "$tmp/err"
ok $? "profile with two deadline-rb devices and no -d: exit 1, says to choose"
dl -d vda -d nullb0 profile fifo_batch 8 --runtime-per-value 50ms
[ $st -eq 2 ] && grep -q 'profile runs on one device; give -d once' "$tmp/err"
ok $? "profile with two -d: says to give one, not to choose with -d"
dl -d vda1 -d vda profile fifo_batch 8 --runtime-per-value 50ms
[ $st -eq 2 ] && grep -q 'give -d once' "$tmp/err"
ok $? "profile -d vda1 -d vda (one disk twice): refused too, not run on vda1"
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
DLCTL_TEST_CLAMP=block/nullb0/queue/iosched/fifo_batch:40 pr fifo_batch 8 64 --runtime-per-value 50ms
[ $st -eq 1 ] && [ ! -s "$tmp/out" ] &&
	[ "$(cat "$tmp/err")" = "dlctl: nullb0: fifo_batch: wrote 64, but it did not take" ] &&
	[ "$(snap)" = "$before" ]
ok $? "profile: a value that reads back otherwise (clamped to 40): exit 1, the original put back"
bad=0
for args in "fifo_batch 8 --duration 1s --runtime-per-value 1s" "fifo_batch" "nosuch 8" \
	"fifo_batch 8 --csv --bogus"; do
	# shellcheck disable=SC2086
	pr $args
	if [ $st -ne 2 ] || [ -s "$tmp/out" ] || ! grep -q "Try 'dlctl --help'" "$tmp/err"; then
		echo "# profile $args: status $st"
		bad=1
	fi
done
dl --json -d nullb0 profile fifo_batch 8 --csv
[ $st -eq 2 ] && [ "$bad" -eq 0 ] && [ "$(snap)" = "$before" ]
ok $? "profile usage errors (both times, no values, unknown name or option, --json --csv): exit 2"
bad=0
for args in "fifo_batch 8 -w nosuch" "fifo_batch 8 --runtime-per-value 5x" \
	"fifo_batch 8 --runtime-per-value 0" "fifo_batch 8 -q 0" "fifo_batch 8 --iodepth 2000" \
	"fifo_batch 8 --bs 1000" "fifo_batch 8 --size 0" "fifo_batch 8 --duration 1.5s"; do
	# shellcheck disable=SC2086
	pr $args
	if [ $st -ne 1 ] || [ -s "$tmp/out" ] || ! grep -q "^dlctl: --" "$tmp/err"; then
		echo "# profile $args: status $st"
		bad=1
	fi
done
[ "$bad" -eq 0 ] && [ "$(snap)" = "$before" ]
ok $? "profile option values that are bad (workload, times, iodepth, bs, size): exit 1, as a bad tunable value"
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

# a signal mid-run puts the original value back.  Waited for: the first
# value itself (here a write truncates a regular file, so "not 32" may be
# an empty read), which stays a minute: the signal comes long before,
# however slow the host.
for sig in INT TERM; do
	"${DLCTL[@]}" --sysfs-root "$R" -d nullb0 profile fifo_batch 1 2 3 \
		--runtime-per-value 60s >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	wait_until 300 is_val nullb0 fifo_batch 1
	changed=$(val nullb0 fifo_batch)
	kill -"$sig" $pid
	wait $pid
	st=$?
	[ "$changed" = 1 ] && [ $st -eq 1 ] && [ ! -s "$tmp/out" ] && is_val nullb0 fifo_batch 32 &&
		grep -q "^dlctl: nullb0: interrupted by .*; fifo_batch restored to 32$" "$tmp/err"
	ok $? "SIG$sig mid-run (fifo_batch was $changed): exit 1, 32 restored, says so"
done

# --- apply and save: dlctl.conf(5) ---
# The standard places under $C (DLCTL_TEST_CONF_ROOT), /dev/disk/by-id
# under $tmp/dev (DLCTL_TEST_DEV_DIR): vda is wwn-0x5000c500a1b2c3d4 and
# virtio-QM0001, nullb0 has no by-id name.
C=$tmp/conf
export DLCTL_TEST_CONF_ROOT=$C DLCTL_TEST_DEV_DIR=$tmp/dev
mkdir -p "$tmp/dev/disk/by-id"
ln -sf ../../vda "$tmp/dev/disk/by-id/wwn-0x5000c500a1b2c3d4"
ln -sf ../../vda "$tmp/dev/disk/by-id/virtio-QM0001"
ln -sf ../../vda1 "$tmp/dev/disk/by-id/virtio-QM0001-part1"
ln -sf ../../sda "$tmp/dev/disk/by-id/ata-DISK_S1"
fresh() {
	local t
	mkfake "$R"
	# a fake sda cannot switch: give it deadline-rb's tunables up front
	for t in read_expire write_expire writes_starved fifo_batch seek_cost hash_shift \
		front_merges async_depth prio_aging_expire; do
		cp "$R/block/nullb0/queue/iosched/$t" "$R/block/sda/queue/iosched/$t"
	done
	echo 64 >"$R/block/sda/queue/nr_requests"
	rm -f "$DLCTL_TEST_RUN_DIR"/disabled-* "$DLCTL_TEST_RUN_DIR"/before-enable-*
	rm -rf "$C"
	mkdir -p "$C/etc/dlctl.d" "$C/usr/lib/dlctl.d"
}
conf() { cat >"$C/$1"; }

fresh
before=$(snap)
dl apply
[ $st -eq 0 ] && [ ! -s "$tmp/out" ] && [ "$(snap)" = "$before" ]
ok $? "apply without any configuration: exit 0, nothing changed"

conf etc/dlctl.d/50-sd.conf <<'CONF'
# comment
[name sd*]              # kernel name glob
fifo_batch = 16
CONF
dl apply
[ $st -eq 0 ] && [ "$(active sda)" = deadline-rb ] && [ "$(val sda fifo_batch)" = 16 ] &&
	grep -qx 'sda: scheduler: mq-deadline -> deadline-rb' "$tmp/out" &&
	grep -qx 'sda: fifo_batch: 32 -> 16' "$tmp/out" || { false; }
ok $? "[name sd*] fifo_batch = 16: sda switched to deadline-rb (implied), fifo_batch 16"
[ "$(val vda fifo_batch)" = 32 ] && [ "$(val nullb0 fifo_batch)" = 32 ] &&
	[ "$(active nvme0n1)" = none ] && ! grep -q '^\(vda\|nullb0\|nvme0n1\)' "$tmp/out"
ok $? "... the disks it does not match are untouched"
before=$(snap)
dl apply
[ $st -eq 0 ] && [ ! -s "$tmp/out" ] && [ "$(snap)" = "$before" ]
ok $? "apply a second time: changes nothing, prints nothing"
echo 32 >"$R/block/sda/queue/iosched/fifo_batch"
cp "$R/block/sda/queue/iosched/read_expire" "$tmp/re"
dl apply --dry-run
[ $st -eq 0 ] && [ "$(cat "$tmp/out")" = 'sda: fifo_batch: 32 -> 16' ] &&
	[ "$(val sda fifo_batch)" = 32 ]
ok $? "--dry-run: prints what would change, changes nothing"

fresh
conf etc/dlctl.conf <<<$'[name sda]\nseek_cost = 9\nfifo_batch = 8'
dl apply
[ $st -eq 0 ] && [ "$(cat "$tmp/out")" = "$(printf '%s\n' 'sda: scheduler: mq-deadline -> deadline-rb' \
	'sda: seek_cost: 16 -> 9' 'sda: fifo_batch: 32 -> 8')" ]
ok $? "the implied scheduler first, then the section's tunables in its order, not dlctl's"

# a dry run prepares what apply would, and prints it the same way
fresh
conf etc/dlctl.conf <<<$'[name sda]\nseek_cost = 9\nfifo_batch = 8\nwrites_starved = 2\nasync_depth = 16'
echo 7 >"$R/block/sda/queue/iosched/fifo_batch"
echo 5 >"$R/block/sda/queue/iosched/writes_starved"
echo 100 >"$R/block/sda/queue/iosched/async_depth"
before=$(snap)
dl apply --dry-run
[ $st -eq 0 ] && [ "$(cat "$tmp/out")" = "$(printf '%s\n' 'sda: scheduler: mq-deadline -> deadline-rb' \
	'sda: seek_cost: 4 -> 9' 'sda: fifo_batch: 64 -> 8' 'sda: async_depth: 64 -> 16')" ] &&
	[ "$(snap)" = "$before" ]
ok $? "--dry-run with a switch: from the defaults it gives (async_depth's nr_requests), not the values now"
fresh
conf etc/dlctl.conf <<<$'[name vda]\nseek_cost = 9\nfifo_batch = 8\nwrites_starved = 2'
dl apply --dry-run
cp "$tmp/out" "$tmp/dry"
dry_st=$st
dl apply
[ $dry_st -eq 0 ] && [ $st -eq 0 ] && [ "$(cat "$tmp/out")" = "$(printf '%s\n' 'vda: seek_cost: 16 -> 9' \
	'vda: fifo_batch: 32 -> 8')" ] && cmp -s "$tmp/dry" "$tmp/out"
ok $? "--dry-run without a switch: the very lines apply then prints"
fresh
conf etc/dlctl.conf <<<$'[name vda]\nfifo_batch = 8\n[name nullb0]\nfifo_batch = 9'
rm "$R/block/vda/queue/iosched/fifo_batch"
mkdir "$R/block/vda/queue/iosched/fifo_batch"	# unreadable: EISDIR
for a in --dry-run ""; do
	dl apply $a
	[ $st -eq 1 ] && [ "$(cat "$tmp/out")" = 'nullb0: fifo_batch: 32 -> 9' ] &&
		grep -qx 'dlctl: vda: fifo_batch: Is a directory' "$tmp/err"
	ok $? "apply ${a:-without --dry-run}: a disk with an unreadable tunable refused, the others go on"
done

fresh
conf etc/dlctl.d/50-id.conf <<'CONF'
[id wwn-0x5000c500a1b2c3d4]
read_expire = 250ms
[id ata-*]
scheduler = bfq
CONF
dl apply
[ $st -eq 0 ] && [ "$(val vda read_expire)" = 250 ] && [ "$(active sda)" = bfq ] &&
	[ "$(val nullb0 read_expire)" = 500 ]
ok $? "[id GLOB]: by /dev/disk/by-id name (vda read_expire 250ms, sda bfq)"

fresh
conf etc/dlctl.conf <<<$'[name vda]\nprio_aging_expire = 1m\n[name nullb0]\nprio_aging_expire = 10s'
dl apply
[ $st -eq 0 ] && [ "$(cat "$tmp/out")" = 'vda: prio_aging_expire: 10000 -> 60000' ] &&
	[ "$(val vda prio_aging_expire)" = 60000 ] && [ "$(val nullb0 prio_aging_expire)" = 10000 ]
ok $? "prio_aging_expire = 1m: 60000 ms; = 10s on nullb0, as it is already: nothing to do"

fresh
echo 1 >"$R/block/nullb0/queue/rotational"
echo 1 >"$R/block/sda/queue/rotational"
echo 0 >"$R/block/vda/queue/rotational"
conf etc/dlctl.conf <<'CONF'
[rotational]
seek_cost = 32
[nonrotational]
seek_cost = 4
CONF
dl -d nullb0 -d vda apply
[ $st -eq 0 ] && [ "$(val nullb0 seek_cost)" = 32 ] && [ "$(val vda seek_cost)" = 4 ]
ok $? "[rotational] and [nonrotational] by queue/rotational; -d limits apply to those disks"
[ "$(active sda)" = mq-deadline ]
ok $? "... and a disk not named with -d is left alone"

fresh
conf usr/lib/dlctl.d/10-a.conf <<<$'[name vda]\nfifo_batch = 8\nseek_cost = 8'
conf etc/dlctl.d/10-a.conf <<<$'[name vda]\nfifo_batch = 12'
conf usr/lib/dlctl.d/20-b.conf <<<$'[all]\nwrites_starved = 3\n[name nullb0]\nfifo_batch = 20'
conf etc/dlctl.d/05-c.conf <<<$'[name nullb0]\nfifo_batch = 5\nhash_shift = 12'
conf etc/dlctl.conf <<<$'[name nullb0]\nhash_shift = 14'
dl -d vda -d nullb0 apply
[ $st -eq 0 ] && [ "$(val vda fifo_batch)" = 12 ] && [ "$(val vda seek_cost)" = 16 ]
ok $? "/etc/dlctl.d/10-a.conf hides /usr/lib/dlctl.d/10-a.conf whole"
[ "$(val nullb0 fifo_batch)" = 20 ] && [ "$(val nullb0 hash_shift)" = 14 ] &&
	[ "$(val vda writes_starved)" = 3 ]
ok $? "files in name order over both places (20-b after 05-c), /etc/dlctl.conf last"

# each broken file: FILE:LINE: why, nothing from it, the rest still applies, exit 2
bad() {
	fresh
	printf '%b' "$2" >"$C/etc/dlctl.d/30-bad.conf"
	conf etc/dlctl.d/40-good.conf <<<$'[name nullb0]\nfifo_batch = 7'
	dl apply
	[ $st -eq 2 ] && [ "$(val nullb0 fifo_batch)" = 7 ] && [ "$(val vda fifo_batch)" = 32 ] &&
		[ "$(val vda read_expire)" = 500 ] &&
		grep -qF "dlctl: $C/etc/dlctl.d/30-bad.conf:$3: " "$tmp/err" &&
		grep -qF "$4" "$tmp/err"
	ok $? "a broken file ($1): FILE:$3 named, nothing of it applied, the rest is, exit 2"
}
bad "unknown key" '[name vda]\nread_expire = 250\nfrob = 1\n' 3 "unknown key 'frob'"
bad "bad value" '[name vda]\nread_expire = 250\nfifo_batch = 0\n' 3 "fifo_batch: '0': out of range"
bad "a time that is not one" '[name vda]\nread_expire = 2 s\n' 2 "not a time"
bad "a time out of range" '[name vda]\nprio_aging_expire = 11m\n' 2 \
	"prio_aging_expire: '11m': out of range (1..600000 ms)"
bad "unknown section type" '[name vda]\nread_expire = 250\n[disk vda]\n' 3 "unknown section type"
bad "malformed line" '[name vda]\nread_expire 250\n' 2 "expected 'key = value'"
bad "a setting before any section" '\nread_expire = 250\n[name vda]\n' 2 "before any section"
bad "[name] without a glob" '[name]\nread_expire = 250\n' 1 "needs a glob"
bad "[all] with a glob" '[all vda]\nread_expire = 250\n' 1 "takes no glob"
bad "no closing bracket" '[name vda\nread_expire = 250\n' 1 "a section is"
bad "no value" '[name vda]\nread_expire =\n' 2 "read_expire: no value"
bad "a scheduler name that is none" '[name vda]\nscheduler = dead line\n' 2 "not a scheduler"
bad "a NUL byte" '[name vda]\nread_expire = 250\0\n' 2 "a NUL byte"
bad "a byte order mark" '\xef\xbb\xbf[name vda]\nread_expire = 250\n' 1 "a byte order mark"
bad "a section with text after it" '[name vda] x\nread_expire = 250\n' 1 "a section is"
bad "a glob ending in a lone backslash" '[name vda\\]\nread_expire = 250\n' 1 "lone backslash"
bad "a '#' in a bracket expression" '[name vd[a#]]\nread_expire = 250\n' 1 "a '#' in a glob is written \\#"
bad "a line of 5000 bytes" "[name vda]\\nread_expire = 250$(printf '%4990s' '')\\n" 2 "a line longer than 4095 bytes"
fresh
timeout 300 "${DLCTL[@]}" --sysfs-root "$R" apply --config /dev/zero >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 2 ] && grep -q "/dev/zero:1: a line longer than 4095 bytes" "$tmp/err"
ok $? "--config /dev/zero: a line too long, at once (not all the memory), exit 2"

# an entry of dlctl.d that is no file to read: FILE: why (no line), one
# line, skipped; the rest applies, exit 2.  Never opened to wait on (a
# FIFO), so that the boot's apply cannot hang: the timeout would say so.
broken() {
	local what=$1 why=$2
	shift 2
	fresh
	conf etc/dlctl.d/40-good.conf <<<$'[name nullb0]\nfifo_batch = 7'
	conf usr/lib/dlctl.d/20-good.conf <<<$'[name vda]\nseek_cost = 9'
	(cd "$C/etc/dlctl.d" && "$@")
	timeout 300 "${DLCTL[@]}" --sysfs-root "$R" apply >"$tmp/out" 2>"$tmp/err"
	st=$?
	[ $st -eq 2 ] && [ "$(val nullb0 fifo_batch)" = 7 ] && [ "$(val vda seek_cost)" = 9 ] &&
		[ "$(cat "$tmp/err")" = "dlctl: $C/etc/dlctl.d/30-bad.conf: $why; nothing from this file is applied" ]
	ok $? "dlctl.d/30-bad.conf $what: one line naming it, the other files applied, exit 2"
}
broken "a dangling symlink" "a dangling symbolic link" ln -s nowhere.conf 30-bad.conf
broken "a symlink loop" "Too many levels of symbolic links" ln -s 30-bad.conf 30-bad.conf
# root reads any file whatever its mode, but not a sysctl file of mode 0200
broken "unreadable (EACCES)" "Permission denied" ln -s /proc/sys/vm/compact_memory 30-bad.conf
broken "a directory" "a directory, not a file" mkdir 30-bad.conf
broken "a FIFO" "not a regular file (a FIFO, a socket or a device)" mkfifo 30-bad.conf
fresh
conf usr/lib/dlctl.d/20-good.conf <<<$'[name vda]\nseek_cost = 9'
ln -s nowhere "$C/etc/dlctl.conf"
dl apply
[ $st -eq 2 ] && [ "$(val vda seek_cost)" = 9 ] &&
	grep -qx "dlctl: $C/etc/dlctl.conf: a dangling symbolic link; nothing from this file is applied" "$tmp/err"
ok $? "/etc/dlctl.conf a dangling symlink: reported, not taken for no file; the rest applied, exit 2"
fresh
conf usr/lib/dlctl.d/10-a.conf <<<$'[name vda]\nfifo_batch = 8'
conf usr/lib/dlctl.d/20-b.conf <<<$'[name nullb0]\nfifo_batch = 9'
ln -s /dev/null "$C/etc/dlctl.d/10-a.conf"
dl apply
[ $st -eq 0 ] && [ ! -s "$tmp/err" ] && [ "$(val vda fifo_batch)" = 32 ] && [ "$(val nullb0 fifo_batch)" = 9 ]
ok $? "/etc/dlctl.d/10-a.conf -> /dev/null hides /usr/lib/dlctl.d/10-a.conf, silently (sysctl.d's mask)"
fresh
dl apply --config <(printf '[name vda]\nfifo_batch = 3\n')
[ $st -eq 0 ] && [ "$(val vda fifo_batch)" = 3 ]
ok $? "--config <(...): a pipe named on the command line is read"
mkdir "$tmp/a.conf"
dl apply --config "$tmp/a.conf"
[ $st -eq 2 ] && [ "$(cat "$tmp/err")" = "dlctl: $tmp/a.conf: a directory, not a file; nothing from this file is applied" ]
ok $? "--config of a directory: named without a line 0, exit 2"
rmdir "$tmp/a.conf"
# apply's report is printed whatever its status: one that cannot be
# written undoes the changes, with a bad file's exit 2 too
fresh
conf etc/dlctl.d/40-good.conf <<<$'[name nullb0]\nfifo_batch = 7'
ln -s nowhere.conf "$C/etc/dlctl.d/30-bad.conf"
"$bare" --sysfs-root "$R" apply >&- 2>"$tmp/err"
st=$?
[ $st -eq 1 ] && [ "$(val nullb0 fifo_batch)" = 32 ] && grep -q 'the change was undone' "$tmp/err"
ok $? "apply >&- beside a broken file: what it applied is undone, exit 1"
# a refused disk is a failure, above a broken file's 2
conf etc/dlctl.conf <<<$'[name sda]\nfifo_batch = 8\nseek_cost = 9'
DLCTL_TEST_FAIL_WRITE=block/sda/queue/iosched/seek_cost dl apply
[ $st -eq 1 ] && [ "$(val nullb0 fifo_batch)" = 7 ] && [ "$(active sda)" = mq-deadline ]
ok $? "a broken file and a refused disk: exit 1, the other disks applied"

# glob(7)'s bracket expressions in a section header; '#' escaped
fresh
conf etc/dlctl.conf <<'CONF'
[name sd[ab]]
fifo_batch = 16   # a comment after a value
[id wwn-0x5000c500a1b2c3d[0-9]]
read_expire = 250ms
[name vd[!a]]
seek_cost = 8
CONF
dl apply
[ $st -eq 0 ] && [ ! -s "$tmp/err" ] && [ "$(active sda)" = deadline-rb ] && [ "$(val sda fifo_batch)" = 16 ] &&
	[ "$(val vda read_expire)" = 250 ] && [ "$(val vda seek_cost)" = 16 ]
ok $? "[name sd[ab]] and [id wwn-0x5000c500a1b2c3d[0-9]]: bracket expressions match; [name vd[!a]] does not"

fresh
mkdir -p "$R/block/zram0/queue"
echo none >"$R/block/zram0/queue/scheduler"	# bio-based, as 6.1 and 6.12 show it
conf etc/dlctl.conf <<<$'[all]\nwrites_starved = 4'
dl -d vda -d nullb0 -d zram0 apply
[ $st -eq 0 ] && [ "$(val vda writes_starved)" = 4 ] && [ "$(sched zram0)" = none ] &&
	grep -q 'zram0: no I/O scheduler' "$tmp/err"
ok $? "[all] leaves a bio-based device alone (and says so when it is named)"

fresh
conf etc/dlctl.conf <<<$'[name vda]\nscheduler = bfq\nfifo_batch = 8\n[name nullb0]\nfifo_batch = 9'
dl apply
[ $st -eq 1 ] && [ "$(active vda)" = deadline-rb ] && [ "$(val vda fifo_batch)" = 32 ] &&
	[ "$(val nullb0 fifo_batch)" = 9 ] && grep -q 'vda: .*:3 sets fifo_batch.*chooses bfq' "$tmp/err"
ok $? "tunables of deadline-rb on a disk given another scheduler: that disk refused, exit 1"

fresh
conf etc/dlctl.conf <<<$'[name sda]\nfifo_batch = 8\nseek_cost = 9\n[name vda]\nfifo_batch = 9'
DLCTL_TEST_FAIL_WRITE=block/sda/queue/iosched/seek_cost dl apply
[ $st -eq 1 ] && [ "$(active sda)" = mq-deadline ] && [ "$(val sda fifo_batch)" = 32 ] &&
	[ "$(val vda fifo_batch)" = 9 ] && grep -qx 'vda: fifo_batch: 32 -> 9' "$tmp/out" &&
	! grep -q '^sda' "$tmp/out" && grep -q 'sda: a tunable was refused' "$tmp/err"
ok $? "a refused tunable: that disk back as it was, switch included; the others apply; exit 1"

fresh
conf etc/dlctl.conf <<<$'[all]\nfifo_batch = 8'
dl -d vda1 apply
[ $st -eq 2 ] && grep -q 'vda1: a partition' "$tmp/err" && [ "$(val vda fifo_batch)" = 32 ]
ok $? "apply -d of a partition: usage error, nothing changed"
dl apply --config
[ $st -eq 2 ]
ok $? "--config without a file: exit 2"
dl show --dry-run
[ $st -eq 2 ] && grep -q 'dry-run: applies to apply only' "$tmp/err"
ok $? "--dry-run with another command: exit 2"
fresh
conf etc/dlctl.conf <<<$'[name sda]\nfifo_batch = 8\n[name vda]\nfifo_batch = 9'
"${DLCTL[@]}" --sysfs-root "$R" apply >/dev/full 2>"$tmp/err"
[ $? -eq 1 ] && [ "$(active sda)" = mq-deadline ] && [ "$(val vda fifo_batch)" = 32 ]
ok $? "apply >/dev/full: exit 1, every disk undone"

fresh
conf etc/dlctl.conf <<<$'[name vda]\nfifo_batch = 8'
printf '[name vda]\nfifo_batch = 3\n' >"$tmp/other.conf"
dl apply --config "$tmp/other.conf"
[ $st -eq 0 ] && [ "$(val vda fifo_batch)" = 3 ]
ok $? "--config FILE: that file instead of the standard places"
dl apply --config "$tmp/nosuch.conf"
[ $st -eq 1 ] && grep -q 'nosuch.conf: No such file' "$tmp/err" && [ "$(val vda fifo_batch)" = 3 ]
ok $? "--config of a missing file: exit 1, nothing changed"

# save, then apply: the settings come back
fresh
echo 123 >"$R/block/vda/queue/iosched/read_expire"
echo 0 >"$R/block/vda/queue/iosched/front_merges"
echo 7 >"$R/block/nullb0/queue/iosched/fifo_batch"
echo 2500 >"$R/block/vda/queue/iosched/prio_aging_expire"
dl save
cp "$tmp/out" "$tmp/saved.conf"
[ $st -eq 0 ] && grep -qx '\[id wwn-0x5000c500a1b2c3d4\]' "$tmp/saved.conf" &&
	grep -qx '\[name nullb0\]' "$tmp/saved.conf" && grep -qx 'read_expire = 123ms' "$tmp/saved.conf" &&
	grep -qx 'prio_aging_expire = 2500ms' "$tmp/saved.conf" &&
	grep -qx 'prio_aging_expire = 10000ms' "$tmp/saved.conf"
ok $? "save: by wwn- id where the disk has one, by name where not, with units"
saved=$(snap)
fresh
dl apply --config "$tmp/saved.conf"
[ $st -eq 0 ] && [ "$(snap)" = "$saved" ]
ok $? "save, then apply on fresh disks: every tunable as saved"
dl -d sda save
[ $st -eq 1 ] && [ ! -s "$tmp/out" ]
ok $? "save -d of a disk not running deadline-rb: exit 1"

# save -> apply over by-id names with every character udev puts in one
# (letters, digits, #+-.:=@_, its \xNN escapes, UTF-8) and glob(7)'s own;
# sda has names that the same globs, unescaped, would match
B=$tmp/dev/disk/by-id
mv "$B" "$B.keep" && mkdir "$B"
ln -s ../../vda "$B/usb-Ab9_#+-.:=@\x20Disk\x2f"$'\xc3\xa9'
ln -s ../../nullb0 "$B/ata-x*?[y]z\#"
ln -s ../../sda "$B/usb-Ab9_"
ln -s ../../sda "$B/usb-Ab9_#+-.:=@x20Diskx2f"$'\xc3\xa9'
ln -s ../../sda "$B/ata-xAyz\#"
fresh
echo 123 >"$R/block/vda/queue/iosched/read_expire"
echo 7 >"$R/block/nullb0/queue/iosched/fifo_batch"
dl save
cp "$tmp/out" "$tmp/saved.conf"
[ $st -eq 0 ] && grep -qxF '[id usb-Ab9_\#+-.:=@\\x20Disk\\x2f'$'\xc3\xa9'']' "$tmp/saved.conf" &&
	grep -qxF '[id ata-x\*\?\[y\]z\\\#]' "$tmp/saved.conf"
ok $? "save: '#', the backslash and glob(7)'s *?[] escaped in a by-id name"
saved=$(snap)
fresh
dl apply --config "$tmp/saved.conf"
[ $st -eq 0 ] && [ ! -s "$tmp/err" ] && [ "$(snap)" = "$saved" ] && [ "$(active sda)" = mq-deadline ]
ok $? "... and apply reads it back: each disk as saved, sda (names the unescaped globs match) left alone"
# a name a section cannot hold (a blank: another rule's link, not udev's
# \x20) is passed over for the next, or the kernel name
rm -f "$B"/*
ln -s ../../vda "$B/my disk"
dl -d vda save
[ $st -eq 0 ] && grep -qx '\[name vda\]' "$tmp/out" && ! grep -q 'my disk' "$tmp/out"
ok $? "save: a by-id name with a blank is passed over: [name vda]"
ln -s ../../vda "$B/zz-disk"
dl -d vda save
[ $st -eq 0 ] && grep -qx '\[id zz-disk\]' "$tmp/out"
ok $? "... for the next by-id name where there is one"
rm -rf "$B" && mv "$B.keep" "$B"

# save never writes what apply would refuse
for v in abc '2 3' '' 0 250ms; do
	fresh
	printf '%s\n' "$v" >"$R/block/vda/queue/iosched/read_expire"
	dl save
	[ $st -eq 1 ] && [ ! -s "$tmp/out" ] &&
		grep -qxF "dlctl: vda: read_expire reads back as '$v', not a value to save; nothing saved" "$tmp/err"
	ok $? "save with read_expire reading '$v': exit 1, nothing printed"
done
fresh
rm "$R/block/vda/queue/iosched/prio_aging_expire"
dl save
[ $st -eq 0 ] && [ "$(grep -c '^prio_aging_expire' "$tmp/out")" -eq 1 ]
ok $? "save of a module without prio_aging_expire (an older one): left out, exit 0"
ln -s nowhere "$R/block/vda/queue/iosched/prio_aging_expire"
dl save
[ $st -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q 'vda: prio_aging_expire: No such file' "$tmp/err"
ok $? "save with a tunable that is there but cannot be read (a dangling link): exit 1, not left out"

# dlctl disable holds a disk off deadline-rb against apply (udev's rule)
fresh
conf etc/dlctl.conf <<'CONF'
[name vda]
fifo_batch = 20
[name nullb0]
fifo_batch = 20
CONF
echo 7 >"$R/block/vda/diskseq"
echo 8 >"$R/block/nullb0/diskseq"
dl -d vda disable
off=$(active vda)
dl apply
[ $st -eq 0 ] && [ "$(active vda)" = "$off" ] && [ "$(val nullb0 fifo_batch)" = 20 ] &&
	grep -qx "dlctl: vda: switched off by 'dlctl disable'; left alone until 'dlctl enable -d vda'" \
		"$tmp/err" && ! grep -q '^vda' "$tmp/out"
ok $? "apply after disable -d vda: vda left alone, saying so; nullb0 applied; exit 0"
dl -d vda apply --dry-run
[ $st -eq 0 ] && [ ! -s "$tmp/out" ] && grep -q "vda: switched off by 'dlctl disable'" "$tmp/err"
ok $? "... and apply --dry-run -d vda shows nothing to change, saying why"
echo 9 >"$R/block/vda/diskseq"
dl apply
[ $st -eq 0 ] && [ "$(active vda)" = deadline-rb ] && [ "$(val vda fifo_batch)" = 20 ]
ok $? "a new disk under vda's name (another diskseq): applied, the hold was the old disk's"
dl -d vda disable
dl -d vda enable
[ $st -eq 0 ] && [ ! -e "$DLCTL_TEST_RUN_DIR/disabled-vda" ]
ok $? "enable lifts disable's hold"
echo "mq-deadline kyber [bfq] deadline-rb none" >"$R/block/vda/queue/scheduler"
dl apply
[ $st -eq 0 ] && [ "$(active vda)" = deadline-rb ] && grep -qx 'vda: scheduler: bfq -> deadline-rb' "$tmp/out"
ok $? "... so apply switches vda again"
echo "mq-deadline kyber bfq [deadline-rb] none" >"$R/block/vda/queue/scheduler"
"${DLCTL[@]}" --sysfs-root "$R" -d vda disable >/dev/full 2>/dev/null
[ ! -e "$DLCTL_TEST_RUN_DIR/disabled-vda" ]
ok $? "a disable undone (>/dev/full) leaves no hold"
rm -f "$R/block/vda/diskseq" "$R/block/nullb0/diskseq"

# apply takes the lock only for a disk it changes
fresh
# (the lock is held until released: an apply that waited for it would
# say "waiting" and give up after dlctl's own 30 s, exit 1)
hold_lock
dl apply
[ $held -eq 0 ] && [ $st -eq 0 ] && [ ! -s "$tmp/err" ]
ok $? "apply with nothing configured does not wait for the lock"
conf etc/dlctl.conf <<'CONF'
[name nullb0]
fifo_batch = 21
CONF
dl -d vda apply
[ $held -eq 0 ] && [ $st -eq 0 ] && [ ! -s "$tmp/err" ]
ok $? "... nor for a disk no section matches (-d vda)"
dl_behind_lock nullb0 fifo_batch -d nullb0 apply
[ $st -eq 0 ] && [ "$mid" != 21 ] && [ "$(val nullb0 fifo_batch)" = 21 ] &&
	grep -q 'waiting for another dlctl' "$tmp/err"
ok $? "... but does for a disk it changes (waits, then applies)"
hold_lock
dl -d nullb0 apply
[ $held -eq 0 ] && [ $st -eq 0 ] && [ ! -s "$tmp/err" ] && [ ! -s "$tmp/out" ]
ok $? "... nor for one that is as configured already"
release_lock

# --syslog: messages and output to syslog too; stderr and stdout unchanged
fresh
conf etc/dlctl.d/50-good.conf <<'CONF'
[name nullb0]
fifo_batch = 22
CONF
conf etc/dlctl.conf <<'CONF'
[name vda]
seek_cost = 0
CONF
dl --syslog apply
[ $st -eq 2 ] && [ "$(cat "$tmp/out")" = 'nullb0: fifo_batch: 32 -> 22' ] &&
	grep -q "^dlctl: .*/etc/dlctl.conf:2: seek_cost: '0': out of range" "$tmp/err"
ok $? "--syslog apply: the same output and messages on stdout and stderr"
unset DLCTL_TEST_CONF_ROOT
export DLCTL_TEST_DEV_DIR=$D
mkfake "$R"

# --- Linux 7.2: async_depth is the block layer's queue/async_depth ---
# deadline-rb has no iosched/async_depth there; dlctl shows, sets, saves
# and applies the queue's under the same name, within 1..nr_requests.
mv "$R/block/nullb0/queue/iosched/async_depth" "$R/block/nullb0/queue/async_depth"
dl -d nullb0 get async_depth
[ $st -eq 0 ] && [ "$(cat "$tmp/out")" = "nullb0.async_depth = 64" ]
ok $? "7.2: get async_depth reads queue/async_depth"
dl set async_depth 16
[ $st -eq 0 ] && [ "$(cat "$R/block/nullb0/queue/async_depth")" = 16 ] &&
	[ "$(val vda async_depth)" = 16 ] && [ ! -e "$R/block/nullb0/queue/iosched/async_depth" ]
ok $? "7.2: set async_depth writes queue/async_depth (and vda's iosched/async_depth)"
before=$(snap)
dl -d nullb0 set async_depth 65
[ $st -eq 1 ] && [ "$(snap)" = "$before" ] &&
	[ "$(cat "$tmp/err")" = "dlctl: nullb0: async_depth: '65': out of range (1..64, its nr_requests)" ]
ok $? "7.2: set async_depth above nr_requests: refused, nothing changed"
dl -d nullb0 show
[ $st -eq 0 ] && [ "$(awk 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "ASYNC_DEPTH") c = i }
	NR == 2 { print $c }' "$tmp/out")" = 16 ]
ok $? "7.2: show has it in its column"
dl -d nullb0 save
[ $st -eq 0 ] && grep -qx 'async_depth = 16' "$tmp/out"
ok $? "7.2: save writes async_depth = 16"
cp "$tmp/out" "$tmp/saved.conf"
dl -d nullb0 reset
[ $st -eq 0 ] && [ "$(cat "$R/block/nullb0/queue/async_depth")" = 64 ]
ok $? "7.2: reset puts queue/async_depth back to nr_requests"
mkdir -p "$tmp/root7/etc"
cp "$tmp/saved.conf" "$tmp/root7/etc/dlctl.conf"
DLCTL_TEST_CONF_ROOT=$tmp/root7 dl -d nullb0 apply
[ $st -eq 0 ] && [ "$(cat "$R/block/nullb0/queue/async_depth")" = 16 ] &&
	grep -qx 'nullb0: async_depth: 64 -> 16' "$tmp/out"
ok $? "7.2: apply of the saved file sets queue/async_depth again"
mkfake "$R"

echo "1..$n"
exit 0
