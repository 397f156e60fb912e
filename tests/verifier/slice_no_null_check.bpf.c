// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* EXPECT: invalid mem access 'scalar' */
/* A header is NULL when the packet is too short: it must be checked. */
#include "common.h"

SEC("xdp")
int no_null_check(struct xdp_md *ctx)
{
	struct bpf_dynptr dp;
	struct dynpf_cursor c;
	struct dynpf_area *area = test_cursor(ctx, &dp, &c);
	const struct dynpf_ethhdr *eth;

	if (!area)
		return XDP_PASS;
	eth = dynpf_cur_slice(&c, 0, struct dynpf_ethhdr);
	/* Or clang, seeing the NULL path dereference, deletes that path. */
	dynpf_barrier_var(eth);
	return eth->proto == 8 ? XDP_DROP : XDP_PASS;
}
