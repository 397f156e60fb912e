// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench, the rule benchmarks: submit to effective. A drop rule for the
 * syn packet in a transaction, flushed, then test runs of the packet until
 * one returns XDP_DROP: the wall-clock time from the begin to that test run,
 * with 1 rule loaded and with the largest count; and, where there is another
 * CPU, when a thread running the packet there saw the drop first.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include "bench/rules.h"
#include "lib/log.h"

#define BENCH_EFF_MAX_POLLS 100000

/*
 * A thread on another CPU that runs the packet through dynpf_xdp while it is
 * armed, and notes when the first test run returns the drop verdict: when
 * the commit published its generation, which the producer's flush reports
 * when it reads the commit's ack.
 */
enum {
	POLL_IDLE,
	POLL_ARMED,
	POLL_SEEN,
	POLL_QUIT,
	POLL_ERROR
};

struct rb_poller {
	pthread_t th;
	int fd;
	const uint8_t *pkt;
	uint32_t len;
	uint32_t drop;
	int state; /* POLL_*, __atomic */
	double t_seen;
};

static void *poller_main(void *arg)
{
	struct rb_poller *p = arg;

	for (;;) {
		int st = __atomic_load_n(&p->state, __ATOMIC_ACQUIRE);
		uint32_t ret;

		if (st == POLL_QUIT)
			return NULL;
		if (st != POLL_ARMED) {
			sched_yield();
			continue;
		}
		if (bench_test_run(p->fd, p->pkt, p->len, 1, &ret, NULL)) {
			__atomic_store_n(&p->state, POLL_ERROR, __ATOMIC_RELEASE);
			continue;
		}
		if (ret == p->drop) {
			p->t_seen = dynpf_now() * 1e3;
			__atomic_compare_exchange_n(&p->state, &st, POLL_SEEN, false,
						    __ATOMIC_RELEASE, __ATOMIC_RELAXED);
		}
	}
}

/* A poller on a CPU other than ours; -1 and no thread when there is none. */
static int poller_start(struct rb_ctx *x, struct rb_poller *p)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	if (x->cfg->cpu < 0 || ncpu < 2)
		return -1;
	p->fd = x->prog_fd[0];
	p->pkt = x->cfg->shape[0].pkt;
	p->len = x->cfg->shape[0].len;
	p->drop = rb_hooks[0].drop;
	p->state = POLL_IDLE;
	if (pthread_create(&p->th, NULL, poller_main, p))
		return -1;
	for (long c = 1; c < ncpu; c++) {
		int cpu = (x->cfg->cpu + c) % ncpu;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (!pthread_setaffinity_np(p->th, sizeof(set), &set))
			return cpu;
	}
	__atomic_store_n(&p->state, POLL_QUIT, __ATOMIC_RELEASE);
	pthread_join(p->th, NULL);
	return -1;
}

static void poller_stop(struct rb_poller *p)
{
	__atomic_store_n(&p->state, POLL_QUIT, __ATOMIC_RELEASE);
	pthread_join(p->th, NULL);
}

/*
 * One sample: the drop rule in a transaction, flushed, then test runs until
 * one drops the packet; with a poller, when it saw the drop first. Then the
 * rule is deleted again, untimed.
 */
static int effective_once(struct rb_ctx *x, struct rb_poller *pl, double *us, double *flush_us)
{
	const uint8_t *pkt = x->cfg->shape[0].pkt;
	uint32_t len = x->cfg->shape[0].len, ret, polls = 0;
	const struct dynpf_ack_commit *a;
	struct dynpf_rule r;
	double t0, t1, t2, tw;
	uint64_t seq;
	int err;

	rb_gen_drop_rule(&r);
	dynpf_ctrl_take(&x->c);
	if (pl)
		__atomic_store_n(&pl->state, POLL_ARMED, __ATOMIC_RELEASE);
	t0 = dynpf_now() * 1e3;
	err = dynpf_ctrl_begin(&x->c, NULL);
	err = err ?: dynpf_ctrl_add(&x->c, &r, NULL);
	err = err ?: dynpf_ctrl_commit(&x->c, &seq);
	err = err ?: dynpf_ctrl_flush(&x->c);
	t1 = dynpf_now() * 1e3;
	if (err)
		return err;
	do {
		err = rb_test_run(x->prog_fd[0], pkt, len, 1, &ret, NULL);
		if (err)
			return err;
		polls++;
	} while (ret != rb_hooks[0].drop && polls < BENCH_EFF_MAX_POLLS);
	t2 = dynpf_now() * 1e3;
	a = dynpf_ctrl_ack(&x->c, seq);
	if (!a || a->a.err)
		return bench_say_refusal(&x->c, "bench", "adding the drop rule");
	if (ret != rb_hooks[0].drop) {
		p_err("bench: the drop rule was acked but %u test runs still pass", polls);
		return -EPROTO;
	}
	*us = (t2 - t0) * 1e3;
	*flush_us = (t1 - t0) * 1e3;
	if (pl) {
		/* It has seen it, or sees it at its next test run. */
		for (tw = dynpf_now() * 1e3; (dynpf_now() * 1e3) - tw < 1000;)
			if (__atomic_load_n(&pl->state, __ATOMIC_ACQUIRE) != POLL_ARMED)
				break;
		if (__atomic_load_n(&pl->state, __ATOMIC_ACQUIRE) != POLL_SEEN) {
			p_err("bench: the poller did not see the drop rule");
			return -EPROTO;
		}
		*us = (pl->t_seen - t0) * 1e3;
		__atomic_store_n(&pl->state, POLL_IDLE, __ATOMIC_RELEASE);
	}
	err = rb_txn(x, 1, rb_id_from, RB_DROP_ID, true, NULL, "deleting the drop rule");
	err = err ?: rb_test_run(x->prog_fd[0], pkt, len, 1, &ret, NULL);
	if (err)
		return err;
	if (ret != rb_hooks[0].pass) {
		p_err("bench: the drop rule was deleted but the packet is still dropped");
		return -EPROTO;
	}
	return 0;
}

/*
 * The samples as the producer sees them (flush, then poll), then, where
 * there is another CPU, the same with a poller there: apart, because the
 * poller's test runs compete with the producer.
 */
int rb_effective(struct rb_ctx *x, uint32_t rules, struct rb_eff *e)
{
	struct rb_poller pl;
	double unused;
	int pcpu, err = 0;

	e->rules = rules;
	for (int i = 0; !err && i < BENCH_EFF_SAMPLES; i++)
		err = effective_once(x, NULL, &e->us[i], &e->flush_us[i]);
	if (err)
		return err;
	e->med_us = dynpf_median(e->us, BENCH_EFF_SAMPLES);
	e->med_flush_us = dynpf_median(e->flush_us, BENCH_EFF_SAMPLES);
	e->min_us = e->max_us = e->us[0];
	for (int i = 1; i < BENCH_EFF_SAMPLES; i++) {
		if (e->us[i] < e->min_us)
			e->min_us = e->us[i];
		if (e->us[i] > e->max_us)
			e->max_us = e->us[i];
	}
	pcpu = poller_start(x, &pl);
	x->res->poller_cpu = pcpu;
	if (pcpu >= 0) {
		for (int i = 0; !err && i < BENCH_EFF_SAMPLES; i++)
			err = effective_once(x, &pl, &e->seen_us[i], &unused);
		poller_stop(&pl);
		if (err)
			return err;
		e->seen = true;
		e->med_seen_us = dynpf_median(e->seen_us, BENCH_EFF_SAMPLES);
	}
	pr_info("bench: submit to effective with %u rules: %.0f us (a poller saw it at %.0f us)\n",
		rules, e->med_us, e->med_seen_us);
	return 0;
}
