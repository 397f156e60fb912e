// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench --live: the frames. The capture found (next to the binary
 * too), its frames loaded and parsed natively, those a live-frames test run
 * refuses left out, and the rest written into bench_live_frames, the
 * generator's map.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/bpf.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench.skel.h"
#include "bench/live.h"
#include "lib/log.h"
#include "native.h"

/* A default capture found next to the binary too (build/dynpf, ../pcap-tests/). */
void lv_capture_path(const char *given, char *out, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n;

	snprintf(out, len, "%s", given ? given : BENCH_LIVE_CAPTURE_DEFAULT);
	if (given || access(out, R_OK) == 0)
		return;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return;
	exe[n] = 0;
	*strrchr(exe, '/') = 0;
	if ((size_t)snprintf(out, len, "%s/../%s", exe, BENCH_LIVE_CAPTURE_DEFAULT) >= len ||
	    access(out, R_OK))
		snprintf(out, len, "%s", BENCH_LIVE_CAPTURE_DEFAULT);
}

static int no_frames(const struct bench_live *res)
{
	p_err("bench --live: %s: no frame to send (%zu in the capture: %zu shorter than 14 "
	      "bytes, %zu longer than the MTU of %u allows, %zu refused by the live-frames test "
	      "run)",
	      res->capture, res->nframes_capture, res->skipped_short, res->skipped_long, LV_MTU,
	      res->skipped_refused);
	return -EINVAL;
}

/*
 * The frames to send: at least an Ethernet header, at most the MTU's frame
 * (4 bytes more with a VLAN tag), and taken by a live-frames test run.
 */
int lv_frames_load(struct lv_ctx *x, const char *path)
{
	struct bench_live *res = x->res;
	int err;

	err = dynpf_capture_load(path, &x->cap);
	if (err)
		return err;
	/* A capture cut short: its whole records are sent; the cut is said after the output. */
	snprintf(res->capture_end, sizeof(res->capture_end), "%s", x->cap.bad_end);
	res->nframes_capture = x->cap.n;
	x->frames = calloc(x->cap.n ? x->cap.n : 1, sizeof(*x->frames));
	x->parsed = calloc(x->cap.n ? x->cap.n : 1, sizeof(*x->parsed));
	if (!x->frames || !x->parsed)
		return -ENOMEM;
	for (size_t i = 0; i < x->cap.n; i++) {
		const struct dynpf_frame *f = &x->cap.frames[i];
		uint16_t tpid = f->len >= 14 ? f->data[12] << 8 | f->data[13] : 0;
		uint32_t max = LV_MTU + 14 + (tpid == 0x8100 || tpid == 0x88a8 ? 4 : 0);

		if (f->len < 14) {
			res->skipped_short++;
			continue;
		}
		if (f->len > max) {
			res->skipped_long++;
			continue;
		}
		if (res->nframes == LV_MAX_FRAMES) {
			res->skipped_many++;
			continue;
		}
		x->frames[res->nframes].data = f->data;
		x->frames[res->nframes].len = f->len;
		dynpf_parse_native(f->data, f->len, &x->parsed[res->nframes], NULL);
		res->nframes++;
	}
	return res->nframes ? 0 : no_frames(res);
}

/*
 * Whether this kernel runs XDP test runs with live frames at all: the
 * baseline receiver (XDP_DROP) once over a zeroed frame on the loopback's
 * queue, which sends nothing. A kernel may refuse the flag for every program
 * (EPERM on a locked-down 6.18; EINVAL before 5.18), and then the generator
 * has no way to send: res->unavailable says so, and nothing is set up.
 */
int lv_live_probe(struct lv_ctx *x)
{
	uint8_t frame[64] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = frame, .data_size_in = sizeof(frame),
		    .repeat = 1, .flags = BPF_F_TEST_XDP_LIVE_FRAMES);
	int err;

	if (!bpf_prog_test_run_opts(bpf_program__fd(x->ref->progs.bench_live_drop), &o))
		return 0;
	err = -errno;
	snprintf(x->res->unavailable, sizeof(x->res->unavailable),
		 "this kernel refuses BPF_PROG_TEST_RUN with BPF_F_TEST_XDP_LIVE_FRAMES "
		 "(%s), even for a program that only returns XDP_DROP: the generator has no "
		 "way to send, so nothing can be measured on the wire here",
		 strerror(-err));
	return -EOPNOTSUPP;
}

/*
 * Each frame once through the generator, into the void: the links are
 * down, so nothing is sent (veth refuses), but the kernel checks the
 * frame. Refused frames are dropped from the list.
 */
int lv_frames_check(struct lv_ctx *x)
{
	struct bench_live *res = x->res;
	int prog = bpf_program__fd(x->ref->progs.bench_live_tx), saved, err;
	size_t k = 0;

	err = dynpf_netns_enter(x->tb.tx_ns, &saved);
	if (err)
		return err;
	for (size_t i = 0; i < res->nframes; i++) {
		struct xdp_md ctx = { .data_end = x->frames[i].len,
				      .ingress_ifindex = x->tb.tx_ifindex };
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = x->frames[i].data,
			    .data_size_in = x->frames[i].len, .ctx_in = &ctx,
			    .ctx_size_in = sizeof(ctx), .repeat = 1,
			    .flags = BPF_F_TEST_XDP_LIVE_FRAMES);

		if (bpf_prog_test_run_opts(prog, &o)) {
			err = -errno;
			if (err != -EINVAL)
				break;
			res->skipped_refused++;
			err = 0;
			continue;
		}
		x->frames[k] = x->frames[i];
		x->parsed[k] = x->parsed[i];
		k++;
	}
	dynpf_netns_leave(&saved);
	if (err) {
		p_err("bench --live: BPF_PROG_TEST_RUN with BPF_F_TEST_XDP_LIVE_FRAMES failed: %s",
		      strerror(-err));
		return err;
	}
	res->nframes = k;
	for (size_t i = 0; i < k; i++)
		res->frame_bytes += x->frames[i].len;
	return k ? 0 : no_frames(res);
}

/* The generator's frames: value i of bench_live_frames is frame i. */
struct lv_frame_val {
	uint32_t len;
	uint8_t data[LV_FRAME_MAX];
};

int lv_frames_fill(struct lv_ctx *x)
{
	const struct bpf_map *m = x->ref->maps.bench_live_frames;
	struct lv_frame_val v;

	if (bpf_map__value_size(m) != sizeof(v)) {
		p_err("bench --live: bench_live_frames has values of %u bytes, not %zu",
		      bpf_map__value_size(m), sizeof(v));
		return -EPROTO;
	}
	for (uint32_t i = 0; i < x->res->nframes; i++) {
		memset(&v, 0, sizeof(v));
		v.len = x->frames[i].len;
		memcpy(v.data, x->frames[i].data, v.len);
		if (bpf_map__update_elem(m, &i, sizeof(i), &v, sizeof(v), BPF_ANY)) {
			int err = -errno;

			p_err("bench --live: cannot write frame %u into bench_live_frames: %s", i,
			      strerror(-err));
			return err;
		}
	}
	x->ref->bss->bench_live_next = 0;
	x->ref->bss->bench_live_nframes = x->res->nframes;
	return 0;
}
