/* SPDX-License-Identifier: GPL-2.0 */
/*
 * atomic_t's operations for the engine on the host (tools/include's
 * linux/types.h has the type): the benchmark has one thread.
 */
#ifndef _SHIM_ATOMIC_H
#define _SHIM_ATOMIC_H

#include <linux/types.h>

#define atomic_read(v)	((v)->counter)
#define atomic_inc(v)	((v)->counter++)
#define atomic_dec(v)	((v)->counter--)
#define atomic_dec_return(v)	(--(v)->counter)

#endif
