// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* EXPECT: invalid mem access 'rdonly_mem_or_null' */
/* A slice is NULL when the packet is too short: it must be checked. */
#include "common.h"

SEC("xdp")
int no_null_check(struct xdp_md *ctx)
{
	struct bpf_dynptr dp;
	struct dynpf_cursor c;
	struct dynpf_ethhdr buf;
	const struct dynpf_ethhdr *eth;

	bpf_dynptr_from_xdp(ctx, 0, &dp);
	dynpf_cur_init(&c, &dp, NULL, DYNPF_PARSE_CFG_DEFAULT);
	eth = dynpf_cur_slice(&c, 0, &buf);
	return eth->proto == 8 ? XDP_DROP : XDP_PASS;
}
