// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* EXPECT: invalid variable-offset read from stack */
/*
 * An option area is only valid for the buffer's size: an index taken from
 * the packet must go through dynpf_area_ptr(), not straight into the area.
 */
#include "common.h"

struct area {
	__u8 b[40];
};

SEC("xdp")
int unchecked_index(struct xdp_md *ctx)
{
	struct bpf_dynptr dp;
	struct dynpf_cursor c;
	struct area buf = {};
	const struct area *a;
	__u8 i;

	bpf_dynptr_from_xdp(ctx, 0, &dp);
	dynpf_cur_init(&c, &dp, NULL, DYNPF_PARSE_CFG_DEFAULT);
	a = dynpf_cur_area(&c, 14, 40, &buf);
	if (!a)
		return XDP_PASS;
	i = a->b[0]; /* 0..255, from the packet */
	return a->b[i];
}
