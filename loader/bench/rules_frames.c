// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench --frames FILE: the frames of a capture in turn, one test run
 * each, at every rule count. The classification table repeats one packet
 * 200,000 times a run, so each program runs with its code, its maps' lines
 * and its branches' history warm; on the wire (bench --live) frames of
 * several kinds come in turn, each after the kernel's own path, and dynpf
 * with 10,000 rules costs about twice what those repeated runs say over 1
 * rule. Here every frame is one BPF_PROG_TEST_RUN (repeat 1: the syscall
 * and the test run's set-up between any two runs of a program), and every
 * program is run on a frame before the next frame: the empty program,
 * dynpf_xdp stopped after each stage (the ablation's programs), the whole,
 * xdp-filter's where installed, and --versus's. The order of the programs
 * turns by one each frame and round, so that none always follows the same
 * one. The figure is the kernel's time of the run (its duration), the mean
 * over every frame and round: a program's cost with the caches and the
 * branch predictors holding less of it, and, interleaved that finely, an
 * A/B of two builds that the machine's slow phases move alike. Each
 * frame's own means are kept too (the per-frame table). With
 * --frame-repeat N a run repeats its frame N times: each frame's cost
 * warm, which is what the wire's figures follow (docs/bench.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/rules.h"
#include "lib/log.h"
#include "pcap/capture.h"

static const char *const rb_fr_names[RB_FR_N] = {
	[RB_FR_XF] = "xdp-filter, all",
	[RB_FR_VERSUS] = "--versus build",
};

/* The program of row k, or -1: not timed in this run. */
static int row_fd(const struct rb_ctx *x, int k)
{
	if (k == RB_FR_EMPTY)
		return x->cfg->empty_fd[0];
	if (k >= RB_FR_STAGE && k < RB_FR_STAGE + RB_NABL)
		return x->stage_fd[k - RB_FR_STAGE];
	if (k == RB_FR_WHOLE)
		return x->prog_fd[0];
	if (k == RB_FR_XF)
		return x->xf_fd;
	return x->versus_fd[0];
}

int rb_frames_open(struct rb_ctx *x)
{
	struct bench_rules *res = x->res;
	struct dynpf_capture *cap = &x->cap;
	size_t k = 0;
	int err;

	if (!x->cfg->frames)
		return 0;
	err = dynpf_capture_load(x->cfg->frames, cap);
	if (err) {
		p_err("bench: --frames %s: cannot read it: %s", x->cfg->frames, strerror(-err));
		return err;
	}
	/* A capture cut short is refused: its figures would not be the file's. */
	if (dynpf_capture_report_end(cap))
		return -EINVAL;
	res->fr_info = calloc(cap->n ?: 1, sizeof(*res->fr_info));
	if (!res->fr_info)
		return -ENOMEM;
	/* Frames an XDP test run takes: an Ethernet header at least, a page at most. */
	for (size_t i = 0; i < cap->n; i++) {
		struct dynpf_frame f = cap->frames[i];

		if (f.len < 14 || f.len > RB_FR_MAX_LEN) {
			res->fr_skipped++;
			free(f.data);
			continue;
		}
		res->fr_info[k] = (struct rb_frame_info){ .num = i + 1, .len = f.len };
		cap->frames[k++] = f;
	}
	cap->n = k;
	res->fr_frames = k;
	if (!k) {
		p_err("bench: --frames %s: no frame of 14 to %u bytes (%u skipped)", x->cfg->frames,
		      RB_FR_MAX_LEN, res->fr_skipped);
		return -EINVAL;
	}
	return 0;
}

void rb_frames_close(struct rb_ctx *x)
{
	if (x->cfg->frames)
		dynpf_capture_free(&x->cap);
}

int rb_time_frames(struct rb_ctx *x, struct rb_set *s)
{
	const struct dynpf_capture *cap = &x->cap;
	uint32_t rounds = x->cfg->frame_rounds;
	double sum[RB_FR_N] = { 0 }, *per;
	int fd[RB_FR_N], rows[RB_FR_N], n = 0;

	if (!x->cfg->frames)
		return 0;
	per = calloc(cap->n * RB_FR_N, sizeof(*per));
	if (!per)
		return -ENOMEM;
	free(s->fr_frame_ns);
	s->fr_frame_ns = per;
	for (int k = 0; k < RB_FR_N; k++) {
		fd[k] = row_fd(x, k);
		if (fd[k] >= 0)
			rows[n++] = k;
	}
	for (uint32_t r = 0; r < rounds; r++) {
		for (size_t f = 0; f < cap->n; f++) {
			for (int i = 0; i < n; i++) {
				int k = rows[(i + r + f) % n];
				uint32_t ret, ns;
				int err =
					rb_test_run(fd[k], cap->frames[f].data, cap->frames[f].len,
						    x->cfg->frame_repeat, &ret, &ns);

				if (err)
					return err;
				per[f * RB_FR_N + k] += ns;
			}
		}
	}
	for (size_t f = 0; f < cap->n; f++) {
		for (int k = 0; k < RB_FR_N; k++) {
			sum[k] += per[f * RB_FR_N + k];
			per[f * RB_FR_N + k] = fd[k] >= 0 ? per[f * RB_FR_N + k] / rounds : -1;
		}
	}
	for (int k = 0; k < RB_FR_N; k++)
		s->fr_ns[k] = fd[k] >= 0 ? sum[k] / ((double)rounds * cap->n) : -1;
	return 0;
}

/* rb_print_stage_rows()'s figures: the rows of fr_ns are the stages' k. */
_Static_assert(RB_FR_EMPTY == 0 && RB_FR_WHOLE == RB_NSTAGES + 2, "fr_ns by stage");
static double frames_at(const struct bench_rules *r, size_t i, int k, const void *arg)
{
	(void)arg;
	return r->set[i].fr_ns[k];
}

void rb_print_frames(const struct bench_rules *r)
{
	const struct bench_rules_cfg *cfg = &r->cfg;
	const struct rb_set *s0 = &r->set[0];

	if (!cfg->frames)
		return;
	printf("\nframes in turn: %s, %u frames", cfg->frames, r->fr_frames);
	if (r->fr_skipped)
		printf(" (%u skipped: shorter than 14 bytes or longer than %u)", r->fr_skipped,
		       RB_FR_MAX_LEN);
	printf(", %u rounds;\none test run each", cfg->frame_rounds);
	if (cfg->frame_repeat > 1)
		printf(" of %u repetitions (warm for the frame)", cfg->frame_repeat);
	printf(", every program on a frame before the next frame: mean ns per frame\n");
	printf("%-32s", "");
	rb_print_stage_rows(r, frames_at, NULL);
	printf("\n");
	for (int k = RB_FR_XF; k <= RB_FR_VERSUS; k++) {
		if (s0->fr_ns[k] < 0)
			continue;
		printf("  %-30s", rb_fr_names[k]);
		for (size_t i = 0; i < cfg->ncounts; i++)
			printf(" %9.1f", r->set[i].fr_ns[k]);
		printf("\n");
	}
	for (int k = RB_FR_XF; k <= RB_FR_VERSUS; k++) {
		if (s0->fr_ns[k] <= 0)
			continue;
		printf("  %-30s", k == RB_FR_XF ? "x xdp-filter's cost" : "this build / --versus");
		for (size_t i = 0; i < cfg->ncounts; i++) {
			const struct rb_set *s = &r->set[i];

			if (k == RB_FR_XF)
				printf(" %8.2fx",
				       (s->fr_ns[RB_FR_WHOLE] - s->fr_ns[RB_FR_EMPTY]) /
					       (s->fr_ns[RB_FR_XF] - s->fr_ns[RB_FR_EMPTY]));
			else
				printf(" %8.3fx", s->fr_ns[RB_FR_WHOLE] / s->fr_ns[RB_FR_VERSUS]);
		}
		printf("\n");
	}
	printf("each frame: dynpf_xdp, ns\n%-8s %6s", "  frame", "bytes");
	for (size_t i = 0; i < cfg->ncounts; i++)
		printf(" %9u", r->set[i].rules);
	printf("\n");
	for (uint32_t f = 0; f < r->fr_frames; f++) {
		printf("  %6u %6u", r->fr_info[f].num, r->fr_info[f].len);
		for (size_t i = 0; i < cfg->ncounts; i++) {
			const double *ns = r->set[i].fr_frame_ns;

			printf(" %9.1f", ns ? ns[(size_t)f * RB_FR_N + RB_FR_WHOLE] : -1);
		}
		printf("\n");
	}
	printf("Each run's duration (the program's run, not the syscall around it), the\n"
	       "mean over frames and rounds. ");
	if (cfg->frame_repeat > 1)
		printf("Each frame repeated in its runs: its cost warm, which is\n"
		       "what a frame costs on the wire (bench --live; docs/bench.md).\n");
	else
		printf("The caches and branch predictors hold less of\n"
		       "each program than in the tables above, where one packet repeats:\n"
		       "where a frame pays, not a judge of a change (docs/bench.md).\n");
	printf("Stages: the time each adds to the one before (dynpf_xdp stopped after it),\n"
	       "without the candidates' cache; the whole program against the same without it.\n"
	       "x xdp-filter's cost: dynpf's over the floor, divided by xdp-filter's.\n");
}

/* The figures of one row of programs (fr_ns, or a frame's) into o. */
static void frame_figures(json_object *o, const double *ns)
{
	json_object *st = json_object_new_array();

	json_object_object_add(o, "empty_ns", json_object_new_double(ns[RB_FR_EMPTY]));
	for (int k = 0; k < RB_NSTAGES; k++) {
		if (ns[RB_FR_STAGE + k] >= 0)
			json_object_array_add(st, json_object_new_double(ns[RB_FR_STAGE + k]));
	}
	json_object_object_add(o, "after_stage_ns", st);
	json_object_object_add(o, "dynpf_ns", json_object_new_double(ns[RB_FR_WHOLE]));
	if (ns[RB_FR_STAGE + RB_NSTAGES] >= 0)
		json_object_object_add(o, "dynpf_cache_off_ns",
				       json_object_new_double(ns[RB_FR_STAGE + RB_NSTAGES]));
	if (ns[RB_FR_XF] >= 0)
		json_object_object_add(o, "xdp_filter_ns", json_object_new_double(ns[RB_FR_XF]));
	if (ns[RB_FR_VERSUS] >= 0)
		json_object_object_add(o, "versus_ns", json_object_new_double(ns[RB_FR_VERSUS]));
}

json_object *rb_frames_json(const struct bench_rules *r)
{
	const struct bench_rules_cfg *cfg = &r->cfg;
	json_object *o, *sets;

	if (!cfg->frames)
		return NULL;
	o = json_object_new_object();
	sets = json_object_new_array();
	json_object_object_add(o, "capture", json_object_new_string(cfg->frames));
	json_object_object_add(o, "frames", json_object_new_int64(r->fr_frames));
	json_object_object_add(o, "skipped", json_object_new_int64(r->fr_skipped));
	json_object_object_add(o, "rounds", json_object_new_int64(cfg->frame_rounds));
	json_object_object_add(o, "repeat", json_object_new_int64(cfg->frame_repeat));
	for (size_t i = 0; i < cfg->ncounts; i++) {
		const struct rb_set *s = &r->set[i];
		json_object *e = json_object_new_object(), *fr = json_object_new_array();

		json_object_object_add(e, "rules", json_object_new_int64(s->rules));
		frame_figures(e, s->fr_ns);
		for (uint32_t f = 0; s->fr_frame_ns && f < r->fr_frames; f++) {
			json_object *g = json_object_new_object();

			json_object_object_add(g, "frame",
					       json_object_new_int64(r->fr_info[f].num));
			frame_figures(g, s->fr_frame_ns + (size_t)f * RB_FR_N);
			json_object_array_add(fr, g);
		}
		json_object_object_add(e, "per_frame", fr);
		json_object_array_add(sets, e);
	}
	json_object_object_add(o, "sets", sets);
	return o;
}
