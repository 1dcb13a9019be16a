# SPDX-License-Identifier: GPL-2.0
# What dlrb-compat.h cannot tell from a symbol of the tree, read from the
# tree's own headers: a declaration, or what a comment promises.  Included
# by the Kbuild of each module that includes dlrb-compat.h.
DLRB_BLOCK ?= $(srctree)/block
# $(call dlrb_has,FILE,TEXT,MACRO): -DMACRO if FILE has the line TEXT
dlrb_has = $(shell grep -Fqs -- '$(2)' $(1) && echo -D$(3))

# What a shallow depth of the scheduler tags limits: the tree's
# <linux/sbitmap.h> says, at sbitmap_queue_get_shallow(), "from the queue"
# (the whole map) or "from a single word".  A tree that says neither has
# not been checked against this module.
dlrb_shallow_doc = $(shell grep -so 'shallow_depth: The maximum number of bits to allocate from [a-z ]*' \
		     $(srctree)/include/linux/sbitmap.h | tail -n 1 | sed 's/.* from //')
ifeq ($(dlrb_shallow_doc),the queue)
ccflags-y += -DDLRB_SHALLOW_WHOLE_MAP
else ifneq ($(dlrb_shallow_doc),a single word)
$(error deadline-rb: $(srctree)/include/linux/sbitmap.h does not say what a shallow depth limits)
endif

# The core allocates the elevator queue and hands it to init_sched.
dlrb_init_eq := int (*init_sched)(struct request_queue *, struct elevator_queue *);
ccflags-y += $(call dlrb_has,$(DLRB_BLOCK)/elevator.h,$(dlrb_init_eq),DLRB_ELV_QUEUE_FROM_CORE)
# depth_updated is called for the queue, not for each hctx.
dlrb_depth_q := void (*depth_updated)(struct request_queue *);
ccflags-y += $(call dlrb_has,$(DLRB_BLOCK)/elevator.h,$(dlrb_depth_q),DLRB_DEPTH_UPDATED_QUEUE)
# The queue has its own async_depth (queue/async_depth in sysfs).
ccflags-y += $(call dlrb_has,$(srctree)/include/linux/blkdev.h,async_depth;,DLRB_QUEUE_ASYNC_DEPTH)
# hrtimer_setup(), which replaced hrtimer_init() (the seek-modelled disk).
dlrb_hrtimer := void hrtimer_setup(struct hrtimer *timer,
ccflags-y += $(call dlrb_has,$(srctree)/include/linux/hrtimer.h,$(dlrb_hrtimer),DLRB_HRTIMER_SETUP)
