#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deadline-rb as a sysadmin installs it, in TAP: `make deb` gives two
# lintian-clean packages with the right files and control fields; the
# unpacked deadline-rb-dkms builds with the real `dkms build` against
# Debian's stock kernel headers (unpacked in the cache, with --dkmstree,
# --sourcetree and --kernelsourcedir there: never /var/lib/dkms or
# /lib/modules); and bad input fails with one clear line: a kernel whose
# linux-source is missing, a kernel older than 6.1, an unknown KERNEL= or
# --kernel, a module built for another kernel.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
tmp=$(mktemp -d /tmp/dlrb-dkms.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
version=$(scripts/version.sh)
n=0

echo "1..34"
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}
diag() { sed 's/^/# /'; }

# --- make deb ---
make -s --no-print-directory deb >"$tmp/deb.out" 2>&1
ok $? "make deb succeeds"
dkms_deb=build/deb/deadline-rb-dkms_${version}_all.deb
tool_deb=build/deb/dlctl_${version}_amd64.deb
[ -f "$dkms_deb" ] && [ -f "$tool_deb" ] && [ "$(ls build/deb/*.deb | wc -l)" -eq 2 ]
ok $? "build/deb/ holds exactly deadline-rb-dkms_${version}_all.deb and dlctl_${version}_amd64.deb"

lintian --pedantic --fail-on error,warning,pedantic "$dkms_deb" "$tool_deb" >"$tmp/lintian" 2>&1
ok $? "lintian --pedantic: no error, warning or pedantic tag on either package"
grep -E '^[EWP]:' "$tmp/lintian" | diag

field() { dpkg-deb -f "$1" "$2"; }
files() { dpkg-deb -c "$1" | awk '{ print $6 }' | sed 's|^\./|/|'; }

# deadline-rb-dkms: control fields and file list
[ "$(field "$dkms_deb" Version)" = "$version" ] && [ "$(field "$dkms_deb" Architecture)" = all ]
ok $? "deadline-rb-dkms: version $version (CHANGELOG's), architecture all"
deps=$(field "$dkms_deb" Depends)
grep -q 'dkms' <<<"$deps" && grep -q 'linux-source-6.1 | linux-source-6.12' <<<"$deps"
ok $? "deadline-rb-dkms depends on dkms and linux-source-6.1 | linux-source-6.12 ($deps)"
files "$dkms_deb" >"$tmp/dkms.files"
src=/usr/src/deadline-rb-$version
want="$src/dkms.conf $src/Kbuild $src/dlrb-compat.mk $src/dlrb-block-headers $src/dlrb-iosched.c $src/dlrb-engine.c $src/dlrb-engine.h $src/dlrb-compat.h"
missing=
for f in $want; do grep -qx "$f" "$tmp/dkms.files" || missing="$missing $f"; done
[ -z "$missing" ]
ok $? "deadline-rb-dkms ships the module source, dkms.conf and the PRE_BUILD step${missing:+ (missing:$missing)}"
! grep -v -e "^$src/" -e '^/usr/share/doc/deadline-rb-dkms/' -e '/$' "$tmp/dkms.files" | grep . >/dev/null
ok $? "deadline-rb-dkms ships nothing else"
# not grep -q: under pipefail, dpkg-deb killed by SIGPIPE after an early
# match would fail the test
dpkg-deb -c "$dkms_deb" | grep '^-rwxr-xr-x .*dlrb-block-headers$' >/dev/null
ok $? "the PRE_BUILD step is executable"

mkdir -p "$tmp/pkg"
dpkg-deb -x "$dkms_deb" "$tmp/pkg"
conf=$tmp/pkg$src/dkms.conf
grep -qx "PACKAGE_VERSION=\"$version\"" "$conf" && grep -qx 'AUTOINSTALL="yes"' "$conf" &&
	grep -qx 'PACKAGE_NAME="deadline-rb"' "$conf" && grep -q '^BUILT_MODULE_NAME\[0\]="deadline-rb"' "$conf" &&
	grep -q '^DEST_MODULE_LOCATION\[0\]=' "$conf" && grep -q '^PRE_BUILD="dlrb-block-headers ' "$conf" &&
	grep -qxF 'BUILD_EXCLUSIVE_KERNEL="^6\.(1|12)\."' "$conf" &&
	grep -q '^MAKE\[0\]="make -C ${kernel_source_dir} ' "$conf"
ok $? "the packaged dkms.conf: name, version filled in, module, location, AUTOINSTALL, 6.1/6.12 only, PRE_BUILD, MAKE"

# dlctl: control fields and file list
[ "$(field "$tool_deb" Version)" = "$version" ] && [ "$(field "$tool_deb" Architecture)" = amd64 ] &&
	grep -q 'libc6' <<<"$(field "$tool_deb" Depends)" && grep -q 'libsmartcols1' <<<"$(field "$tool_deb" Depends)"
ok $? "dlctl: version $version, amd64, depends on libc6 and libsmartcols1"
files "$tool_deb" >"$tmp/tool.files"
grep -qx /usr/bin/dlctl "$tmp/tool.files" && grep -qx /usr/share/man/man8/dlctl.8.gz "$tmp/tool.files" &&
	grep -qx /usr/share/man/man4/deadline-rb.4.gz "$tmp/tool.files" &&
	grep -qx /usr/share/man/man5/dlctl.conf.5.gz "$tmp/tool.files" &&
	grep -qx /usr/share/bash-completion/completions/dlctl "$tmp/tool.files" &&
	grep -qx /lib/udev/rules.d/60-dlctl.rules "$tmp/tool.files"
ok $? "dlctl ships /usr/bin/dlctl, dlctl(8), deadline-rb(4), dlctl.conf(5), bash completion, the udev rule"
# the places dlctl.conf(5) reads, there on a fresh install: `dlctl save >
# /etc/dlctl.d/50-local.conf` (README) needs the directory; a README in it,
# as procps ships /etc/sysctl.d/README.sysctl
grep -qx /etc/dlctl.d/README "$tmp/tool.files" && grep -qx /usr/lib/dlctl.d/ "$tmp/tool.files" &&
	dpkg-deb -I "$tool_deb" conffiles | grep -qx /etc/dlctl.d/README
ok $? "dlctl ships /etc/dlctl.d/ (its README a conffile) and /usr/lib/dlctl.d/"
! grep -v -e '^/usr/bin/dlctl$' -e '^/usr/share/man/man[458]/' -e '^/usr/share/doc/dlctl/' -e '/$' \
	-e '^/usr/share/bash-completion/completions/dlctl$' -e '^/lib/udev/rules.d/60-dlctl.rules$' \
	-e '^/etc/dlctl.d/README$' "$tmp/tool.files" | grep . >/dev/null
ok $? "dlctl ships nothing else"
mkdir -p "$tmp/tool"
dpkg-deb -x "$tool_deb" "$tmp/tool"
readelf -d "$tmp/tool/usr/bin/dlctl" | grep 'NEEDED.*libc\.so' >/dev/null
ok $? "the packaged dlctl is linked dynamically, as Debian policy wants"
[ "$("$tmp/tool/usr/bin/dlctl" --version)" = "dlctl $version" ]
ok $? "the packaged dlctl --version says $version"
grep -qx 'RUN+="/usr/bin/dlctl --syslog apply -d $kernel"' "$tmp/tool/lib/udev/rules.d/60-dlctl.rules"
ok $? "the packaged udev rule runs /usr/bin/dlctl apply"
# the README's example is a configuration apply takes
sed -n '/^    \[/,/^$/s/^    //p' "$tmp/tool/etc/dlctl.d/README" >"$tmp/example.conf"
"$tmp/tool/usr/bin/dlctl" apply --dry-run --config "$tmp/example.conf" --sysfs-root "$tmp/nosys" >"$tmp/ex.out" 2>&1
grep -q '^\[rotational\]$' "$tmp/example.conf" && [ "$(cat "$tmp/ex.out")" = "dlctl: $tmp/nosys/block: No such file or directory" ]
ok $? "/etc/dlctl.d/README: its example configuration parses (apply --dry-run goes on to the disks)"

# make install: the same files under PREFIX, the rule where udev reads it
make -s install DESTDIR="$tmp/inst" PREFIX=/usr/local >"$tmp/inst.log" 2>&1 &&
	[ -x "$tmp/inst/usr/local/bin/dlctl" ] && [ -f "$tmp/inst/etc/dlctl.d/README" ] &&
	[ -f "$tmp/inst/usr/local/share/man/man5/dlctl.conf.5" ] &&
	grep -qx 'RUN+="/usr/local/bin/dlctl --syslog apply -d $kernel"' \
		"$tmp/inst/usr/local/lib/udev/rules.d/60-dlctl.rules"
ok $? "make install PREFIX=/usr/local: dlctl in bin, pages, /etc/dlctl.d/README, a rule in /usr/local/lib/udev/rules.d that runs it"

# --- the unpacked package's source, built by the real dkms ---
dkms_build() { # NAME TREE: dkms build of the unpacked package against NAME
	local name=$1 tree=$2 kdir rel
	kdir=$(scripts/debian-kernel.sh fetch "$name") || return 1
	rel=$(basename "$kdir")
	rel=${rel#linux-headers-}
	mkdir -p "$tree/dkms"
	sign_file=/nonexistent/no-signing-in-tests dkms build -m deadline-rb -v "$version" -k "$rel" \
		--dkmstree "$tree/dkms" --sourcetree "$tmp/pkg/usr/src" --kernelsourcedir "$kdir" \
		>"$tree.log" 2>&1 || return 1
	built=$(find "$tree/dkms/deadline-rb/$version/$rel" -name 'deadline-rb.ko*' | head -n 1)
	[ -n "$built" ] || return 1
	case $built in
	*.xz) xz -dc "$built" >"$tree/deadline-rb.ko" ;;
	*) cp "$built" "$tree/deadline-rb.ko" ;;
	esac
	echo "$rel" >"$tree/release"
}
for name in debian-6.1 debian-6.12; do
	dkms_build "$name" "$tmp/$name"
	st=$?
	ok $st "dkms build of the unpacked deadline-rb-dkms for $name ($(cat "$tmp/$name/release" 2>/dev/null))"
	[ $st -eq 0 ] || diag <"$tmp/$name.log"
	rel=$(cat "$tmp/$name/release" 2>/dev/null)
	[ -n "$rel" ] && [ "$(modinfo -F vermagic "$tmp/$name/deadline-rb.ko" | cut -d' ' -f1)" = "$rel" ] &&
		[ "$(modinfo -F version "$tmp/$name/deadline-rb.ko")" = "$version" ]
	ok $? "$name: the module's vermagic is $rel and modinfo's version $version"
done
grep -q "block/ headers from linux-source-6.1 " "$tmp/debian-6.1.log"
ok $? "the PRE_BUILD step took block/ from the matching linux-source-6.1"

# --- bad input: one line, non-zero, nothing half-built ---
# A Debian kernel whose linux-source is not installed at its version.
fake=$tmp/fake-headers
mkdir -p "$fake/include/generated" "$tmp/bb"
echo '#define LINUX_PACKAGE_ID " Debian 6.1.999-1"' >"$fake/include/generated/package.h"
(cd "$tmp/bb" && "$top/dist/dkms/dlrb-block-headers" 6.1.0-99-amd64 "$fake") >"$tmp/bb.out" 2>&1
st=$?
[ $st -ne 0 ] && [ "$(wc -l <"$tmp/bb.out")" -eq 1 ] &&
	grep -q 'apt install linux-source-6.1=6.1.999-1' "$tmp/bb.out" && [ ! -e "$tmp/bb/block" ]
ok $? "no matching linux-source: one line naming linux-source-6.1=6.1.999-1, no block/ left"
diag <"$tmp/bb.out"
(cd "$tmp/bb" && "$top/dist/dkms/dlrb-block-headers" 5.10.0-30-amd64 "$fake") >"$tmp/old.out" 2>&1
st=$?
[ $st -ne 0 ] && [ "$(wc -l <"$tmp/old.out")" -eq 1 ] && grep -q 'older than 6.1' "$tmp/old.out"
ok $? "a kernel older than 6.1: one line, non-zero"
diag <"$tmp/old.out"

# The same through the real dkms: the build fails and says why.
kdir=$(scripts/debian-kernel.sh fetch debian-6.1)
cp -a "$kdir" "$tmp/headers-mismatch"
sed -i 's/^#define LINUX_PACKAGE_ID .*/#define LINUX_PACKAGE_ID " Debian 6.1.999-1"/' \
	"$tmp/headers-mismatch/include/generated/package.h"
mkdir -p "$tmp/dkms-mismatch"
sign_file=/nonexistent/no-signing-in-tests dkms build -m deadline-rb -v "$version" \
	-k "$(basename "$kdir" | sed 's/^linux-headers-//')" --dkmstree "$tmp/dkms-mismatch" \
	--sourcetree "$tmp/pkg/usr/src" --kernelsourcedir "$tmp/headers-mismatch" \
	>"$tmp/mismatch.log" 2>&1
st=$?
[ $st -ne 0 ] && grep -q 'apt install linux-source-6.1=6.1.999-1' "$tmp/mismatch.log" &&
	[ -z "$(find "$tmp/dkms-mismatch" -name 'deadline-rb.ko*')" ]
ok $? "dkms build against a kernel without its linux-source fails, names the package, builds no module"

# Unknown series and kernels.
out=$(make -s --no-print-directory KERNEL=5.10 kernel 2>&1)
st=$?
[ $st -ne 0 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && grep -q "unknown KERNEL '5.10'" <<<"$out"
ok $? "make KERNEL=5.10: one line, non-zero"
echo "$out" | diag
out=$(tests/vm run --kernel 4.19 /dev/null 2>&1)
st=$?
[ $st -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && grep -q "unknown kernel '4.19'" <<<"$out"
ok $? "tests/vm run --kernel 4.19: one line, exit 2"
out=$(tests/vm run --kernel debian-6.1 --debug /dev/null 2>&1)
st=$?
[ $st -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ]
ok $? "tests/vm run --kernel debian-6.1 --debug: one line, exit 2 (stock kernels have one flavour)"
out=$(scripts/debian-kernel.sh prepare debian-5.10 2>&1)
st=$?
[ $st -eq 2 ] && [ "$(wc -l <<<"$out")" -eq 1 ]
ok $? "debian-kernel.sh prepare debian-5.10: one line, exit 2"

# Versions come from the archive at run time, not from this tree.
read -r rel ver <<<"$(scripts/debian-kernel.sh resolve debian-6.1)"
dep=$(apt-cache depends linux-image-amd64 | sed -n 's/^ *Depends: linux-image-//p' | head -n 1)
[ -n "$rel" ] && [ "$rel" = "$dep" ]
ok $? "debian-6.1 is the kernel linux-image-amd64 depends on ($rel)"
read -r rel ver <<<"$(scripts/debian-kernel.sh resolve debian-6.12)"
newest=$(apt-cache pkgnames linux-image-6.12. | grep -E '^linux-image-6\.12\.[0-9]+\+deb[0-9]+-amd64$' |
	sed 's/^linux-image-//' | sort -V | tail -n 1)
[ -n "$rel" ] && [ "$rel" = "$newest" ]
ok $? "debian-6.12 is the newest linux-image-6.12.*-amd64 the archive serves ($rel)"

# A module built for one kernel is never put into another's initramfs.
st612=$(scripts/debian-kernel.sh prepare debian-6.12 2>"$tmp/prepare.err")
if [ -n "$st612" ] && [ -f "$tmp/debian-6.1/deadline-rb.ko" ]; then
	initramfs/build.sh "$st612/gen_init_cpio" "$st612" "$tmp/wrong.cpio" \
		"$tmp/debian-6.1/deadline-rb.ko" >"$tmp/wrong.out" 2>&1
	st=$?
	[ $st -ne 0 ] && grep -q 'was built for kernel' "$tmp/wrong.out" && [ ! -e "$tmp/wrong.cpio" ]
else
	echo "# no staged debian-6.12 kernel or no 6.1 module to try" >"$tmp/wrong.out"
	cat "$tmp/prepare.err" >>"$tmp/wrong.out"
	false
fi
ok $? "the initramfs refuses a 6.1 module for the 6.12 kernel (vermagic)"
diag <"$tmp/wrong.out" 2>/dev/null

# Nothing of this touched the machine's own DKMS state or modules.
[ ! -e /var/lib/dkms/deadline-rb ] && ! ls /lib/modules/*/updates/dkms/deadline-rb.ko* >/dev/null 2>&1
ok $? "/var/lib/dkms and /lib/modules hold no deadline-rb"
exit 0
