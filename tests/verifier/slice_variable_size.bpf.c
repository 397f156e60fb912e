// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* EXPECT: memory, len pair leads to invalid memory access */
/*
 * bpf_dynptr_slice() needs a constant size: a length read from the packet
 * cannot size a slice (dynpf_cur_fetch_area() exists for that).
 */
#include "common.h"

SEC("xdp")
int variable_size(struct xdp_md *ctx)
{
	struct bpf_dynptr dp;
	__u8 buf[64] = {}, n;
	const __u8 *h;

	bpf_dynptr_from_xdp(ctx, 0, &dp);
	if (bpf_dynptr_read(&n, 1, &dp, 0, 0))
		return XDP_PASS;
	h = bpf_dynptr_slice(&dp, 0, buf, n);
	return h ? h[0] : XDP_PASS;
}
