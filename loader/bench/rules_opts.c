// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench, the rule benchmarks: option areas with a rule that tests
 * them. tcp-opt40 (ten TCP options) with `tcp option 8 pass`, geneve8 (eight
 * Geneve options) with a test of its last option, each on its own as the
 * only rule: the data path walks the option area because a rule needs it,
 * then classifies. Timed interleaved with the empty program and the direct
 * parser (which walks the same bytes with direct packet access, and does
 * not classify).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench/rules.h"
#include "lib/log.h"

#define RB_OPT_ID (RB_DROP_ID - 1) /* the option rule's id */

const char *const rb_opt_rule_text[2] = {
	"tcp option 8 pass",
	"geneve option 0xff01:0x17 pass",
};

/* The option rule of shape k (a terminal pass: the verdict shows it). */
static void opt_rule(uint32_t k, struct dynpf_rule *r)
{
	memset(r, 0, sizeof(*r));
	r->id = RB_OPT_ID;
	r->prio = 1;
	r->action = DYNPF_ACT_PASS;
	r->m.ntlv = 1;
	r->m.tlv[0].family = k ? DYNPF_TLV_GENEVE_OPT : DYNPF_TLV_TCP_OPT;
	r->m.tlv[0].type = k ? 0xff0117 : 8;
}

static void opt_op(const void *arg, uint32_t i, bool *del, struct dynpf_rule *r)
{
	const uint32_t *k = arg;

	(void)i;
	*del = *k > 1;
	opt_rule(*k & 1, r);
}

/* Add (k 0, 1) or delete (k 2) the option rule. */
static int opt_txn(struct rb_ctx *x, uint32_t k)
{
	return bench_txn(&x->c, 1, opt_op, &k, "bench",
			 k > 1 ? "deleting the option rule" : "the option rule", NULL);
}

int rb_options(struct rb_ctx *x)
{
	const struct bench_rules_cfg *cfg = x->cfg;
	struct rb_opts *o = &x->res->opts;
	struct bench_job jobs[RB_NHOOKS * RB_OPT_NPROGS], *j;
	size_t failed;
	uint32_t ret;
	int err;

	for (uint32_t k = 0; k < 2; k++) {
		err = opt_txn(x, k);
		for (size_t h = 0; !err && h < RB_NHOOKS; h++) {
			/* The --versus build has only a dynpf_xdp (hook 0). */
			int fd[RB_OPT_NPROGS] = { cfg->empty_fd[h], cfg->direct_fd[h],
						  x->prog_fd[h], h ? -1 : x->versus_fd[0] };

			/* The rule must decide: it passes, the default passes too. */
			err = rb_test_run(x->prog_fd[h], cfg->opt_shape[k].pkt,
					  cfg->opt_shape[k].len, 1, &ret, NULL);
			j = jobs + h * RB_OPT_NPROGS;
			for (int p = 0; !err && p < RB_OPT_NPROGS; p++)
				j[p] = (struct bench_job){
					.fd = fd[p],
					.pkt = cfg->opt_shape[k].pkt,
					.len = cfg->opt_shape[k].len,
					.want = rb_hooks[h].pass,
					.ns = o->ns[k][h][p],
					.median = &o->med[k][h][p],
				};
		}
		err = err
			      ?: bench_interleave(jobs, ARRAY_SIZE(jobs), cfg->runs, cfg->repeat,
						  &failed);
		err = err ?: opt_txn(x, 2);
		if (err)
			return err;
	}
	return 0;
}

void rb_print_options(const struct bench_rules *r)
{
	const struct rb_opts *o = &r->opts;

	printf("\noption areas with a rule that tests them (the only rule), ns per packet\n");
	printf("%-12s %-5s %8s %8s %8s  %s\n", "packet", "hook", "empty", "direct", "dynpf",
	       "dynpf/direct  rule");
	for (size_t k = 0; k < 2; k++)
		for (size_t h = 0; h < RB_NHOOKS; h++)
			printf("%-12s %-5s %8.1f %8.1f %8.1f  %11.2fx  %s\n",
			       r->cfg.opt_shape[k].name, rb_hooks[h].name,
			       o->med[k][h][RB_OPT_EMPTY], o->med[k][h][RB_OPT_DIRECT],
			       o->med[k][h][RB_OPT_DYNPF],
			       o->med[k][h][RB_OPT_DYNPF] / o->med[k][h][RB_OPT_DIRECT],
			       rb_opt_rule_text[k]);
	if (r->cfg.versus)
		for (size_t k = 0; k < 2; k++)
			printf("%-12s %-5s --versus build %8.1f, this build / --versus %.3fx\n",
			       r->cfg.opt_shape[k].name, rb_hooks[0].name,
			       o->med[k][0][RB_OPT_VERSUS],
			       o->med[k][0][RB_OPT_DYNPF] / o->med[k][0][RB_OPT_VERSUS]);
	printf("direct walks the same option area with direct packet access and does not\n"
	       "classify; dynpf walks it because the rule needs it, then classifies.\n");
}

json_object *rb_options_json(const struct bench_rules *r)
{
	const struct rb_opts *o = &r->opts;
	json_object *a = json_object_new_array();

	for (size_t k = 0; k < 2; k++)
		for (size_t h = 0; h < RB_NHOOKS; h++) {
			json_object *e = json_object_new_object();

			json_object_object_add(e, "shape",
					       json_object_new_string(r->cfg.opt_shape[k].name));
			json_object_object_add(e, "hook", json_object_new_string(rb_hooks[h].name));
			json_object_object_add(e, "rule",
					       json_object_new_string(rb_opt_rule_text[k]));
			json_object_object_add(e, "empty_ns",
					       dynpf_json_num(o->med[k][h][RB_OPT_EMPTY], "%.1f"));
			json_object_object_add(e, "direct_ns",
					       dynpf_json_num(o->med[k][h][RB_OPT_DIRECT], "%.1f"));
			json_object_object_add(e, "dynpf_ns",
					       dynpf_json_num(o->med[k][h][RB_OPT_DYNPF], "%.1f"));
			json_object_object_add(e, "ratio_direct",
					       dynpf_json_num(o->med[k][h][RB_OPT_DYNPF] /
								      o->med[k][h][RB_OPT_DIRECT],
							      "%.3f"));
			/* --versus: the other build's dynpf_xdp, in the same rounds. */
			if (r->cfg.versus && !h)
				json_object_object_add(
					e, "versus_ns",
					dynpf_json_num(o->med[k][h][RB_OPT_VERSUS], "%.1f"));
			json_object_array_add(a, e);
		}
	return a;
}
