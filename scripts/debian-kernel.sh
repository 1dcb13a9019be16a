#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Debian's own stock kernels for the guest: fetched with apt-get download,
# unpacked with dpkg-deb -x into the cache, never installed on this machine
# and never booted here outside QEMU.  deadline-rb is built for them with the
# real `dkms build`, against their linux-headers package, in trees under the
# cache and build/ (never /var/lib/dkms or /lib/modules).
#
#   scripts/debian-kernel.sh resolve NAME   print "RELEASE VERSION" (no download)
#   scripts/debian-kernel.sh fetch NAME     fetch and unpack; print the headers
#                                           directory (a kernel_source_dir)
#   scripts/debian-kernel.sh prepare NAME   fetch, unpack, build the module with
#                                           DKMS, stage the guest's modules;
#                                           print the staging directory
#
# NAME is debian-6.1 (the kernel linux-image-amd64 depends on), debian-6.12
# (the newest linux-image-6.12.*-amd64 the archive serves) or debian-7.2 (the
# newest linux-image-7.2.*-amd64 of Debian testing, through
# scripts/testing-apt.sh).  Each is resolved from the archive at run time,
# never from a hard-coded ABI number.
#
# debian-7.2 differs in two ways.  Its packages are split otherwise
# (linux-binary-REL has vmlinuz, linux-modules-REL the modules, linux-base-REL
# the config, all under /usr/lib/modules/REL), and its headers' kbuild
# programs need a newer glibc than Debian 12's, so DKMS cannot build against
# them here.  The module is built instead from Debian's linux-source-7.2 of
# the same version, configured with the kernel's own config and given its
# Module.symvers (from linux-headers-REL), with the kernel's release string;
# its vermagic must then be the stock modules' own, or nothing is staged.
#
# The staging directory holds vmlinuz, lib/modules/RELEASE/ (the modules the
# guest needs, uncompressed), deadline-rb.ko as DKMS built it, boot-modules
# (what /init loads before it mounts configfs and looks for vda) and
# gen_init_cpio, built from the matching linux-source tree; initramfs/build.sh
# makes the initramfs from them.
#
# Environment: DLRB_CACHE (default ~/.cache/deadline-rb).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${DLRB_CACHE:-$HOME/.cache/deadline-rb}
prog=debian-kernel.sh

die() { echo "$prog: $*" >&2; exit 1; }

# Modules the guest needs from the stock kernel (with what they depend on),
# and the ones /init loads at boot, in order.
guest_modules="configfs virtio_pci virtio_blk null_blk kyber-iosched bfq"
boot_modules="configfs virtio_pci virtio_blk"

testing_apt() { "$top/scripts/testing-apt.sh" "$@"; }

# apt-cache answers from the package lists; with none yet, fetch them once.
apt_lists() {
	apt-cache show linux-image-amd64 >/dev/null 2>&1 && return 0
	[ "$(id -u)" -eq 0 ] || die "no package lists: run 'sudo apt-get update'"
	apt-get update -qq >/dev/null
}

# The image package of NAME, from the archive.
image_package() {
	local p
	case $1 in
	debian-6.1)
		p=$(apt-cache depends linux-image-amd64 2>/dev/null |
			sed -n 's/^ *Depends: \(linux-image-6\.1\.[^ ]*-amd64\)$/\1/p' | head -n 1)
		[ -n "$p" ] || die "linux-image-amd64 does not depend on a 6.1 kernel here"
		;;
	debian-6.12)
		p=$(apt-cache search --names-only '^linux-image-6\.12\.[0-9]+\+deb[0-9]+-amd64$' |
			cut -d' ' -f1 | sort -V | tail -n 1)
		[ -n "$p" ] || die "the archive serves no linux-image-6.12.*-amd64"
		;;
	esac
	echo "$p"
}

resolve() {
	local img ver
	if [ "$1" = debian-7.2 ]; then
		img=$(testing_apt names '^linux-image-7\.2\.[0-9]+\+deb[0-9]+-amd64$' | tail -n 1)
		[ -n "$img" ] || die "Debian testing has no linux-image-7.2.*-amd64; it has:" \
			"$(testing_apt names '^linux-image-[0-9.]+\+deb[0-9]+-amd64$' | xargs)"
		ver=$(testing_apt version "$img") || exit 1
		echo "${img#linux-image-} $ver"
		return
	fi
	apt_lists
	img=$(image_package "$1") || exit 1
	ver=$(apt-cache policy "$img" | sed -n 's/^ *Candidate: //p')
	[ -n "$ver" ] && [ "$ver" != "(none)" ] || die "$img has no candidate version"
	echo "${img#linux-image-} $ver"
}

# The headers packages of a kernel release: its own, the common one, kbuild.
headers_packages() {
	local rel=$1 ver=$2 own deps
	own=linux-headers-$rel
	deps=$(apt-cache depends "$own=$ver" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-\(headers\|kbuild\)-[^ <]*\)$/\1/p' | sort -u)
	[ -n "$deps" ] || die "cannot resolve what $own $ver depends on"
	echo "$own" $deps
}

# Download and unpack into $dir/root, once per version; a half-done unpack
# has no .unpacked and is redone from scratch.
unpack() {
	local rel=$1 ver=$2 dir=$3 p pkgs tmp
	[ -f "$dir/.unpacked" ] && [ "$(cat "$dir/.unpacked")" = "$ver" ] && return 0
	pkgs="linux-image-$rel $(headers_packages "$rel" "$ver")"
	echo "  FETCH   $pkgs ($ver)" >&2
	rm -rf "$dir"
	mkdir -p "$dir/debs"
	tmp=$dir/debs
	for p in $pkgs; do
		# every package of one kernel build carries the same version
		(cd "$tmp" && apt-get download -q "$p=$ver" >/dev/null 2>&1) ||
			(cd "$tmp" && apt-get update -qq >/dev/null 2>&1 &&
				apt-get download -q "$p=$ver" >/dev/null) ||
			die "apt-get download $p=$ver failed"
	done
	for p in "$tmp"/*.deb; do
		dpkg-deb -x "$p" "$dir/root"
	done
	rm -rf "$tmp"
	# The headers' Makefile includes the common part by its absolute
	# path; point it at the unpacked copy.
	sed -i "s|^include /usr/src/|include $dir/root/usr/src/|" \
		"$dir/root/usr/src/linux-headers-$rel/Makefile"
	[ -f "$dir/root/boot/vmlinuz-$rel" ] || die "no /boot/vmlinuz-$rel in linux-image-$rel"
	# the package leaves modules.dep to its postinst
	depmod -b "$dir/root" "$rel"
	echo "$ver" >"$dir/.unpacked"
}

# debian-7.2: the split packages, from testing, into $dir/root, once per
# version; modules.dep made for the module closure below.
unpack_testing() {
	local rel=$1 ver=$2 dir=$3 p deb
	[ -f "$dir/.unpacked" ] && [ "$(cat "$dir/.unpacked")" = "$ver" ] && return 0
	echo "  FETCH   linux-{binary,modules,base,headers}-$rel ($ver, Debian testing)" >&2
	rm -rf "$dir"
	mkdir -p "$dir"
	for p in binary modules base headers; do
		deb=$(testing_apt download "linux-$p-$rel" "$cache/downloads") || exit 1
		[ "$(dpkg-deb -f "$deb" Version)" = "$ver" ] ||
			die "linux-$p-$rel is not version $ver in Debian testing"
		dpkg-deb -x "$deb" "$dir/root"
	done
	[ -f "$dir/root/usr/lib/modules/$rel/vmlinuz" ] || die "no vmlinuz in linux-binary-$rel"
	[ -f "$dir/root/usr/lib/modules/$rel/config" ] || die "no config in linux-base-$rel"
	[ -f "$dir/root/usr/src/linux-headers-$rel/Module.symvers" ] ||
		die "no Module.symvers in linux-headers-$rel"
	depmod -b "$dir/root/usr" "$rel"
	echo "$ver" >"$dir/.unpacked"
}

# debian-7.2: deadline-rb from Debian's linux-source-7.2 of the kernel's own
# version, configured as the kernel was, into $out.
source_build() {
	local rel=$1 ver=$2 dir=$3 out=$4 version key ksrc kb src want got
	version=$("$top/scripts/version.sh")
	key=$( (echo "$version"; cat "$top"/kernel/Kbuild "$top"/kernel/*.mk "$top"/kernel/*.[ch] \
		"$dir/.unpacked") | sha256sum | cut -c1-12)
	if [ -f "$out/.built" ] && [ "$(cat "$out/.built")" = "$key" ]; then
		return 0
	fi
	rm -rf "$out"
	ksrc=$(KERNEL=7.2 "$top/scripts/kernel.sh" unpack) || die "linux-source-7.2: none unpacked"
	[ "$(cat "$ksrc/.dlrb-version")" = "$ver" ] ||
		die "kernel $rel is Debian $ver but linux-source-7.2 is $(cat "$ksrc/.dlrb-version"): run 'make deps KERNEL=7.2'"
	kb=$dir/kbuild
	if [ ! -f "$kb/.prepared" ]; then
		echo "  PREPARE linux-source-7.2 as $rel (its config and Module.symvers)" >&2
		rm -rf "$kb"
		mkdir -p "$kb"
		cp "$dir/root/usr/lib/modules/$rel/config" "$kb/.config"
		make -s -C "$ksrc" O="$kb" KERNELRELEASE="$rel" olddefconfig >/dev/null &&
			make -s -C "$ksrc" O="$kb" KERNELRELEASE="$rel" -j"$(nproc)" modules_prepare \
				>"$kb.log" 2>&1 || { sed 's/^/  | /' "$kb.log" >&2; die "preparing linux-source-7.2 for $rel failed"; }
		cp "$dir/root/usr/src/linux-headers-$rel/Module.symvers" "$kb/"
		touch "$kb/.prepared"
	fi
	src=$out.src
	rm -rf "$src"
	mkdir -p "$src"
	cp "$top"/kernel/Kbuild "$top"/kernel/*.mk "$top"/kernel/*.[ch] "$src/"
	echo "  MODULE  deadline-rb $version for $rel (linux-source-7.2)" >&2
	make -s -C "$kb" M="$src" KERNELRELEASE="$rel" DLRB_VERSION="$version" modules \
		>"$src.log" 2>&1 || { sed 's/^/  | /' "$src.log" >&2; die "building deadline-rb for $rel failed"; }
	want=$(modinfo -F vermagic "$(find "$dir/root/usr/lib/modules/$rel" -name 'null_blk.ko*' | head -n 1)")
	got=$(modinfo -F vermagic "$src/deadline-rb.ko")
	[ "$got" = "$want" ] || die "deadline-rb's vermagic '$got' is not $rel's '$want'"
	mkdir -p "$out"
	cp "$src/deadline-rb.ko" "$out/"
	cp "$src.log" "$out/build.log"
	rm -rf "$src" "$src.log"
	echo "$key" >"$out/.built"
}

# Debian's linux-source-X.Y of the same version supplies block/'s headers to
# the DKMS build (dist/dkms/dlrb-block-headers).  make deps keeps it at the
# archive's version, which is the stock kernel's; upgrading it here, in the
# middle of a make check, would re-key and rebuild the lab's kernels.
source_package() {
	local rel=$1 ver=$2 series pkg have
	series=$(echo "$rel" | sed 's/^\([0-9]*\.[0-9]*\).*/\1/')
	pkg=linux-source-$series
	have=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || true)
	[ "$have" = "$ver" ] ||
		die "kernel $rel is Debian $ver but $pkg is ${have:-not installed}: run 'make deps' (or apt-get install $pkg=$ver)"
}

# `dkms build` of deadline-rb against the unpacked headers; the module lands
# in $out, named by a hash of what it is built from, so a source change
# builds again and a failed build leaves nothing that looks finished.
dkms_build() {
	local rel=$1 dir=$2 out=$3 version key tree kmod
	version=$("$top/scripts/version.sh")
	key=$( (echo "$version"; cat "$top"/kernel/Kbuild "$top"/kernel/*.mk "$top"/kernel/*.[ch] "$top"/dist/dkms/* \
		"$top/scripts/dkms-source.sh" "$dir/.unpacked") | sha256sum | cut -c1-12)
	if [ -f "$out/.built" ] && [ "$(cat "$out/.built")" = "$key" ]; then
		return 0
	fi
	rm -rf "$out"
	tree=$out.dkms
	rm -rf "$tree"
	mkdir -p "$tree/src/deadline-rb-$version" "$tree/dkms"
	"$top/scripts/dkms-source.sh" "$tree/src/deadline-rb-$version"
	echo "  DKMS    deadline-rb $version for $rel" >&2
	# Module signing is the administrator's own key (MOK); none is made
	# here, so nothing is written to /var/lib/dkms: sign_file names a
	# program that does not exist, and dkms leaves the module unsigned.
	if ! sign_file=/nonexistent/no-signing-in-tests dkms build \
		-m deadline-rb -v "$version" -k "$rel" \
		--dkmstree "$tree/dkms" --sourcetree "$tree/src" \
		--kernelsourcedir "$dir/root/usr/src/linux-headers-$rel" \
		>"$tree.log" 2>&1; then
		sed 's/^/  | /' "$tree.log" >&2
		find "$tree/dkms" -name make.log -exec tail -n 20 {} \; 2>/dev/null | sed 's/^/  | /' >&2
		die "dkms build for $rel failed"
	fi
	kmod=$(find "$tree/dkms/deadline-rb/$version/$rel" -name 'deadline-rb.ko*' | head -n 1)
	[ -n "$kmod" ] || die "dkms build left no deadline-rb.ko for $rel"
	mkdir -p "$out"
	case $kmod in
	*.xz) xz -dc "$kmod" >"$out/deadline-rb.ko" ;;
	*) cp "$kmod" "$out/deadline-rb.ko" ;;
	esac
	cp "$tree.log" "$out/dkms.log"
	rm -rf "$tree" "$tree.log"
	echo "$key" >"$out/.built"
}

# Every module in $@ with what it depends on, as paths from modules.dep;
# modules built into the kernel need nothing.
module_closure() {
	local mdir=$1
	shift
	awk -v want="$*" '
		FILENAME ~ /modules\.builtin$/ {
			n = $0; sub(/.*\//, "", n); sub(/\.ko$/, "", n)
			gsub(/-/, "_", n)
			builtin[n] = 1
			next
		}
		{
			path = $1; sub(/:$/, "", path)
			n = path; sub(/.*\//, "", n); sub(/\.ko(\.[a-z]+)?$/, "", n)
			gsub(/-/, "_", n)
			deps[path] = ""
			for (i = 2; i <= NF; i++) deps[path] = deps[path] " " $i
			byname[n] = path
		}
		function add(p,   d, k, a) {
			if (p in done) return
			done[p] = 1
			print p
			k = split(deps[p], a, " ")
			for (d = 1; d <= k; d++) add(a[d])
		}
		END {
			k = split(want, w, " ")
			for (i = 1; i <= k; i++) {
				n = w[i]; gsub(/-/, "_", n)
				if (n in byname) add(byname[n])
				else if (!(n in builtin)) missing = missing " " w[i]
			}
			if (missing != "") { print "missing:" missing > "/dev/stderr"; exit 1 }
		}' "$mdir/modules.builtin" "$mdir/modules.dep"
}

# The guest's module tree: the closure of $guest_modules, uncompressed.
stage() {
	local rel=$1 dir=$2 mod=$3 stage=$4 mdir p paths series vmlinuz
	series=$(echo "$rel" | sed 's/^\([0-9]*\.[0-9]*\).*/\1/')
	mdir=$dir/root/lib/modules/$rel
	vmlinuz=$dir/root/boot/vmlinuz-$rel
	# merged /usr, and vmlinuz beside the modules (7.2's packages)
	if [ -f "$dir/root/usr/lib/modules/$rel/vmlinuz" ]; then
		mdir=$dir/root/usr/lib/modules/$rel
		vmlinuz=$mdir/vmlinuz
	fi
	# shellcheck disable=SC2086
	paths=$(module_closure "$mdir" $guest_modules) ||
		die "$rel lacks modules the guest needs"
	rm -rf "$stage"
	mkdir -p "$stage/lib/modules/$rel"
	for p in $paths; do
		mkdir -p "$stage/lib/modules/$rel/$(dirname "$p")"
		case $p in
		*.xz) xz -dc "$mdir/$p" >"$stage/lib/modules/$rel/${p%.xz}" ;;
		*) cp "$mdir/$p" "$stage/lib/modules/$rel/$p" ;;
		esac
	done
	cp "$mdir"/modules.builtin* "$mdir/modules.order" "$stage/lib/modules/$rel/"
	cp "$mod/deadline-rb.ko" "$stage/"
	cp "$vmlinuz" "$stage/vmlinuz"
	# those of the boot modules that this kernel has as modules
	for p in $boot_modules; do
		grep -q "/${p//_/[-_]}\.ko" "$mdir/modules.dep" && echo "$p"
	done >"$stage/boot-modules"
	echo "$rel" >"$stage/release"
	cc -O2 -o "$stage/gen_init_cpio" "$(KERNEL=$series "$top/scripts/kernel.sh" unpack)/usr/gen_init_cpio.c"
}

fetch() {
	local rel ver dir
	rel=$(resolve "$1") || exit 1
	read -r rel ver <<<"$rel"
	dir=$cache/debian/$rel
	if [ "$1" = debian-7.2 ]; then
		unpack_testing "$rel" "$ver" "$dir"
		echo "$dir/root/usr/src/linux-headers-$rel"
		return
	fi
	unpack "$rel" "$ver" "$dir"
	source_package "$rel" "$ver"
	echo "$dir/root/usr/src/linux-headers-$rel"
}

prepare() {
	local name=$1 rel ver dir mod st
	rel=$(resolve "$name") || exit 1
	read -r rel ver <<<"$rel"
	dir=$cache/debian/$rel
	mod=$top/build/module-$name-$rel
	if [ "$name" = debian-7.2 ]; then
		unpack_testing "$rel" "$ver" "$dir"
		source_build "$rel" "$ver" "$dir" "$mod"
	else
		unpack "$rel" "$ver" "$dir"
		source_package "$rel" "$ver"
		dkms_build "$rel" "$dir" "$mod"
	fi
	st=$top/build/stage-$name-$rel
	stage "$rel" "$dir" "$mod" "$st"
	echo "$st"
}

# one at a time: two unpacks or DKMS builds of one kernel would clash
mkdir -p "$cache/debian"
exec 8>"$cache/debian/.lock"
flock 8

case ${2:-} in
debian-6.1|debian-6.12|debian-7.2) ;;
*) echo "$prog: unknown kernel '${2:-}' (debian-6.1, debian-6.12 or debian-7.2)" >&2; exit 2 ;;
esac

case ${1:-} in
resolve) resolve "${2:?NAME}" ;;
fetch) fetch "${2:?NAME}" ;;
prepare) prepare "${2:?NAME}" ;;
*) echo "usage: $prog resolve|fetch|prepare debian-6.1|debian-6.12|debian-7.2" >&2; exit 2 ;;
esac
