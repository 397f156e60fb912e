// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench --live: the generator. bench_live_tx (loader/bench/live.bpf.h)
 * returns XDP_TX; run with BPF_PROG_TEST_RUN and BPF_F_TEST_XDP_LIVE_FRAMES,
 * with dynpf-tx as the ctx's ingress_ifindex, every repetition is a real
 * frame out of dynpf-tx. One thread, pinned to one CPU, runs one test run
 * after the other while the main thread says run, each until SIGUSR1
 * interrupts it (live_run.c says why it is made so).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <linux/bpf.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench.skel.h"
#include "bench/live.h"
#include "lib/log.h"

static void on_usr1(int sig)
{
	(void)sig; /* only interrupts the generator's test run */
}

static void *sender_main(void *arg)
{
	struct lv_sender *s = arg;
	struct xdp_md ctx = { .data_end = s->frames[0].len, .ingress_ifindex = s->ifindex };
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = s->frames[0].data,
		    .data_size_in = s->frames[0].len, .ctx_in = &ctx, .ctx_size_in = sizeof(ctx),
		    .repeat = LV_REPEAT, .flags = BPF_F_TEST_XDP_LIVE_FRAMES,
		    .batch_size = LV_BATCH);
	sigset_t set;
	cpu_set_t cpus;

	sigfillset(&set);
	sigdelset(&set, SIGUSR1);
	pthread_sigmask(SIG_SETMASK, &set, NULL);
	CPU_ZERO(&cpus);
	CPU_SET(s->cpu, &cpus);
	if (pthread_setaffinity_np(pthread_self(), sizeof(cpus), &cpus) ||
	    setns(s->ns, CLONE_NEWNET)) {
		__atomic_store_n(&s->err, -errno, __ATOMIC_SEQ_CST);
		__atomic_store_n(&s->active, 0, __ATOMIC_SEQ_CST);
		return NULL;
	}
	for (;;) {
		int st;

		/* active before state: the main thread stores state, then waits
		 * for active 0, so it never misses a run begun after its store. */
		__atomic_store_n(&s->active, 1, __ATOMIC_SEQ_CST);
		st = __atomic_load_n(&s->state, __ATOMIC_SEQ_CST);
		if (st != TX_RUN) {
			__atomic_store_n(&s->active, 0, __ATOMIC_SEQ_CST);
			if (st == TX_QUIT)
				return NULL;
			usleep(200);
			continue;
		}
		/* Until SIGUSR1 interrupts it (EINTR), or LV_REPEAT frames. */
		if (bpf_prog_test_run_opts(s->prog_fd, &o) && errno != EINTR) {
			__atomic_store_n(&s->err, -errno, __ATOMIC_SEQ_CST);
			__atomic_store_n(&s->state, TX_IDLE, __ATOMIC_SEQ_CST);
		}
	}
}

int lv_sender_start(struct lv_ctx *x)
{
	struct sigaction sa = { .sa_handler = on_usr1 }; /* no SA_RESTART */
	struct lv_sender *s = &x->tx;
	sigset_t all, old;
	int err;

	s->prog_fd = bpf_program__fd(x->ref->progs.bench_live_tx);
	s->ns = x->tb.tx_ns;
	s->ifindex = x->tb.tx_ifindex;
	s->frames = x->frames;
	s->state = TX_IDLE;
	s->active = 1; /* until the thread says where it is */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, &s->old_usr1);
	/* The signals go to the main thread, which tears down. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	err = pthread_create(&s->th, NULL, sender_main, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		sigaction(SIGUSR1, &s->old_usr1, NULL);
		p_err("bench --live: cannot start the generator thread: %s", strerror(err));
		return -err;
	}
	s->started = true;
	return 0;
}

/* Run, or stop: the test run under way is interrupted with SIGUSR1. */
void lv_sender_set(struct lv_sender *s, int state)
{
	__atomic_store_n(&s->state, state, __ATOMIC_SEQ_CST);
	if (state == TX_RUN || !s->started)
		return;
	/* Again until it is out: a signal just before the test run begins is lost. */
	while (__atomic_load_n(&s->active, __ATOMIC_SEQ_CST)) {
		pthread_kill(s->th, SIGUSR1);
		usleep(1000);
	}
}

void lv_sender_stop(struct lv_sender *s)
{
	if (!s->started)
		return;
	lv_sender_set(s, TX_QUIT);
	pthread_join(s->th, NULL);
	sigaction(SIGUSR1, &s->old_usr1, NULL);
	s->started = false;
}

int lv_sender_error(struct lv_sender *s)
{
	int err = __atomic_load_n(&s->err, __ATOMIC_SEQ_CST);

	if (err)
		p_err("bench --live: the generator's test run failed: %s", strerror(-err));
	return err;
}

/* Frames the generator sent so far (its own counter). */
uint64_t lv_sent_now(const struct lv_ctx *x)
{
	return __atomic_load_n(&x->ref->bss->bench_live_sent, __ATOMIC_RELAXED);
}
