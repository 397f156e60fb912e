// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* EXPECT: invalid access to map value */
/*
 * A header points into the window, inside the scratch map value: reading
 * past that value is refused. (Past the header but inside the value is not:
 * the header's own length is the parser's to respect; the native build and
 * the differential tests check it.)
 */
#include "common.h"

SEC("xdp")
int past_area(struct xdp_md *ctx)
{
	struct bpf_dynptr dp;
	struct dynpf_cursor c;
	struct dynpf_area *area = test_cursor(ctx, &dp, &c);
	const __u8 *h;

	if (!area)
		return XDP_PASS;
	h = (const __u8 *)dynpf_cur_slice(&c, 0, struct dynpf_ethhdr);
	if (!h)
		return XDP_PASS;
	return h[sizeof(struct dynpf_area)];
}
