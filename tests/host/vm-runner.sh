#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The VM runner's own tests, in TAP: it must pass a script's exit status and
# arguments through, and it must fail a run whose kernel warns, panics or
# hangs.  The failures are provoked with the kernel's LKDTM.  Every script is
# written outside the repository, as any user's would be.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
vm=$top/tests/vm
flavour=${VM_FLAVOUR:---debug}
tmp=$(mktemp -d /tmp/dlrb-vm-runner.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export VM_LOGDIR=$tmp/logs
n=0

echo "1..12"
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

# guest NAME BODY [ARGS...]: run BODY as a guest script, leaving its status in
# $status and the runner's stderr in $err; the runner's options in $gopts.
# The limit for a boot is make check's (VM_TIMEOUT, 1800 s): this tier runs
# at nice 10 beside two lanes of guests, where a boot can take minutes.
gopts=()
guest() {
	local name=$1 body=$2
	shift 2
	printf '#!/bin/sh\n%s\n' "$body" >"$tmp/$name.sh"
	"$vm" run $flavour -q --timeout "${TIMEOUT:-${VM_TIMEOUT:-1800}}" "${gopts[@]}" "$tmp/$name.sh" "$@" \
		>"$tmp/$name.out" 2>"$tmp/$name.err"
	status=$?
	err=$(cat "$tmp/$name.err")
}

# One boot for what a passing run must carry: exit status, output,
# arguments, a file put in, and splat words said by userspace (which must
# not turn the status into the runner's 125).  Each boot of the debug
# kernel costs some 18 s of make check.
printf 'payload %s\n' "$$" >"$tmp/payload.txt"
gopts=(--file "$tmp/payload.txt")
guest pass '[ "$#" = 3 ] && [ "$1" = "a b" ] && [ "$2" = "it'\''s" ] && [ "$3" = "" ] || exit 4
echo hello from the guest
cat /dlrb/files/payload.txt
echo "BUG: WARNING: Call Trace: said by userspace"
exit 3' "a b" "it's" ""
gopts=()
[ "$status" -eq 3 ]
ok $? "script's exit status 3 comes back as the runner's (got $status)"
grep -q '^hello from the guest$' "$tmp/pass.out"
ok $? "script's output is printed"
[ -s "$VM_LOGDIR/latest/console.log" ]
ok $? "the serial console is saved"
[ "$status" -ne 4 ]
ok $? "arguments with spaces, quotes and empty ones arrive intact (status $status)"
[ "$status" -ne 125 ] && grep -q '^BUG: WARNING: Call Trace: said by userspace$' "$tmp/pass.out"
ok $? "a script printing splat words is not mistaken for a kernel splat (status $status)"
grep -qx "payload $$" "$tmp/pass.out"
ok $? "--file puts a file in the guest, as /dlrb/files/NAME"

guest warn 'modprobe lkdtm && echo WARNING >/sys/kernel/debug/provoke-crash/DIRECT; exit 0'
[ "$status" -ne 0 ] && grep -q 'splat' <<<"$err"
ok $? "a kernel WARNING fails the run although the script exits 0 (status $status)"
grep -q 'console log: /' <<<"$err"
ok $? "the failure names the log's location"

guest panic 'modprobe lkdtm && echo PANIC >/sys/kernel/debug/provoke-crash/DIRECT; exit 0'
[ "$status" -ne 0 ] && grep -q 'died' <<<"$err"
ok $? "a kernel panic fails the run (status $status)"

TIMEOUT=${HANG_TIMEOUT:-30} guest hang 'sleep 100000'
[ "$status" -ne 0 ] && grep -q 'hung' <<<"$err"
ok $? "a guest that never finishes fails the run after the timeout (status $status)"

"$vm" run $flavour /nonexistent/script.sh >/dev/null 2>&1
[ $? -eq 2 ]
ok $? "a missing script is a usage error (exit 2)"

printf '#!/bin/sh\ntrue\n' >"$tmp/file.sh"
"$vm" run $flavour --file "$tmp/nonexistent" "$tmp/file.sh" >/dev/null 2>&1
[ $? -eq 2 ]
ok $? "--file naming a missing file is a usage error (exit 2)"
