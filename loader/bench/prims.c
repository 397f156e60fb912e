// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench: the dynptr primitives, one table after the shapes
 * (--no-primitives leaves it out, --primitives-only runs it alone). For each
 * hook six programs of loader/bench/prims.bpf.h run the syn packet,
 * interleaved and medianed as the shapes are (common.c): empty, ctor (builds
 * the dynptr: bpf_dynptr_from_xdp() or bpf_dynptr_from_skb()), and one per
 * primitive that builds the dynptr and then makes N calls of it
 * (bpf_dynptr_slice() of 20 bytes, bpf_dynptr_clone(), bpf_dynptr_clone() +
 * bpf_dynptr_adjust(), bpf_dynptr_read() of 20 bytes). The constructor costs
 * ctor - empty, a primitive (prim - ctor) / N. Each program fails with
 * another return value when a call fails, and a failing program stops the
 * bench before it is timed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "lib/log.h"

static const char *const prim_names[NPRIMS] = { "empty", "ctor",         "slice",
						"clone", "clone_adjust", "read" };

/* The packet they run: bench_shapes[0], syn (74 bytes, the IPv4 header at 14). */
#define PRIM_SHAPE (&bench_shapes[0])

/*
 * The primitives on every hook: each program once (a warm-up, and a check
 * that every call succeeded: the programs return another value when one
 * fails), then the runs, the programs interleaved, and the medians.
 */
int bench_prims(struct bench_ctx *b, struct prim_result *pr)
{
	static uint8_t pkt[BENCH_PKT_MAX];
	uint32_t len = bench_build_packet(PRIM_SHAPE, pkt), ret;
	struct bench_job jobs[NPRIMS];
	size_t k;
	int err;

	for (size_t h = 0; h < BENCH_NHOOKS; h++) {
		const struct bench_hook *hk = &bench_hooks[h];

		for (k = 0; k < NPRIMS; k++) {
			err = bench_test_run(b->prim_fd[h][k], pkt, len, 1, &ret, NULL);
			if (err) {
				p_err("bench: BPF_PROG_TEST_RUN of the %s primitive on %s "
				      "failed: %s",
				      prim_names[k], hk->name, strerror(-err));
				return err;
			}
			if (ret != hk->retval) {
				p_err("bench: the %s primitive failed on %s (the program "
				      "returned %d): nothing to time",
				      prim_names[k], hk->name, (int)ret);
				return -EPROTO;
			}
			jobs[k] = (struct bench_job){
				.fd = b->prim_fd[h][k],
				.pkt = pkt,
				.len = len,
				.want = hk->retval,
				.ns = pr[h].ns[k],
				.median = &pr[h].median[k],
			};
		}
		pr_info("bench: dynptr primitives on %s: %u runs of %u\n", hk->name, b->runs,
			b->repeat);
		err = bench_interleave(jobs, NPRIMS, b->runs, b->repeat, &k);
		if (err) {
			if (err != -EPROTO)
				p_err("bench: BPF_PROG_TEST_RUN of the %s primitive on %s "
				      "failed: %s",
				      prim_names[k], hk->name, strerror(-err));
			return err;
		}
	}
	return 0;
}

/*
 * The rows of the primitives table: (median[prog] - median[base]) / calls,
 * or / 1 for the constructor, which each program calls once.
 */
static const struct prim_row {
	const char *key;   /* in JSON's "ns_per_call" */
	const char *label; /* in the text table */
	bool sized;        /* reads bench_prim_len bytes at bench_prim_off */
	int prog, base;
	bool per_call;
} prim_rows[] = {
	{ "constructor", "constructor (from_xdp/from_skb)", false, PR_CTOR, PR_EMPTY, false },
	{ "slice", "slice", true, PR_SLICE, PR_CTOR, true },
	{ "clone", "clone", false, PR_CLONE, PR_CTOR, true },
	{ "clone_adjust", "clone + adjust (bounded view)", false, PR_CLONE_ADJUST, PR_CTOR, true },
	{ "read", "read", true, PR_READ, PR_CTOR, true },
	{ "adjust", "adjust (clone+adjust - clone)", false, PR_CLONE_ADJUST, PR_CLONE, true },
};

static double prim_ns(const struct bench_ctx *b, const struct prim_result *pr,
		      const struct prim_row *row)
{
	double d = pr->median[row->prog] - pr->median[row->base];

	return row->per_call ? d / b->prim_calls : d;
}

void bench_prims_print_text(const struct bench_ctx *b, const struct prim_result *pr)
{
	char label[64];

	printf("dynptr primitives (ns per call, %u calls per program) %11s %10s %10s\n",
	       b->prim_calls, bench_hooks[0].name, bench_hooks[1].name, bench_hooks[2].name);
	for (size_t i = 0; i < ARRAY_SIZE(prim_rows); i++) {
		const struct prim_row *row = &prim_rows[i];

		if (row->sized)
			snprintf(label, sizeof(label), "%s %u B at byte %u", row->label,
				 b->prim_len, b->prim_off);
		else
			snprintf(label, sizeof(label), "%s", row->label);
		printf("%-53s", label);
		for (size_t h = 0; h < BENCH_NHOOKS; h++)
			printf(" %10.2f", prim_ns(b, &pr[h], row));
		printf("\n");
	}
	printf("\n%-53s %10s %10s %10s\n", "program (ns per packet)", bench_hooks[0].name,
	       bench_hooks[1].name, bench_hooks[2].name);
	for (int k = 0; k < NPRIMS; k++) {
		printf("%-53s", prim_names[k]);
		for (size_t h = 0; h < BENCH_NHOOKS; h++)
			printf(" %10.1f", pr[h].median[k]);
		printf("\n");
	}
	printf("\nOn the %s packet (%u bytes). ctor builds the dynptr; each other program\n"
	       "builds it, then makes %u calls of one primitive (loader/bench/bench.bpf.c): slice is\n"
	       "bpf_dynptr_slice() with a buffer, read bpf_dynptr_read(), clone + adjust a\n"
	       "bpf_dynptr_clone() then bpf_dynptr_adjust() to %u bytes at %u.\n"
	       "constructor = ctor - empty; a primitive = (program - ctor) / %u; adjust =\n"
	       "(clone + adjust - clone) / %u. The test run reports whole ns per packet, so\n"
	       "a figure per call moves in steps of 1/%u ns, and with the VM's noise.\n",
	       PRIM_SHAPE->name, PRIM_SHAPE->len, b->prim_calls, b->prim_len, b->prim_off,
	       b->prim_calls, b->prim_calls, b->prim_calls);
}

/* "primitives": the packet, the method, and per hook every figure and run. */
json_object *bench_prims_json(const struct bench_ctx *b, const struct prim_result *pr)
{
	json_object *o = json_object_new_object(), *hk = json_object_new_object();

	json_object_object_add(o, "shape", json_object_new_string(PRIM_SHAPE->name));
	json_object_object_add(o, "bytes", json_object_new_int64(PRIM_SHAPE->len));
	json_object_object_add(o, "calls", json_object_new_int64(b->prim_calls));
	json_object_object_add(o, "offset", json_object_new_int64(b->prim_off));
	json_object_object_add(o, "length", json_object_new_int64(b->prim_len));
	json_object_object_add(o, "constructor", json_object_new_string("ctor_ns - empty_ns"));
	json_object_object_add(o, "per_call",
			       json_object_new_string("(prog_ns - ctor_ns) / calls"));
	json_object_object_add(o, "adjust",
			       json_object_new_string("(clone_adjust_ns - clone_ns) / calls"));
	for (size_t h = 0; h < BENCH_NHOOKS; h++) {
		json_object *one = json_object_new_object(), *per = json_object_new_object();
		json_object *prog = json_object_new_object(), *runs = json_object_new_object();

		for (size_t i = 0; i < ARRAY_SIZE(prim_rows); i++)
			json_object_object_add(
				per, prim_rows[i].key,
				dynpf_json_num(prim_ns(b, &pr[h], &prim_rows[i]), "%.3f"));
		for (int k = 0; k < NPRIMS; k++) {
			json_object_object_add(prog, prim_names[k],
					       dynpf_json_num(pr[h].median[k], "%.1f"));
			json_object_object_add(runs, prim_names[k],
					       bench_json_u32s(pr[h].ns[k], b->runs));
		}
		json_object_object_add(one, "ns_per_call", per);
		json_object_object_add(one, "program_ns", prog);
		json_object_object_add(one, "runs_ns", runs);
		json_object_object_add(hk, bench_hooks[h].name, one);
	}
	json_object_object_add(o, "hooks", hk);
	return o;
}
