/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The on-the-wire programs of `dynpf bench --live` (bench.bpf.c): the
 * traffic generator bench_live_tx and the baseline receiver bench_live_drop.
 */
#ifndef DYNPF_BENCH_LIVE_BPF_H
#define DYNPF_BENCH_LIVE_BPF_H

/*
 * The traffic generator. Run with BPF_PROG_TEST_RUN and
 * BPF_F_TEST_XDP_LIVE_FRAMES, its ctx's ingress_ifindex the sending end of
 * the test bed's veth pair: the kernel turns XDP_TX into a redirect out of
 * that device (ndo_xdp_xmit), so every repetition is a frame the veth puts
 * on its peer's ring, where the program under test runs.
 *
 * Every repetition becomes the next frame of bench_live_frames, in turn
 * (its length set with bpf_xdp_adjust_tail(), its bytes written whole: the
 * test run recycles its pages, and nothing is assumed of what a page still
 * holds). One test run thus sends the whole capture, over and over: a test
 * run whose frames reached the peer took 16 to 28 ms here however few it
 * sent, too much to pay per frame. With bench_live_nframes 0 the frame of
 * the test run goes out as it is.
 */
#define BENCH_LIVE_FRAME_MAX 1520 /* MTU 1500, Ethernet header and a VLAN tag */

struct bench_live_frame {
	__u32 len;
	__u8 data[BENCH_LIVE_FRAME_MAX];
};

/* Sized by the loader to the frames it sends. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bench_live_frame);
} bench_live_frames SEC(".maps");

__u32 bench_live_nframes; /* 0: send the test run's frame as it is */
__u32 bench_live_next;    /* the next frame: one sender at a time */
__u64 bench_live_sent;    /* frames handed to XDP_TX */

SEC("xdp")
int bench_live_tx(struct xdp_md *ctx)
{
	__u32 i = bench_live_next, n = bench_live_nframes, len, cur;
	struct bench_live_frame *f;

	if (n) {
		if (i >= n)
			i = 0;
		bench_live_next = i + 1;
		f = bpf_map_lookup_elem(&bench_live_frames, &i);
		if (!f)
			return XDP_ABORTED;
		len = f->len;
		if (len < 14 || len > BENCH_LIVE_FRAME_MAX)
			return XDP_ABORTED;
		cur = ctx->data_end - ctx->data;
		if (len != cur && bpf_xdp_adjust_tail(ctx, (int)len - (int)cur))
			return XDP_ABORTED;
		if (bpf_xdp_store_bytes(ctx, 0, f->data, len))
			return XDP_ABORTED;
	}
	bench_live_sent++;
	return XDP_TX;
}

/* Frames bench_live_drop saw, per CPU: its received rate. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} bench_live_rx SEC(".maps");

/* The baseline receiver: counts the frame and drops it, nothing else. */
SEC("xdp")
int bench_live_drop(struct xdp_md *ctx)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&bench_live_rx, &zero);

	if (n)
		(*n)++;
	return XDP_DROP;
}

#endif
