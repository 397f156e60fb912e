// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* build/test_ctrl: packets classified while transactions commit. */
#include <pthread.h>
#include <stdio.h>

#include "lib/util.h"

#include "ctrl.h"

#define CONC_SET(gen, j) (1000 + ((gen) & 1) * 100 + (j))

static volatile int conc_stop;
static int conc_commits, conc_err;

/* Commit k installs set k & 1 (ids 1000.. or 1100..) in place of the other. */
static void *conc_committer(void *arg)
{
	uint32_t first = *(uint32_t *)arg;

	for (uint32_t k = first; !conc_stop; k++) {
		uint64_t s;

		dynpf_ctrl_take(&c);
		dynpf_ctrl_begin(&c, NULL);
		for (int j = 0; j < 4; j++) {
			struct dynpf_rule r =
				rule(CONC_SET(k, j), j, j < 3 ? DYNPF_ACT_COUNT : DYNPF_ACT_DROP);

			/* 0 and 3 catch-alls, on their chain (state.any_head),
			 * the others in tuples: both replaced at each commit. */
			if (j == 1 || j == 2)
				m_proto(&r, 6);
			if (j == 1)
				m_src4(&r, 0, 16);
			if (j == 2)
				m_dport(&r, 1, 100);
			if (k > first)
				dynpf_ctrl_del(&c, CONC_SET(k - 1, j), NULL);
			dynpf_ctrl_add(&c, &r, NULL);
		}
		dynpf_ctrl_commit(&c, &s);
		if (dynpf_ctrl_flush(&c) || ack_of(s).a.err) {
			conc_err++;
			break;
		}
		if (ack_of(s).a.gen != k) {
			conc_err++;
			break;
		}
		conc_commits++;
	}
	return NULL;
}

/*
 * Commit k happens at generation k (a fresh load) and installs set k & 1:
 * a packet classified at generation g must show rules of set g & 1 only,
 * all four of them.
 */
void test_concurrency(void)
{
	uint32_t first = 1;
	int packets = 0, mixed = 0, gens = 0;
	uint32_t last_gen = 0;
	int64_t t0;
	pthread_t th;
	struct pkt p;

	if (reopen(4096)) {
		CHECK("concurrency: reopen", 0, "cannot load the programs");
		return;
	}
	mk4(&p, 6, 1, 1, 1000, 22, 0x02);
	conc_stop = 0;
	pthread_create(&th, NULL, conc_committer, &first);
	t0 = dynpf_now_ms();
	do {
		struct dynpf_verdict v;
		int ok;

		if (run(&p, &v, NULL))
			break;
		packets++;
		if (!v.gen)
			continue;
		ok = v.rule == CONC_SET(v.gen, 3) && v.nmatch == 3;
		for (int j = 0; j < 3 && ok; j++)
			ok = v.match[j] == CONC_SET(v.gen, j);
		if (!ok && ++mixed <= 3)
			printf("concurrency: gen %u: rule %u matched %u %u %u\n", v.gen, v.rule,
			       v.match[0], v.match[1], v.match[2]);
		if (v.gen != last_gen) {
			gens++;
			last_gen = v.gen;
		}
	} while (dynpf_now_ms() - t0 < 2000);
	conc_stop = 1;
	pthread_join(th, NULL);
	printf("concurrency: %d packets over %d generations seen, %d commits\n", packets, gens,
	       conc_commits);
	CHECK_EQ("concurrency: commits refused", conc_err, 0);
	CHECK("concurrency: commits", conc_commits >= 10, "%d commits", conc_commits);
	CHECK("concurrency: generations seen", gens >= 5, "%d generations", gens);
	CHECK_EQ("concurrency: packets classified by a mix of rule sets", mixed, 0);
}
