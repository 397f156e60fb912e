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

static __always_inline struct dynpf_area *test_area_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&test_area, &zero);
}
