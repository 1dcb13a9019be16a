#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dist/bash-completion/dlctl, in TAP: each case sets COMP_WORDS, COMP_CWORD,
# COMP_LINE and COMP_POINT as bash would for a command line and calls _dlctl,
# then checks COMPREPLY.  DLCTL_BIN names the dlctl whose --help gives the
# tunables (default build/dlctl); it runs as "dlctl" from a PATH entry.
# Exits 0: the failures are in the TAP.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${DLCTL_BIN:-$top/build/dlctl}
comp_file=$top/dist/bash-completion/dlctl
tmp=$(mktemp -d /tmp/dlctl-completion.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
n=0

ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
	fi
}

# Only "dlctl" on PATH, so that the completion runs the binary under test.
mkdir -p "$tmp/bin" "$tmp/stub" "$tmp/sys/class/block/vda" "$tmp/sys/class/block/nullb0" \
	"$tmp/other/class/block/sdz" "$tmp/root1" "$tmp/root2"
: >"$tmp/rootfile"
ln -s "$bin" "$tmp/bin/dlctl"
export PATH="$tmp/bin:$PATH"
export DLCTL_SYSFS_ROOT=$tmp/sys

# shellcheck source=/dev/null
if ! . /usr/share/bash-completion/bash_completion; then
	ok 1 "source /usr/share/bash-completion/bash_completion"
	echo "1..$n"
	exit 0
fi
# shellcheck source=/dev/null
. "$comp_file"
ok $? "source dist/bash-completion/dlctl"
[ "$(complete -p dlctl 2>/dev/null)" = "complete -F _dlctl dlctl" ]
ok $? "complete -F _dlctl dlctl"

# Outside of readline compopt fails: note what it was asked instead.
compopts=""
# shellcheck disable=SC2317 # called by _dlctl
compopt() { compopts+=" $*"; }

# comp LINE: complete at the end of LINE.  COMP_WORDS as bash splits it:
# blanks separate words, a run of the COMP_WORDBREAKS characters "=" and ":"
# is a word of its own.
comp() {
	local line=$1 word="" brk="" c i
	local -a w=()

	for ((i = 0; i < ${#line}; i++)); do
		c=${line:i:1}
		case $c in
			" ")
				[ -n "$word" ] && w+=("$word")
				[ -n "$brk" ] && w+=("$brk")
				word="" brk=""
				;;
			[=:])
				[ -n "$word" ] && w+=("$word")
				word="" brk+=$c
				;;
			*)
				[ -n "$brk" ] && w+=("$brk")
				brk="" word+=$c
				;;
		esac
	done
	if [ -n "$brk" ]; then
		w+=("$brk")
	else
		w+=("$word")	# "" after a blank: a new, empty word
	fi
	COMP_WORDS=("${w[@]}")
	COMP_CWORD=$((${#w[@]} - 1))
	COMP_LINE=$line
	COMP_POINT=${#line}
	COMPREPLY=()
	compopts=""
	_dlctl dlctl "${w[COMP_CWORD]}" "${w[COMP_CWORD - 1]}"
}

sorted() { printf '%s\n' "$@" | LC_ALL=C sort; }

# is DESCRIPTION LINE WORD...: the completions of LINE are the WORDs.
is() {
	local desc=$1 line=$2 got want
	shift 2
	comp "$line"
	got=$(sorted "${COMPREPLY[@]}")
	want=$(sorted "$@")
	[ "$got" = "$want" ]
	ok $? "'$line': $desc"
	if [ "$got" != "$want" ]; then
		echo "# want: $(tr '\n' ' ' <<<"$want")"
		echo "# got:  $(tr '\n' ' ' <<<"$got")"
	fi
}

# has DESCRIPTION LINE WORD...: the completions of LINE include the WORDs.
has() {
	local desc=$1 line=$2 w missing=""
	shift 2
	comp "$line"
	for w in "$@"; do
		printf '%s\n' "${COMPREPLY[@]}" | grep -qxF -- "$w" || missing+=" $w"
	done
	[ -z "$missing" ]
	ok $? "'$line': $desc"
	[ -z "$missing" ] || echo "# missing:$missing; got: ${COMPREPLY[*]}"
}

tunables=(read_expire write_expire writes_starved fifo_batch seek_cost hash_shift front_merges
	async_depth prio_aging_expire)

# The tunables dlctl --help prints, as a user reads them.
if [ -x "$bin" ]; then
	mapfile -t helped < <("$bin" --help | sed -n '/^Parameters:$/,/^$/{/^ /s/^ *\([^ ]*\).*/\1/p}')
else
	helped=()
fi
[ ${#helped[@]} -gt 0 ]
ok $? "$bin --help lists the tunables"

is "the command" "dlctl se" set
is "every command" "dlctl " show get set reset enable disable stats profile apply save
is "a command after an option and its argument" "dlctl -d vda ge" get
is "a command after an attached option argument" "dlctl -dvda --json sh" show
is "a parameter= form" "dlctl set fi" fifo_batch=
[[ $compopts == *nospace* ]]
ok $? "'dlctl set fi': no space after the ="
is "every tunable" "dlctl get " "${tunables[@]}"
is "the tunables dlctl --help prints" "dlctl get " "${helped[@]}"
is "a tunable" "dlctl get -J wr" write_expire writes_starved
is "async_depth" "dlctl get a" async_depth
is "async_depth= for set" "dlctl set fifo_batch=8 as" async_depth=
is "nothing for async_depth's number" "dlctl set async_depth "
is "the ASYNC_DEPTH column" "dlctl show -o NAME,AS" NAME,ASYNC_DEPTH
is "async_depth from the static list" "$tmp/none/dlctl profile as" async_depth
is "prio_aging_expire" "dlctl get p" prio_aging_expire
is "prio_aging_expire= for set" "dlctl set fifo_batch=8 pr" prio_aging_expire=
is "nothing for prio_aging_expire's time" "dlctl set prio_aging_expire "
is "the PRIO_AGING_EXPIRE column" "dlctl show -o NAME,PR" NAME,PRIO_AGING_EXPIRE
is "prio_aging_expire from the static list" "$tmp/none/dlctl get pr" prio_aging_expire
is "the devices in the fake sysfs" "dlctl -d " vda nullb0
is "a device by prefix" "dlctl show -d nu" nullb0
is "a device after --device=" "dlctl get --device=v" vda
is "a device after a bundle" "dlctl show -Jd " vda nullb0
is "a device under --sysfs-root" "dlctl --sysfs-root $tmp/other show -d " sdz
is "a device under --sysfs-root=" "dlctl --sysfs-root=$tmp/other -d " sdz
has "a device path" "dlctl -d /de" /dev
is "a column" "dlctl show -o NA" NAME
is "the last column of a list" "dlctl show -o NAME,FI" NAME,FIFO_BATCH
[[ $compopts == *nospace* ]]
ok $? "'dlctl show -o NAME,FI': no space after a column"
is "a column added to the default" "dlctl show -o +SC" +SCHED
is "no column twice" "dlctl show --output=NAME,SCHED,READ_EXPIRE,WRITE_EXPIRE,WRITES_STARVED,SEEK_COST," \
	NAME,SCHED,READ_EXPIRE,WRITE_EXPIRE,WRITES_STARVED,SEEK_COST,FIFO_BATCH \
	NAME,SCHED,READ_EXPIRE,WRITE_EXPIRE,WRITES_STARVED,SEEK_COST,HASH_SHIFT \
	NAME,SCHED,READ_EXPIRE,WRITE_EXPIRE,WRITES_STARVED,SEEK_COST,FRONT_MERGES \
	NAME,SCHED,READ_EXPIRE,WRITE_EXPIRE,WRITES_STARVED,SEEK_COST,ASYNC_DEPTH \
	NAME,SCHED,READ_EXPIRE,WRITE_EXPIRE,WRITES_STARVED,SEEK_COST,PRIO_AGING_EXPIRE
is "the stats columns" "dlctl stats -o MERGED_" MERGED_FRONT MERGED_BACK MERGED_RQ
is "a priority class's stats columns" "dlctl stats -o NAME,RT_" NAME,RT_INSERTED NAME,RT_DISPATCHED \
	NAME,RT_MERGED NAME,RT_QUEUED NAME,RT_AGED
is "a class column added to the default" "dlctl stats -o +IDLE_A" +IDLE_AGED
is "the profile columns" "dlctl profile -o READ_P" READ_P50_US READ_P99_US
is "the get columns" "dlctl get -o S" SEEK_COST
is "a workload" "dlctl profile fifo_batch 8 -w seq" seqread seqwrite seqwrite+randread
is "every workload" "dlctl profile fifo_batch 8 --workload " \
	randread randwrite randrw seqread seqwrite seqwrite+randread
is "the profiled parameter" "dlctl profile hash" hash_shift
is "no parameter after the profiled one" "dlctl profile fifo_batch "
is "front_merges' values" "dlctl set front_merges " on off
is "front_merges' values after an option" "dlctl set front_merges -d vda "  on off
is "nothing for a number" "dlctl set fifo_batch "
is "nothing after set NAME VALUE" "dlctl set fifo_batch 8 "
is "a second parameter= form" "dlctl set fifo_batch=8 hash" hash_shift=
is "front_merges= values" "dlctl set front_merges=" on off
is "front_merges= values by prefix" "dlctl set seek_cost=8 front_merges=o" on off
is "nothing for a show argument" "dlctl show "
is "a long option" "dlctl --js" --json
is "a profile option" "dlctl profile --all" --allow-write
is "no profile option for show" "dlctl show --w"
is "no output option for set" "dlctl set --js"
is "an output option for get" "dlctl get --no" --noheadings
is "no option after --" "dlctl get -- --js"
is "nothing for a number option" "dlctl profile -q "
is "nothing for --duration=" "dlctl --help --duration="
is "apply's options" "dlctl apply --" --device --sysfs-root --syslog --help --version --config --dry-run
is "no apply option for set" "dlctl set --dry"
is "show's --list-columns" "dlctl show --li" --list-columns
is "no --list-columns for get" "dlctl get --li"
has "directories for --sysfs-root" "dlctl --sysfs-root $tmp/r" "$tmp/root1" "$tmp/root2"
comp "dlctl --sysfs-root $tmp/r"
! printf '%s\n' "${COMPREPLY[@]}" | grep -qxF "$tmp/rootfile"
ok $? "'dlctl --sysfs-root $tmp/r': no file"

# The tunables come from the dlctl on the line, at completion time ...
cat >"$tmp/stub/dlctl" <<'EOF'
#!/bin/sh
printf 'Usage:\n dlctl\n\nParameters:\n fifo_batch   cost units\n new_knob     just added\n\nFor more details see dlctl(8).\n'
EOF
chmod +x "$tmp/stub/dlctl"
PATH="$tmp/stub:$PATH" is "the tunables of a newer dlctl" "dlctl get " fifo_batch new_knob
PATH="$tmp/stub:$PATH" is "its columns" "dlctl show -o N" NAME NEW_KNOB
# ... or from the static list if it does not run.
is "the static list without a dlctl" "$tmp/none/dlctl get " "${tunables[@]}"

echo "1..$n"
exit 0
