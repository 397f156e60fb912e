// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* EXPECT: cannot write into rdonly_mem */
/* Cursor slices are read-only: casting the const away does not help. */
#include "common.h"

SEC("xdp")
int write_slice(struct xdp_md *ctx)
{
	struct bpf_dynptr dp;
	struct dynpf_cursor c;
	struct dynpf_ethhdr buf;
	struct dynpf_ethhdr *eth;

	bpf_dynptr_from_xdp(ctx, 0, &dp);
	dynpf_cur_init(&c, &dp, NULL, DYNPF_PARSE_CFG_DEFAULT);
	eth = (struct dynpf_ethhdr *)dynpf_cur_slice(&c, 0, &buf);
	if (!eth)
		return XDP_PASS;
	eth->dst[0] = 0xff;
	return XDP_PASS;
}
