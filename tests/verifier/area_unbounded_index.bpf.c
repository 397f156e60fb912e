// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* EXPECT: unbounded memory access */
/*
 * The window and the option areas live in one per-CPU map value: an index
 * taken from the packet must be bounded (dynpf_area_ptr()) before it
 * indexes them.
 */
#include "common.h"

SEC("xdp")
int unbounded_index(struct xdp_md *ctx)
{
	struct bpf_dynptr dp;
	struct dynpf_cursor c;
	struct dynpf_area *area = test_cursor(ctx, &dp, &c);
	const struct dynpf_be32 *h;
	__u32 i;

	if (!area)
		return XDP_PASS;
	h = dynpf_cur_slice(&c, 14, struct dynpf_be32);
	if (!h)
		return XDP_PASS;
	i = h->v; /* any 32-bit value, from the packet */
	return area->b[i];
}
