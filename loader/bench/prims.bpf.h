/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The dynptr primitives (bench.bpf.c): bench_prim_*, the dynptr building
 * blocks one at a time (constructor, slice, clone, clone + adjust, read), for
 * the primitives table of `dynpf bench`.
 *
 * One program per dynptr building block and hook. Each builds its dynptr as
 * dynpf's entry points do, then makes BENCH_PRIM_N calls of one primitive,
 * unrolled; "ctor" makes none. The loader times them in the same interleaved
 * runs as the empty program, and takes
 *
 *	constructor   = t(ctor) - t(empty)
 *	ns per call   = (t(prim) - t(ctor)) / BENCH_PRIM_N
 *
 * clang cannot drop or merge the calls (kfuncs and helpers are opaque to it,
 * and every result is used: a byte of every slice and read is summed into
 * bench_prim_sink, every return value is tested). A failure (no dynptr, a
 * NULL slice, a failed clone, adjust or read) returns the hook's failure
 * value instead of its pass value, and the loader then refuses the figure:
 * a primitive that did not run is never timed.
 *
 * Every call reads the same BENCH_PRIM_LEN bytes at BENCH_PRIM_OFF (the IPv4
 * header of the bench packet): the cost of the call, not of the bytes.
 */
#ifndef DYNPF_BENCH_PRIMS_BPF_H
#define DYNPF_BENCH_PRIMS_BPF_H

#define BENCH_PRIM_N 16
#define BENCH_PRIM_OFF 14
#define BENCH_PRIM_LEN 20

#define BENCH_TC_SHOT 2 /* TC_ACT_SHOT: a primitive failed */

/* Read by the loader (the skeleton's rodata): its divisor and its labels. */
const volatile __u32 bench_prim_calls = BENCH_PRIM_N;
const volatile __u32 bench_prim_off = BENCH_PRIM_OFF;
const volatile __u32 bench_prim_len = BENCH_PRIM_LEN;

/* Where the results go, so that none can be optimised away. */
__u64 bench_prim_sink;

static __always_inline int prim_ctor(const struct bpf_dynptr *dp, __u64 *sum)
{
	return 0;
}

/* A slice with a buffer, as the cursor takes them (dynpf_cur_slice()). */
static __always_inline int prim_slice(const struct bpf_dynptr *dp, __u64 *sum)
{
	__u8 buf[BENCH_PRIM_LEN];
	const __u8 *p;

#pragma clang loop unroll(full)
	for (int i = 0; i < BENCH_PRIM_N; i++) {
		p = bpf_dynptr_slice(dp, BENCH_PRIM_OFF, buf, sizeof(buf));
		if (!p)
			return -1;
		*sum += p[i % BENCH_PRIM_LEN];
	}
	return 0;
}

/*
 * Clones, as dynpf_layer_step() makes one per rare layer; with adjust, each
 * a bounded view: a clone ending exactly at a header's end.
 */
static __always_inline int prim_clones(const struct bpf_dynptr *dp, const int adjust)
{
	struct bpf_dynptr v;

#pragma clang loop unroll(full)
	for (int i = 0; i < BENCH_PRIM_N; i++) {
		if (bpf_dynptr_clone(dp, &v) ||
		    (adjust &&
		     bpf_dynptr_adjust(&v, BENCH_PRIM_OFF, BENCH_PRIM_OFF + BENCH_PRIM_LEN)))
			return -1;
	}
	return 0;
}

static __always_inline int prim_clone(const struct bpf_dynptr *dp, __u64 *sum)
{
	return prim_clones(dp, 0);
}

static __always_inline int prim_clone_adjust(const struct bpf_dynptr *dp, __u64 *sum)
{
	return prim_clones(dp, 1);
}

/* A copy, as dynpf_cur_fetch_area() makes of long option areas. */
static __always_inline int prim_read(const struct bpf_dynptr *dp, __u64 *sum)
{
	__u8 buf[BENCH_PRIM_LEN];

#pragma clang loop unroll(full)
	for (int i = 0; i < BENCH_PRIM_N; i++) {
		if (bpf_dynptr_read(buf, sizeof(buf), dp, BENCH_PRIM_OFF, 0))
			return -1;
		*sum += buf[i % BENCH_PRIM_LEN];
	}
	return 0;
}

/*
 * One program: its dynptr built by ctor from its context arg, then the
 * primitive's calls; fail if either fails, else pass.
 */
#define BENCH_PRIM_PROG(sec, prog, name, ctype, arg, ctor, fail, pass) \
	SEC(sec)                                                       \
	int prog(ctype *arg)                                           \
	{                                                              \
		struct bpf_dynptr dp;                                  \
		__u64 sum = 0;                                         \
                                                                       \
		if (ctor(arg, 0, &dp) || prim_##name(&dp, &sum))       \
			return fail;                                   \
		bench_prim_sink = sum;                                 \
		return pass;                                           \
	}

/* The three hooks' programs for one primitive: bench_prim_NAME_{xdp,xdp_frags,tc}. */
#define BENCH_PRIM_PROGS(name)                                                                \
	BENCH_PRIM_PROG("xdp", bench_prim_##name##_xdp, name, struct xdp_md, ctx,             \
			bpf_dynptr_from_xdp, XDP_ABORTED, XDP_PASS)                           \
	BENCH_PRIM_PROG("xdp.frags", bench_prim_##name##_xdp_frags, name, struct xdp_md, ctx, \
			bpf_dynptr_from_xdp, XDP_ABORTED, XDP_PASS)                           \
	BENCH_PRIM_PROG("tc", bench_prim_##name##_tc, name, struct __sk_buff, skb,            \
			bpf_dynptr_from_skb, BENCH_TC_SHOT, BENCH_TC_NEXT)

BENCH_PRIM_PROGS(ctor)
BENCH_PRIM_PROGS(slice)
BENCH_PRIM_PROGS(clone)
BENCH_PRIM_PROGS(clone_adjust)
BENCH_PRIM_PROGS(read)

#endif
