/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The empty programs (bench.bpf.c): bench_empty_{xdp,xdp_frags,tc} return at
 * once. Their time is the floor of one BPF_PROG_TEST_RUN repetition (program
 * call, ctx setup, timer), which every figure of `dynpf bench` is set against.
 */
#ifndef DYNPF_BENCH_EMPTY_BPF_H
#define DYNPF_BENCH_EMPTY_BPF_H

SEC("xdp")
int bench_empty_xdp(struct xdp_md *ctx)
{
	return XDP_PASS;
}

SEC("xdp.frags")
int bench_empty_xdp_frags(struct xdp_md *ctx)
{
	return XDP_PASS;
}

SEC("tc")
int bench_empty_tc(struct __sk_buff *skb)
{
	return BENCH_TC_NEXT;
}

#endif
