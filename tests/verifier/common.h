/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Verifier-negative tests: each program here misuses the cursor API and
 * must be rejected by the verifier with the message in its EXPECT line.
 * tests/run.sh loads each one with build/test_verifier.
 */
#include "dynpf/pkt.h"
#include "cursor.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* The cursor's window and scratch area, as dynpf.bpf.c has them. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dynpf_area);
} test_area SEC(".maps");

/*
 * A cursor c over the packet of ctx (its dynptr in dp), as dynpf_run() makes
 * one: its area, or NULL.
 */
static __always_inline struct dynpf_area *test_cursor(struct xdp_md *ctx, struct bpf_dynptr *dp,
						      struct dynpf_cursor *c)
{
	struct dynpf_area *area;
	__u32 zero = 0;

	area = bpf_map_lookup_elem(&test_area, &zero);
	if (!area)
		return NULL;
	bpf_dynptr_from_xdp(ctx, 0, dp);
	dynpf_cur_init(c, dp, area, DYNPF_PARSE_CFG_DEFAULT, bpf_dynptr_size(dp),
		       (const __u8 *)(long)ctx->data, (const __u8 *)(long)ctx->data_end, ctx);
	return area;
}
