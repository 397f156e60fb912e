// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* EXPECT: invalid access to memory, mem_size=14 off=20 size=1 */
/* A slice is exactly as long as asked for: reading past it is refused. */
#include "common.h"

SEC("xdp")
int past_end(struct xdp_md *ctx)
{
	struct bpf_dynptr dp;
	struct dynpf_cursor c;
	struct dynpf_ethhdr buf;
	const __u8 *h;

	bpf_dynptr_from_xdp(ctx, 0, &dp);
	dynpf_cur_init(&c, &dp, NULL, DYNPF_PARSE_CFG_DEFAULT);
	h = (const __u8 *)dynpf_cur_slice(&c, 0, &buf);
	if (!h)
		return XDP_PASS;
	return h[20];
}
