/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SHIM_KUNIT_VISIBILITY_H
#define _SHIM_KUNIT_VISIBILITY_H
#define EXPORT_SYMBOL_IF_KUNIT(symbol)
#endif
