# SPDX-License-Identifier: GPL-2.0
#
# deadline-rb: the one entry point.  `make help` lists the targets.

# Variables a person may override
FLAVOUR    ?= release#               guest kernel flavour: release or debug
DLRB_CACHE ?= $(HOME)/.cache/deadline-rb#  kernel source and builds
QEMU_ACCEL ?= tcg#                   tcg (default) or kvm (opt-in)
export DLRB_CACHE QEMU_ACCEL

BUILD   := build
KBUILD   = $(shell scripts/kernel.sh dir $(FLAVOUR))
CPIO     = $(BUILD)/initramfs-$(FLAVOUR).cpio
MODDIR   = $(BUILD)/module-$(FLAVOUR)

.PHONY: help deps kernel module initramfs run check clean distclean

help:
	@echo 'deadline-rb targets:'
	@echo '  make run          boot the release guest: a shell on a terminal, else print and power off'
	@echo '  make check        every test tier on the debug kernel; ends with "N passed, N failed"'
	@echo '  make deps         install missing Debian packages (prints the command when not root)'
	@echo '  make kernel       unpack linux-source-6.1 and build the $$(FLAVOUR) guest kernel'
	@echo '  make module       build deadline-rb.ko (and its KUnit suite on debug) with W=1'
	@echo '  make initramfs    build the busybox initramfs for $$(FLAVOUR)'
	@echo '  make clean        remove build/ (logs, initramfs); distclean also the kernel cache'
	@echo 'variables:'
	@echo '  FLAVOUR=$(FLAVOUR)  DLRB_CACHE=$(DLRB_CACHE)  QEMU_ACCEL=$(QEMU_ACCEL)'
	@echo 'run a script in the guest:  tests/vm run [--debug] SCRIPT [ARGS]'

deps:
	@scripts/deps.sh

kernel: deps
	@scripts/kernel.sh build $(FLAVOUR)

# The kernel's directory is named by a hash of its fragments: a changed
# fragment names a new directory, whose .built does not exist yet.
$(KBUILD)/.built:
	@scripts/deps.sh
	@scripts/kernel.sh build $(FLAVOUR)

# Out of tree, against the guest kernel's build; the sources are linked into
# a directory per flavour so that both flavours' objects can coexist.
module: $(KBUILD)/.built
	@mkdir -p $(MODDIR)
	@for f in kernel/Kbuild kernel/*.[ch]; do ln -sf $(CURDIR)/$$f $(MODDIR)/; done
	@$(MAKE) -s -C $(KBUILD) M=$(CURDIR)/$(MODDIR) W=1 modules

initramfs: $(CPIO)

$(CPIO): module initramfs/build.sh initramfs/init initramfs/files.list \
		$(wildcard tests/guest/*)
	@initramfs/build.sh $(KBUILD) $(MODDIR) $@

run: deps
	@tests/vm shell

check: deps
	@tests/check.sh

clean:
	rm -rf $(BUILD)

distclean: clean
	rm -rf $(DLRB_CACHE)
