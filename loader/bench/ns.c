// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench: ns per packet per hook with BPF_PROG_TEST_RUN.
 *
 * Method. For every packet shape and hook (xdp, xdp-frags, tc) three
 * programs run the same packet:
 *
 *   empty   returns at once (loader/bench/empty.bpf.h): the floor of a test run;
 *   direct  the same headers parsed with direct packet access, into the
 *           same struct dynpf_pkt in a per-CPU map (loader/bench/direct.bpf.h);
 *   dynpf   the real programs (bpf/dynpf.bpf.c), opened and loaded with
 *           their defaults: trace off (rodata dynpf_trace_on = 0).
 *
 * One run is one BPF_PROG_TEST_RUN with `repeat` repetitions of the
 * program on one packet; the kernel reports in `duration` the mean ns per
 * repetition (program plus test-run loop). Runs of the three programs are
 * interleaved (empty, direct, dynpf, empty, ...) so drift hits them alike, and
 * the median of the runs is reported. The process is pinned to one CPU.
 *
 * Before timing, each shape is run once through direct and dynpf and their
 * results compared field by field (parity.c): the direct parser must do the
 * same work, or the ratio means nothing. A difference is reported, not hidden.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "bench.skel.h"
#include "bench/bench.h"
#include "dynpf/pkt.h" /* before the skeleton: it uses struct dynpf_parse_cfg */
#include "dynpf.skel.h"
#include "dynpf_lazy.skel.h"
#include "lib/log.h"
#include "lib/progs.h"

const char *const bench_variant_names[NVARIANTS] = { "empty", "direct", "dynpf" };

const struct bench_hook bench_hooks[BENCH_NHOOKS] = {
	{ "xdp", DYNPF_HOOK_XDP, DYNPF_XDP_TEST_LINEAR_MAX, 2 /* XDP_PASS */,
	  "xdp test-run buffs are linear, at most 3520 bytes" },
	{ "xdp-frags", DYNPF_HOOK_XDP_FRAGS, 0, 2 /* XDP_PASS */, NULL },
	/* The limit is found by trying: the kernel answers EINVAL. */
	{ "tc", DYNPF_HOOK_TC_INGRESS, 0, (uint32_t)-1 /* TC_ACT_UNSPEC */,
	  "tc test-run builds linear skbs of at most about 3.7 KB" },
};

void bench_find_progs(struct bench_ctx *b)
{
	struct bench_bpf *r = b->ref;
	const struct dynpf_lazy *l = &b->dynpf_lazy;
	/* No dynpf (--rules-only: the rule benchmarks load their own): -1. */
	const struct bpf_program *p[BENCH_NHOOKS][NVARIANTS] = {
		{ r->progs.bench_empty_xdp, r->progs.bench_direct_xdp,
		  dynpf_lazy_prog(l, DYNPF_HOOK_XDP) },
		{ r->progs.bench_empty_xdp_frags, r->progs.bench_direct_xdp_frags,
		  dynpf_lazy_prog(l, DYNPF_HOOK_XDP_FRAGS) },
		{ r->progs.bench_empty_tc, r->progs.bench_direct_tc,
		  dynpf_lazy_prog(l, DYNPF_HOOK_TC_INGRESS) },
	};

	const struct bpf_program *pp[BENCH_NHOOKS][NPRIMS] = {
		{ r->progs.bench_empty_xdp, r->progs.bench_prim_ctor_xdp,
		  r->progs.bench_prim_slice_xdp, r->progs.bench_prim_clone_xdp,
		  r->progs.bench_prim_clone_adjust_xdp, r->progs.bench_prim_read_xdp },
		{ r->progs.bench_empty_xdp_frags, r->progs.bench_prim_ctor_xdp_frags,
		  r->progs.bench_prim_slice_xdp_frags, r->progs.bench_prim_clone_xdp_frags,
		  r->progs.bench_prim_clone_adjust_xdp_frags, r->progs.bench_prim_read_xdp_frags },
		{ r->progs.bench_empty_tc, r->progs.bench_prim_ctor_tc,
		  r->progs.bench_prim_slice_tc, r->progs.bench_prim_clone_tc,
		  r->progs.bench_prim_clone_adjust_tc, r->progs.bench_prim_read_tc },
	};

	for (size_t h = 0; h < BENCH_NHOOKS; h++) {
		for (size_t v = 0; v < NVARIANTS; v++)
			b->fd[h][v] = p[h][v] ? bpf_program__fd(p[h][v]) : -1;
		for (size_t k = 0; k < NPRIMS; k++)
			b->prim_fd[h][k] = bpf_program__fd(pp[h][k]);
	}
}

int bench_one(struct bench_ctx *b, const struct bench_shape *s, size_t h, struct bench_result *res)
{
	static uint8_t pkt[BENCH_PKT_MAX];
	const struct bench_hook *hk = &bench_hooks[h];
	uint32_t len = bench_build_packet(s, pkt), ns;
	struct bench_job jobs[NVARIANTS];
	size_t failed;
	int err;

	res->shape = s;
	res->hook = hk;
	res->len = len;
	res->no_direct = s->no_direct != NULL;
	if (hk->max_len && len > hk->max_len) {
		res->na = true;
		snprintf(res->reason, sizeof(res->reason), "%s", hk->limit);
		return 0;
	}
	/* Doubles as the warm-up: every program has run this packet once. */
	err = bench_check_parity(b, h, pkt, len, res);
	if (err == -EINVAL && hk->limit && len > DYNPF_XDP_TEST_LINEAR_MAX) {
		res->na = true;
		snprintf(res->reason, sizeof(res->reason), "%s", hk->limit);
		return 0;
	}
	if (!err)
		err = bench_run_want(b->fd[h][V_EMPTY], pkt, len, 1, hk->retval, &ns);
	if (err)
		goto fail;
	pr_info("bench: %s on %s: %u runs of %u\n", s->name, hk->name, b->runs, b->repeat);
	for (int v = 0; v < NVARIANTS; v++)
		jobs[v] = (struct bench_job){
			.fd = v == V_DIRECT && res->no_direct ? -1 : b->fd[h][v],
			.pkt = pkt,
			.len = len,
			.want = hk->retval,
			.ns = res->ns[v],
			.median = &res->median[v],
		};
	err = bench_interleave(jobs, NVARIANTS, b->runs, b->repeat, &failed);
	if (!err)
		return 0;
fail:
	if (err != -EPROTO)
		p_err("bench: BPF_PROG_TEST_RUN of %s on %s failed: %s", s->name, hk->name,
		      strerror(-err));
	return err;
}
