// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench, the rule benchmarks: where the time goes. The ablation's
 * dynpf_xdp (bpf/dynpf.bpf.c built with DYNPF_ABLATION) is loaded RB_NSTAGES
 * times, each with its read-only global dynpf_stop_after set to stop after
 * one stage of a packet's work, on the maps of the programs under test (the
 * same rule set, the same counters), and timed in the same interleaved
 * rounds as the whole program: the difference between two stages is what
 * the second adds. With --versus, another build's dynpf_xdp joins them, on
 * the same maps: an A/B in one run.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bench/rules.h"
#include "dynpf/pkt.h" /* before the skeleton: it uses struct dynpf_parse_cfg */
#include "dynpf.skel.h"
#include "dynpf_abl.skel.h"
#include "dynpf_lazy.skel.h"
#include "lib/log.h"
#include "lib/progs.h"
#include "lib/util.h"

const char *const rb_stage_names[RB_NSTAGES + 1] = {
	"bpf_dynptr_from_xdp",        "map lookups",
	"cursor (first window)",      "parse",
	"classify: view, catch-alls", "classify: values, selection",
	"classify: quick filters",    "classify: field filters, key",
	"classify: probes",           "counters",
};

/*
 * Load obj's dynpf_xdp alone, its read-only globals as skel's, on skel's maps:
 * its fd in *fd. what names obj in errors.
 */
static int load_on_maps(struct bpf_object *obj, struct dynpf_bpf *skel, const char *what, int *fd)
{
	struct bpf_program *p, *xdp = NULL;
	int err;

	bpf_object__for_each_program(p, obj) {
		bool it = !strcmp(bpf_program__name(p), "dynpf_xdp");

		bpf_program__set_autoload(p, it);
		if (it)
			xdp = p;
	}
	err = xdp ? 0 : -ENOENT;
	err = err ?: dynpf_copy_rodata(obj, skel->obj);
	err = err ?: dynpf_reuse_maps(obj, skel->obj);
	err = err ?: bpf_object__load(obj);
	if (err) {
		p_err("bench: %s: no dynpf_xdp loadable on this build's maps: %s", what,
		      strerror(-err));
		return err;
	}
	*fd = bpf_program__fd(xdp);
	return 0;
}

int bench_versus_load(const char *path, struct dynpf_bpf *skel, struct bpf_object **obj, int *fd)
{
	char what[PATH_MAX + 16];
	int err;

	*obj = bpf_object__open_file(path, NULL);
	err = libbpf_get_error(*obj);
	if (err) {
		*obj = NULL;
		p_err("bench: --versus %s: cannot open it: %s", path, strerror(-err));
		return err;
	}
	snprintf(what, sizeof(what), "--versus %s", path);
	return load_on_maps(*obj, skel, what, fd);
}

/*
 * An object embedded in this binary (elf, sz bytes), named name, opened: its
 * dynpf_xdp is then loaded on x->skel's maps by load_on_maps().
 */
static int open_embedded(const void *elf, size_t sz, const char *name, struct bpf_object **out)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = name);
	int err;

	*out = bpf_object__open_mem(elf, sz, &opts);
	err = libbpf_get_error(*out);
	if (err) {
		*out = NULL;
		p_err("bench: cannot open the BPF object %s: %s", name, strerror(-err));
	}
	return err;
}

/* The ablation's read-only global name, one byte, set to val before load. */
static int set_rodata_u8(struct bpf_object *obj, const char *name, __u8 val)
{
	int err = dynpf_set_rodata_u8(obj, name, val);

	if (err)
		p_err("bench: the ablation's object has no %s", name);
	return err;
}

/*
 * The ablation's dynpf_xdp (.output/dynpf_abl.bpf.o, built into this binary:
 * bpf/dynpf.bpf.c with DYNPF_ABLATION) on x->skel's maps, stopped after
 * stage stop (1..RB_NSTAGES; 0: not stopped), without the candidates' cache:
 * *out and its program's fd in *fd. Without it, as the stages make the
 * candidates (a stopped program's entries would be what its stage left: a
 * superset, a probe for nothing, for the whole program's packets), and the
 * table's steps are the making's, which every packet a cache entry does not
 * hold pays (a new flow, the first packet after a commit).
 */
static int open_stage(struct rb_ctx *x, int stop, struct bpf_object **out, int *fd)
{
	size_t elf_sz;
	const void *elf = dynpf_abl_bpf__elf_bytes(&elf_sz);
	int err;

	err = open_embedded(elf, elf_sz, "dynpf_abl", out);
	if (err)
		return err;
	/* Its read-only globals made skel's (as --versus's), then its stage:
	 * dynpf_stop_after is the ablation's own. */
	err = dynpf_copy_rodata(*out, x->skel->obj);
	if (err) {
		p_err("bench: the ablation's read-only globals: %s", strerror(-err));
		return err;
	}
	err = set_rodata_u8(*out, "dynpf_stop_after", (__u8)stop)
		      ?: set_rodata_u8(*out, "dynpf_cc_off", 1);
	if (err)
		return err;
	return load_on_maps(*out, x->skel,
			    stop ? "dynpf_xdp stopped after a stage"
				 : "dynpf_xdp without the candidates' cache",
			    fd);
}

/*
 * dynpf_xdp of this build's XDP object (the lazy build's skeleton's bytes,
 * as x->lazy's) loaded again on x->skel's maps, another placement: *out and
 * its program's fd in *fd.
 */
static int open_copy(struct rb_ctx *x, struct bpf_object **out, int *fd)
{
	size_t sz;
	const void *elf = dynpf_lazy_bpf__elf_bytes(&sz);
	int err = open_embedded(elf, sz, "dynpf_lazy", out);

	return err ?: load_on_maps(*out, x->skel, "a copy of dynpf_xdp", fd);
}

int rb_stages_open(struct rb_ctx *x)
{
	int err;

	for (int k = 0; k < RB_NABL; k++)
		x->stage_fd[k] = -1;
	for (int k = 0; k < RB_NPLACES; k++) {
		x->place_fd[k] = -1;
		x->versus_fd[k] = -1;
	}
	/* As many placements of the other build as of this one's. */
	for (int k = 0; x->cfg->versus && k < RB_NPLACES; k++) {
		err = bench_versus_load(x->cfg->versus, x->skel, &x->versus[k], &x->versus_fd[k]);
		if (err)
			return err;
	}
	/* The stages 1 .. RB_NSTAGES, then the whole (0: not stopped). */
	for (int k = 0; k < RB_NABL; k++) {
		err = open_stage(x, (k + 1) % RB_NABL, &x->stage[k], &x->stage_fd[k]);
		if (err)
			return err;
	}
	for (int k = 1; k < RB_NPLACES; k++) {
		err = open_copy(x, &x->place[k], &x->place_fd[k]);
		if (err)
			return err;
	}
	x->res->nplaces = RB_NPLACES;
	return 0;
}

void rb_stages_close(struct rb_ctx *x)
{
	for (int k = 0; k < RB_NPLACES; k++) {
		bpf_object__close(x->versus[k]);
		x->versus[k] = NULL;
	}
	for (int k = 0; k < RB_NABL; k++) {
		bpf_object__close(x->stage[k]);
		x->stage[k] = NULL;
	}
	for (int k = 0; k < RB_NPLACES; k++) {
		bpf_object__close(x->place[k]);
		x->place[k] = NULL;
	}
}

static uint32_t min_u32(const uint32_t *v, uint32_t n)
{
	uint32_t m = n ? v[0] : 0;

	for (uint32_t i = 1; i < n; i++)
		m = v[i] < m ? v[i] : m;
	return m ? m : 1;
}

/*
 * ns after stage k of set s and shape sh: 0 the floor, 1..N the stages, N+1
 * the whole without the candidates' cache, N+2 the whole. The fastest of
 * the runs: a stage is a difference of two small figures, and the
 * machine's disturbances only ever add (the medians of the
 * classification table move by +-20% in this VM; the fastest runs by a few
 * ns).
 */
static double after(const struct rb_set *s, size_t sh, int k, uint32_t runs)
{
	if (k == 0)
		return min_u32(s->ns[sh][0][P_EMPTY], runs);
	if (k <= RB_NABL)
		return min_u32(s->stage_ns[sh][k - 1], runs);
	return min_u32(s->ns[sh][0][P_DYNPF], runs);
}

/*
 * --versus's A/B of set s, shape sh: the median over this build's
 * placements of their fastest runs (*self) and over the other build's
 * (*other). A placement's luck moved a build against itself by up to 10%.
 */
static void versus_at(const struct rb_set *s, size_t sh, uint32_t runs, double *self, double *other)
{
	double a[RB_NPLACES], b[RB_NPLACES];

	for (int k = 0; k < RB_NPLACES; k++) {
		a[k] = min_u32(k ? s->place_ns[sh][k] : s->ns[sh][0][P_DYNPF], runs);
		b[k] = min_u32(s->versus_ns[sh][k], runs);
	}
	*self = dynpf_median(a, RB_NPLACES);
	*other = dynpf_median(b, RB_NPLACES);
}

void rb_print_stage_rows(const struct bench_rules *r,
			 double (*at)(const struct bench_rules *r, size_t i, int k,
				      const void *arg),
			 const void *arg)
{
	const struct bench_rules_cfg *cfg = &r->cfg;

	for (size_t i = 0; i < cfg->ncounts; i++)
		printf(" %9u", cfg->counts[i]);
	printf("\n%-32s", "  empty program (the floor)");
	for (size_t i = 0; i < cfg->ncounts; i++)
		printf(" %9.1f", at(r, i, 0, arg));
	for (int k = 1; k <= RB_NSTAGES + 1; k++) {
		printf("\n  + %-28s", rb_stage_names[k - 1]);
		for (size_t i = 0; i < cfg->ncounts; i++)
			printf(" %+9.1f", at(r, i, k, arg) - at(r, i, k - 1, arg));
	}
	printf("\n%-32s", "  = without the cache");
	for (size_t i = 0; i < cfg->ncounts; i++)
		printf(" %9.1f", at(r, i, RB_NSTAGES + 1, arg));
	printf("\n%-32s", "  dynpf_xdp (the cache)");
	for (size_t i = 0; i < cfg->ncounts; i++)
		printf(" %9.1f", at(r, i, RB_NSTAGES + 2, arg));
	printf("\n%-32s", "  x without the cache");
	for (size_t i = 0; i < cfg->ncounts; i++)
		printf(" %8.3fx", at(r, i, RB_NSTAGES + 2, arg) / at(r, i, RB_NSTAGES + 1, arg));
}

/* rb_print_stage_rows()'s figures for the shape *arg. */
static double stage_at(const struct bench_rules *r, size_t i, int k, const void *arg)
{
	return after(&r->set[i], *(const size_t *)arg, k, r->cfg.runs);
}

void rb_print_stages(const struct bench_rules *r)
{
	const struct bench_rules_cfg *cfg = &r->cfg;

	printf("\nwhere the time goes: dynpf_xdp stopped after each stage, ns each stage adds\n"
	       "(the same rule sets, interleaved with the runs above, the fastest of %u runs)\n",
	       cfg->runs);
	for (size_t sh = 0; sh < RB_NSHAPES; sh++) {
		printf("%-32s", cfg->shape[sh].name);
		rb_print_stage_rows(r, stage_at, &sh);
		if (cfg->versus) {
			double self[BENCH_RULES_MAX_COUNTS], other[BENCH_RULES_MAX_COUNTS];

			for (size_t i = 0; i < cfg->ncounts; i++)
				versus_at(&r->set[i], sh, cfg->runs, &self[i], &other[i]);
			printf("\n%-32s", "  this build, placements");
			for (size_t i = 0; i < cfg->ncounts; i++)
				printf(" %9.1f", self[i]);
			printf("\n%-32s", "  --versus build, placements");
			for (size_t i = 0; i < cfg->ncounts; i++)
				printf(" %9.1f", other[i]);
			printf("\n%-32s", "  this build / --versus");
			for (size_t i = 0; i < cfg->ncounts; i++)
				printf(" %8.3fx", self[i] / other[i]);
		}
		printf("\n");
	}
	printf("Each stage's figure is the fastest of its own runs minus the previous one's: a\n"
	       "stage that adds little can show a small negative number (noise). The stages\n"
	       "are without the candidates' cache (every packet makes its candidates); the\n"
	       "whole program, whose packets here all find theirs in it, against the same.\n");
	if (cfg->versus)
		printf("--versus build: %s's dynpf_xdp, on the same maps. Each build loaded %d\n"
		       "times (placements): the median of their fastest runs, and their ratio.\n",
		       cfg->versus, RB_NPLACES);
}

json_object *rb_stages_json(const struct bench_rules *r)
{
	const struct bench_rules_cfg *cfg = &r->cfg;
	json_object *o = json_object_new_object();

	for (size_t sh = 0; sh < RB_NSHAPES; sh++) {
		json_object *shape = json_object_new_array();

		for (size_t i = 0; i < cfg->ncounts; i++) {
			json_object *row = json_object_new_object();

			json_object_object_add(row, "rules", json_object_new_int64(cfg->counts[i]));
			for (int k = 0; k <= RB_NSTAGES + 2; k++)
				json_object_object_add(
					row,
					k == RB_NSTAGES + 2   ? "dynpf_xdp"
					: k == RB_NSTAGES + 1 ? "dynpf_xdp, no cache"
					: k                   ? rb_stage_names[k - 1]
							      : "empty",
					dynpf_json_num(after(&r->set[i], sh, k, cfg->runs),
						       "%.1f"));
			if (cfg->versus) {
				double self, other;

				versus_at(&r->set[i], sh, cfg->runs, &self, &other);
				json_object_object_add(row, "self_placements",
						       dynpf_json_num(self, "%.1f"));
				json_object_object_add(row, "versus",
						       dynpf_json_num(other, "%.1f"));
			}
			json_object_array_add(shape, row);
		}
		json_object_object_add(o, cfg->shape[sh].name, shape);
	}
	return o;
}
