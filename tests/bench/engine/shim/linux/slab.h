/* SPDX-License-Identifier: GPL-2.0 */
/* kvcalloc/kvfree for the engine on the host: plain libc. */
#ifndef _SHIM_SLAB_H
#define _SHIM_SLAB_H

#include <stdlib.h>

#define GFP_KERNEL	0
#define kvcalloc(n, size, gfp)	calloc(n, size)
#define kvfree(p)		free(p)

#endif
