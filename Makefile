# SPDX-License-Identifier: GPL-2.0
#
# deadline-rb: the one entry point.  `make help` lists the targets.

# Variables a person may override
KERNEL     ?= 6.1#                   guest kernel series: 6.1, 6.12 or 7.2
FLAVOUR    ?= release#               guest kernel flavour: release or debug
DLRB_CACHE ?= $(HOME)/.cache/deadline-rb#  kernel source and builds
QEMU_ACCEL ?= tcg#                   tcg (default) or kvm (opt-in)
PREFIX     ?= /usr/local#            make install: where dlctl and the pages go
DESTDIR    ?=#                       make install: staging root
UDEVRULESDIR ?= $(PREFIX)/lib/udev/rules.d#  make install: the udev rule
SYSCONFDIR ?= /etc#                  make install: dlctl.d/ and its README
export KERNEL DLRB_CACHE QEMU_ACCEL

ifeq ($(filter $(KERNEL),6.1 6.12 7.2),)
$(error unknown KERNEL '$(KERNEL)': the lab builds 6.1, 6.12 or 7.2)
endif

VERSION := $(shell scripts/version.sh)
CC      ?= cc
CFLAGS  ?= -O2
DLCTL_CFLAGS = -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -pthread \
	-DDLCTL_VERSION='"$(VERSION)"' $(CFLAGS)
DLCTL_SRC = $(wildcard cli/*.c)
DLCTL_DEP = $(DLCTL_SRC) $(wildcard cli/*.h) CHANGELOG
# libsmartcols: Debian ships it as a shared library only, so dlctl is linked
# dynamically everywhere, and the initramfs carries the library (ldd)
DLCTL_LIBS = -lsmartcols
# the test builds alone have the hooks tests/host/dlctl.sh drives
DLCTL_TEST = -DDLCTL_TEST_HOOKS

BUILD   := build
# make 4.3's $(shell) sees neither `export` nor command-line variables: pass it
KBUILD   = $(shell KERNEL=$(KERNEL) scripts/kernel.sh dir $(FLAVOUR))
CPIO     = $(BUILD)/initramfs-$(KERNEL)-$(FLAVOUR).cpio
# named after the kernel build, so a rebuilt kernel never meets stale objects
MODDIR   = $(BUILD)/module-$(notdir $(KBUILD))
# fifo-floor: a one-list FIFO elevator, the yardstick of tests and benchmarks
FIFODIR  = $(BUILD)/fifo-floor-$(notdir $(KBUILD))
HDDDIR   = $(BUILD)/hdd-$(notdir $(KBUILD))

.PHONY: help deps kernel module dlctl initramfs run check check-stress boot-count bench deb install \
	clean distclean

help:
	@echo 'deadline-rb targets:'
	@echo '  make run          boot the release guest: a shell on a terminal, else print and power off'
	@echo '  make check        every test tier on 6.1, 6.12, 7.2 (debug and Debian stock kernels); ends with "N passed, N failed"'
	@echo '  make check-stress every guest tier of check on $$(STRESS_KERNEL), 5 rounds beside a CPU hog, 1 quiet'
	@echo '  make boot-count   $$(BOOTS) early boots of each debug kernel, loaded and quiet: splats counted'
	@echo '  make bench        benchmarks (not tests): engine on the host, schedulers in the guest -> results/'
	@echo '  make deps         install missing Debian packages (prints the command when not root)'
	@echo '  make kernel       unpack linux-source-$$(KERNEL) and build the $$(FLAVOUR) guest kernel'
	@echo '  make module       build deadline-rb.ko (and its KUnit suite on debug) with W=1'
	@echo '  make dlctl        build the admin tool: build/dlctl'
	@echo '  make initramfs    build the busybox initramfs for $$(FLAVOUR)'
	@echo '  make deb          Debian packages deadline-rb-dkms and dlctl into build/deb/'
	@echo '  make install      install dlctl, its man pages, bash completion and udev rule under $$(DESTDIR)$$(PREFIX)'
	@echo '  make clean        remove build/ (logs, initramfs); distclean also the kernel cache'
	@echo 'variables:'
	@echo '  KERNEL=$(KERNEL)  FLAVOUR=$(FLAVOUR)  DLRB_CACHE=$(DLRB_CACHE)  QEMU_ACCEL=$(QEMU_ACCEL)'
	@echo '  PREFIX=$(PREFIX)  DESTDIR=$(DESTDIR)  CC=$(CC)  CFLAGS=$(CFLAGS)'
	@echo 'run a script in the guest:  tests/vm run [--kernel K] [--debug] SCRIPT [ARGS]'

deps:
	@scripts/deps.sh

kernel: deps
	@KERNEL=$(KERNEL) scripts/kernel.sh build $(FLAVOUR)

# The kernel's directory is named by a hash of its fragments: a changed
# fragment names a new directory, whose .built does not exist yet.
$(KBUILD)/.built:
	@scripts/deps.sh
	@KERNEL=$(KERNEL) scripts/kernel.sh build $(FLAVOUR)

# Out of tree, against the guest kernel's build; the sources are linked into
# a directory per kernel build so that every build's objects can coexist.
module: $(KBUILD)/.built
	@mkdir -p $(MODDIR)
	@for f in kernel/Kbuild kernel/*.mk kernel/*.[ch]; do ln -sf $(CURDIR)/$$f $(MODDIR)/; done
	@$(MAKE) -s -C $(KBUILD) M=$(CURDIR)/$(MODDIR) W=1 DLRB_VERSION=$(VERSION) modules
	@mkdir -p $(FIFODIR)
	@for f in tests/bench/fifo/Kbuild tests/bench/fifo/fifo-floor.c kernel/dlrb-compat.[hm]*; do \
		ln -sf $(CURDIR)/$$f $(FIFODIR)/; done
	@$(MAKE) -s -C $(KBUILD) M=$(CURDIR)/$(FIFODIR) W=1 modules
	@mkdir -p $(HDDDIR)
	@for f in tests/hdd/Kbuild tests/hdd/dlrb-hdd.c kernel/dlrb-compat.[hm]*; do ln -sf $(CURDIR)/$$f $(HDDDIR)/; done
	@$(MAKE) -s -C $(KBUILD) M=$(CURDIR)/$(HDDDIR) W=1 modules

# dlctl: the release build; with sanitizers and plain -g, and the test
# hooks, for tests.
dlctl: $(BUILD)/dlctl

$(BUILD)/dlctl: $(DLCTL_DEP)
	@mkdir -p $(BUILD)
	$(CC) $(DLCTL_CFLAGS) $(LDFLAGS) -o $@ $(DLCTL_SRC) $(DLCTL_LIBS)

$(BUILD)/dlctl-asan: $(DLCTL_DEP)
	@mkdir -p $(BUILD)
	$(CC) $(DLCTL_CFLAGS) $(DLCTL_TEST) -g -O1 -fno-omit-frame-pointer \
		-fsanitize=address,undefined -fno-sanitize-recover=all -o $@ $(DLCTL_SRC) \
		$(DLCTL_LIBS)

$(BUILD)/dlctl-debug: $(DLCTL_DEP)
	@mkdir -p $(BUILD)
	$(CC) $(DLCTL_CFLAGS) $(DLCTL_TEST) -g -O0 -o $@ $(DLCTL_SRC) $(DLCTL_LIBS)

initramfs: $(CPIO)

$(CPIO): module $(BUILD)/dlctl initramfs/build.sh initramfs/init initramfs/files.list \
		scripts/fio.sh scripts/udev.sh dist/udev/60-dlctl.rules $(wildcard tests/guest/*)
	@initramfs/build.sh $(KBUILD)/usr/gen_init_cpio $(KBUILD)/modroot $@ $(MODDIR)/*.ko \
		$(FIFODIR)/fifo-floor.ko $(HDDDIR)/dlrb-hdd.ko

run: deps
	@tests/vm shell

check: deps
	@tests/check.sh

# Not part of check: is check free of luck?  tests/stress.sh says how.
STRESS_KERNEL ?= 6.1
STRESS_ROUNDS ?= 5
BOOTS ?= 100
check-stress: deps
	@STRESS_KERNEL=$(STRESS_KERNEL) tests/stress.sh tiers $(STRESS_ROUNDS)

boot-count: deps
	@tests/stress.sh boots $(BOOTS)

# Not part of check: measurements, written to results/ (and README.md's headline figures).
bench: deps
	@tests/bench/run.sh

# Debian packages into build/deb/: deadline-rb-dkms (all) and dlctl (amd64).
deb: deps
	@scripts/deb.sh

install: $(BUILD)/dlctl
	install -D -m 755 $(BUILD)/dlctl $(DESTDIR)$(PREFIX)/bin/dlctl
	install -D -m 644 man/dlctl.8 $(DESTDIR)$(PREFIX)/share/man/man8/dlctl.8
	install -D -m 644 man/deadline-rb.4 $(DESTDIR)$(PREFIX)/share/man/man4/deadline-rb.4
	install -D -m 644 man/dlctl.conf.5 $(DESTDIR)$(PREFIX)/share/man/man5/dlctl.conf.5
	install -D -m 644 dist/bash-completion/dlctl \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/dlctl
	install -d $(DESTDIR)$(UDEVRULESDIR)
	sed 's|@BINDIR@|$(PREFIX)/bin|' dist/udev/60-dlctl.rules \
		>$(DESTDIR)$(UDEVRULESDIR)/60-dlctl.rules
	install -D -m 644 dist/dlctl.d/README $(DESTDIR)$(SYSCONFDIR)/dlctl.d/README

clean:
	rm -rf $(BUILD)

distclean: clean
	rm -rf $(DLRB_CACHE)
