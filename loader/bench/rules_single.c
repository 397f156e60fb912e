// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench, the rule benchmarks: single-rule transactions (issue 19), as
 * a blocklist agent sends them. With the rule set loaded, one producer sends
 * RB_SGL_N transactions of each kind, one after another, each flushed and
 * its commit's ack read before the next is sent: adds of /32 source
 * addresses (ids RB_SGL_BASE on), replaces of the same rules (a delete and
 * an add of the same id in one transaction, the action changed), deletes.
 * For each kind: transactions per second, and the wall-clock time from the
 * begin to the commit's ack (p50, p99, the largest). Then RB_SGL_CHECKS of
 * each kind again, each followed at once by a test run of a packet from
 * that address through dynpf_xdp: the verdict must be the change's (in
 * force when acked, nothing waited for). The rules bench runs it with the
 * rule set idle; --live while its traffic runs through the same programs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench/rules.h"
#include "lib/log.h"

const char *const rb_sgl_kind[RB_SGL_NKINDS] = { "add", "replace", "delete" };

/* Rule i of the benchmark: ip saddr 198.19.128.0/17's address i, prio 0. */
static void sgl_rule(uint32_t i, int kind, struct dynpf_rule *r)
{
	memset(r, 0, sizeof(*r));
	r->id = RB_SGL_BASE + i;
	r->prio = 0;
	r->action = kind == RB_SGL_REPLACE ? DYNPF_ACT_PASS : DYNPF_ACT_DROP;
	r->m.fields = DYNPF_M_FAMILY | DYNPF_M_SRC;
	r->m.family = 4;
	r->m.src_plen = 32;
	r->m.src[0] = 198;
	r->m.src[1] = 19;
	r->m.src[2] = 128 + ((i >> 8) & 127);
	r->m.src[3] = i;
}

/* A UDP packet from rule i's address: eth / IPv4 / UDP to 198.18.0.2:9. */
static uint32_t sgl_packet(uint32_t i, uint8_t *b)
{
	static const uint8_t hdr[34] = {
		2,    0, 0, 0,  0, 2, 2, 0, 0,  0,  0, 1, 0x08, 0x00,                      /* eth */
		0x45, 0, 0, 28, 0, 0, 0, 0, 64, 17, 0, 0, 198,  19,   0, 0, 198, 18, 0, 2, /* ip */
	};

	memset(b, 0, 64);
	memcpy(b, hdr, sizeof(hdr));
	b[28] = 128 + ((i >> 8) & 127);
	b[29] = i;
	b[34] = 40000 >> 8, b[35] = 40000 & 255; /* udp 40000 > 9 */
	b[37] = 9;
	b[39] = 8;
	return 64;
}

/* One transaction of kind for rule i, flushed: its commit acked. */
static int sgl_txn(struct dynpf_ctrl *c, uint32_t i, int kind)
{
	const struct dynpf_ack_commit *a;
	struct dynpf_rule r;
	uint64_t seq;
	int err;

	sgl_rule(i, kind, &r);
	dynpf_ctrl_take(c);
	err = dynpf_ctrl_begin(c, NULL);
	if (!err && kind != RB_SGL_ADD)
		err = dynpf_ctrl_del(c, r.id, NULL);
	if (!err && kind != RB_SGL_DEL)
		err = dynpf_ctrl_add(c, &r, NULL);
	err = err ?: dynpf_ctrl_commit(c, &seq);
	err = err ?: dynpf_ctrl_flush(c);
	if (err)
		return err;
	a = dynpf_ctrl_ack(c, seq);
	if (!a || a->a.err)
		return bench_say_refusal(c, "bench", "a single-rule transaction");
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The verdict of the last packet on this CPU (dynpf_verdicts, per CPU). */
static int sgl_verdict(struct bpf_map *verdicts, int cpu, struct dynpf_verdict *v)
{
	int ncpus = libbpf_num_possible_cpus();
	size_t stride = (sizeof(*v) + 7) & ~(size_t)7;
	char *all = calloc(ncpus, stride);
	uint32_t zero = 0;
	int err = 0;

	if (!all)
		return -ENOMEM;
	if (bpf_map__lookup_elem(verdicts, &zero, sizeof(zero), all, ncpus * stride, 0))
		err = -errno;
	else
		memcpy(v, all + (size_t)cpu * stride, sizeof(*v));
	free(all);
	return err;
}

/* Is the change of kind to rule i in force for the next packet? */
static int sgl_in_force(int xdp_fd, struct bpf_map *verdicts, int cpu, uint32_t i, int kind)
{
	struct dynpf_verdict v = { 0 };
	uint8_t pkt[64];
	uint32_t len = sgl_packet(i, pkt), ret, id = RB_SGL_BASE + i;
	int err = bench_test_run(xdp_fd, pkt, len, 1, &ret, NULL);

	err = err ?: sgl_verdict(verdicts, cpu, &v);
	if (err)
		return err;
	switch (kind) {
	case RB_SGL_ADD:
		return v.rule == id && v.action == DYNPF_ACT_DROP;
	case RB_SGL_REPLACE:
		return v.rule == id && v.action == DYNPF_ACT_PASS;
	}
	return v.rule != id;
}

int rb_single_run(struct dynpf_ctrl *c, int xdp_fd, struct bpf_map *verdicts, uint32_t rules,
		  struct rb_single *s)
{
	double *lat = calloc(RB_SGL_N, sizeof(*lat)), t0, t1, start, all = 0;
	int cpu = sched_getcpu(), err = 0, ok;
	cpu_set_t saved, one;

	memset(s, 0, sizeof(*s));
	s->rules = rules;
	s->n = RB_SGL_N;
	if (!lat)
		return -ENOMEM;
	/* The verdict is read from this CPU's slot: stay on it. */
	sched_getaffinity(0, sizeof(saved), &saved);
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	sched_setaffinity(0, sizeof(one), &one);
	pr_info("bench: %u single-rule transactions of each kind, %u rules loaded\n", RB_SGL_N,
		rules);
	for (int k = 0; k < RB_SGL_NKINDS && !err; k++) {
		start = dynpf_now();
		for (uint32_t i = 0; i < RB_SGL_N && !err; i++) {
			t0 = dynpf_now();
			err = sgl_txn(c, i, k);
			t1 = dynpf_now();
			lat[i] = (t1 - t0) * 1e6;
			if (c->limbo > s->limbo_max)
				s->limbo_max = c->limbo;
		}
		if (err)
			break;
		t1 = dynpf_now();
		all += t1 - start;
		s->per_s[k] = RB_SGL_N / (t1 - start);
		qsort(lat, RB_SGL_N, sizeof(*lat), cmp_double);
		s->p50_us[k] = lat[RB_SGL_N / 2];
		s->p99_us[k] = lat[RB_SGL_N * 99 / 100];
		s->max_us[k] = lat[RB_SGL_N - 1];
	}
	if (!err)
		s->all_per_s = RB_SGL_NKINDS * RB_SGL_N / all;
	/* In force when acked: each change, then the next packet at once. */
	for (int k = 0; k < RB_SGL_NKINDS && !err; k++)
		for (uint32_t i = 0; i < RB_SGL_CHECKS && !err; i++) {
			err = sgl_txn(c, i, k);
			ok = err ? 0 : sgl_in_force(xdp_fd, verdicts, cpu, i, k);
			if (ok < 0)
				err = ok;
			s->checked++;
			s->in_force += ok > 0;
		}
	sched_setaffinity(0, sizeof(saved), &saved);
	free(lat);
	if (err)
		return err;
	s->done = true;
	if (s->in_force != s->checked) {
		p_err("bench: %u of %u single-rule changes were not in force for the packet "
		      "right after their ack",
		      s->checked - s->in_force, s->checked);
		return -EPROTO;
	}
	return 0;
}

void rb_single_print(const struct rb_single *s, const char *where)
{
	if (!s->done)
		return;
	printf("\nsingle-rule transactions, %s: %u of each kind, one producer, %u rules "
	       "loaded\n",
	       where, s->n, s->rules);
	printf("%10s %12s %12s %12s %12s\n", "kind", "txn/s", "ack p50 us", "ack p99 us",
	       "ack max us");
	for (int k = 0; k < RB_SGL_NKINDS; k++)
		printf("%10s %12.0f %12.1f %12.1f %12.1f\n", rb_sgl_kind[k], s->per_s[k],
		       s->p50_us[k], s->p99_us[k], s->max_us[k]);
	printf("%10s %12.0f   (targets: >= 20,000/s, ack p99 < 1000 us)\n", "all", s->all_per_s);
	printf("in force when acked: %u of %u changes, each checked by a test run right after "
	       "its ack;\nentries waiting to be reclaimed: %u at most\n",
	       s->in_force, s->checked, s->limbo_max);
	printf("add: ip saddr 198.19.128.0/17's addresses, prio 0, drop; replace: a delete\n"
	       "and an add of the same id in one transaction, the action pass; delete. Ack:\n"
	       "from the begin to the commit's ack read by the producer (begin, change,\n"
	       "commit, drain run, ack).\n");
}

json_object *rb_single_json(const struct rb_single *s)
{
	json_object *o, *kinds;

	if (!s->done)
		return NULL;
	o = json_object_new_object();
	kinds = json_object_new_array();
	json_object_object_add(o, "rules_loaded", json_object_new_int64(s->rules));
	json_object_object_add(o, "per_kind", json_object_new_int64(s->n));
	for (int k = 0; k < RB_SGL_NKINDS; k++) {
		json_object *j = json_object_new_object();

		json_object_object_add(j, "kind", json_object_new_string(rb_sgl_kind[k]));
		json_object_object_add(j, "per_s", dynpf_json_num(s->per_s[k], "%.0f"));
		json_object_object_add(j, "ack_p50_us", dynpf_json_num(s->p50_us[k], "%.1f"));
		json_object_object_add(j, "ack_p99_us", dynpf_json_num(s->p99_us[k], "%.1f"));
		json_object_object_add(j, "ack_max_us", dynpf_json_num(s->max_us[k], "%.1f"));
		json_object_array_add(kinds, j);
	}
	json_object_object_add(o, "kinds", kinds);
	json_object_object_add(o, "all_per_s", dynpf_json_num(s->all_per_s, "%.0f"));
	json_object_object_add(o, "checked", json_object_new_int64(s->checked));
	json_object_object_add(o, "in_force", json_object_new_int64(s->in_force));
	json_object_object_add(o, "limbo_max", json_object_new_int64(s->limbo_max));
	return o;
}
