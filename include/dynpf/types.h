/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Fixed-width types for headers shared by BPF and user space.
 *
 * The BPF build gets __u8..__u64 from the generated vmlinux.h; user space
 * gets them from the kernel's uapi headers. Nothing else may differ.
 */
#ifndef DYNPF_TYPES_H
#define DYNPF_TYPES_H

#if defined(__bpf__)
#include "vmlinux.h"
#else
#include <linux/types.h>
#endif

#define DYNPF_ASSERT_SIZE(type, size) \
	_Static_assert(sizeof(type) == (size), "ABI: sizeof(" #type ") changed")
#define DYNPF_ASSERT_OFF(type, member, off)                       \
	_Static_assert(__builtin_offsetof(type, member) == (off), \
		       "ABI: offsetof(" #type ", " #member ") changed")

#endif /* DYNPF_TYPES_H */
