// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The producer side of the control channel: see ring.h.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/bpf.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "channel/ring.h"
#include "dynpf.skel.h"
#include "lib/log.h"
#include "lib/util.h"

static const char *const field_names[] = { DYNPF_FIELDS(DYNPF_NAME_ROW) };

static const char *const msg_names[] = { DYNPF_MSG_TYPES(DYNPF_NAME_ROW) };

const char *dynpf_field_name(unsigned int field)
{
	return DYNPF_NAME_OF(field_names, field, "unknown");
}

const char *dynpf_msg_name(unsigned int type)
{
	return DYNPF_NAME_OF(msg_names, type, "unknown");
}

static int on_ack(void *ctx, void *data, size_t size)
{
	struct dynpf_ctrl *c = ctx;
	struct dynpf_ack_commit *a;

	if (size < sizeof(struct dynpf_ack))
		return 0;
	if (c->nack == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 256;
		void *n = realloc(c->ack, cap * sizeof(*c->ack));

		if (!n)
			return -ENOMEM;
		c->ack = n;
		c->cap = cap;
	}
	a = &c->ack[c->nack++];
	memset(a, 0, sizeof(*a));
	memcpy(a, data, size < sizeof(*a) ? size : sizeof(*a));
	c->acked++;
	return 0;
}

int dynpf_ctrl_open(struct dynpf_ctrl *c, struct dynpf_bpf *skel)
{
	int err;

	memset(c, 0, sizeof(*c));
	c->skel = skel;
	/* Sequence numbers unique across producers, one after another: a
	 * message a killed producer left in the ring is never taken for ours. */
	{
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		c->next_seq = (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
	}
	c->self_drain = true;
	c->timeout_ms = 5000;
	c->reclaim_max = DYNPF_RECLAIM_PER_RUN;
	c->urb = user_ring_buffer__new(bpf_map__fd(skel->maps.dynpf_ctrl), NULL);
	if (!c->urb) {
		err = -errno;
		p_err("cannot open the control ring: %s", strerror(-err));
		return err;
	}
	c->acks = ring_buffer__new(bpf_map__fd(skel->maps.dynpf_acks), on_ack, c, NULL);
	if (!c->acks) {
		err = -errno;
		p_err("cannot open the ack ring: %s", strerror(-err));
		dynpf_ctrl_close(c);
		return err;
	}
	return 0;
}

static void gp_stop(struct dynpf_ctrl *c);

void dynpf_ctrl_close(struct dynpf_ctrl *c)
{
	gp_stop(c);
	user_ring_buffer__free(c->urb);
	ring_buffer__free(c->acks);
	free(c->ack);
	memset(c, 0, sizeof(*c));
}

/* ---- grace periods, in a thread of their own ----------------------------- */

/*
 * The grace-period thread. It waits for one grace period at a time, as the
 * producer asks (want), each after reading the state's generation and
 * reclaim epoch: once it has passed, no packet reads an older generation
 * and none is on an entry unlinked at an older epoch (struct
 * dynpf_drain_args). The drain runs stay the producer's own thread's: the
 * drain program must not run twice at once.
 */
struct dynpf_gp {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint64_t want;     /* grace periods asked for (a count) */
	uint64_t started;  /* the count the one under way answers */
	uint64_t done;     /* the count answered */
	uint64_t mark_gen; /* the generation and epoch read before the last one */
	uint32_t mark_epoch;
	int err;
	bool quit;
	int efd;
	int state_fd, outer_fd, inner_fd;
};

/* Make the kernel wait for an RCU grace period: map-in-map updates do. */
static int gp_wait_one(struct dynpf_gp *g)
{
	uint32_t zero = 0;

	if (bpf_map_update_elem(g->outer_fd, &zero, &g->inner_fd, BPF_ANY))
		return -errno;
	return 0;
}

static void *gp_main(void *arg)
{
	struct dynpf_gp *g = arg;
	struct dynpf_state st;
	uint64_t ticket, one = 1;
	uint32_t zero = 0;
	int err;

	pthread_mutex_lock(&g->mu);
	while (!g->quit) {
		if (g->done >= g->want) {
			pthread_cond_wait(&g->cv, &g->mu);
			continue;
		}
		ticket = g->want;
		g->started = ticket;
		pthread_mutex_unlock(&g->mu);
		/* What the packets read before the grace period starts. */
		err = bpf_map_lookup_elem(g->state_fd, &zero, &st) ? -errno : 0;
		err = err ?: gp_wait_one(g);
		pthread_mutex_lock(&g->mu);
		if (!err) {
			g->mark_gen = DYNPF_PUB_GEN(st.pub);
			g->mark_epoch = st.epoch;
		} else {
			g->err = err;
		}
		g->done = ticket;
		pthread_cond_broadcast(&g->cv);
		if (write(g->efd, &one, sizeof(one)) < 0)
			(void)0; /* a full counter is still readable */
	}
	pthread_mutex_unlock(&g->mu);
	return NULL;
}

static int gp_start(struct dynpf_ctrl *c)
{
	sigset_t all, old;
	struct dynpf_gp *g;
	int err;

	if (c->gp)
		return 0;
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (g->efd < 0) {
		err = -errno;
		free(g);
		return err;
	}
	g->state_fd = bpf_map__fd(c->skel->maps.dynpf_state);
	g->outer_fd = bpf_map__fd(c->skel->maps.dynpf_sync);
	g->inner_fd = bpf_map__fd(c->skel->maps.dynpf_sync_inner);
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->cv, NULL);
	/* Every signal blocked in the thread: a signal to the process is the
	 * producer's (the daemon reads SIGTERM from a signalfd; had the thread
	 * taken it, its default action would end the process unclean). */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = -pthread_create(&g->th, NULL, gp_main, g);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		close(g->efd);
		free(g);
		return err;
	}
	c->gp = g;
	return 0;
}

static void gp_stop(struct dynpf_ctrl *c)
{
	struct dynpf_gp *g = c->gp;

	if (!g)
		return;
	pthread_mutex_lock(&g->mu);
	g->quit = true;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
	pthread_join(g->th, NULL);
	pthread_mutex_destroy(&g->mu);
	pthread_cond_destroy(&g->cv);
	close(g->efd);
	free(g);
	c->gp = NULL;
}

/* Ask for a grace period in the background, unless one is under way. */
static int gp_request(struct dynpf_ctrl *c)
{
	int err = gp_start(c);

	if (err)
		return err;
	pthread_mutex_lock(&c->gp->mu);
	if (c->gp->want == c->gp->done) {
		c->gp->want++;
		pthread_cond_broadcast(&c->gp->cv);
	}
	pthread_mutex_unlock(&c->gp->mu);
	return 0;
}

/* Wait for a grace period that starts after now. */
static int gp_sync(struct dynpf_ctrl *c)
{
	struct dynpf_gp *g;
	uint64_t target;
	int err = gp_start(c);

	if (err)
		return err;
	g = c->gp;
	pthread_mutex_lock(&g->mu);
	target = g->started + 1;
	if (g->want < target)
		g->want = target;
	pthread_cond_broadcast(&g->cv);
	while (g->done < target && !g->err)
		pthread_cond_wait(&g->cv, &g->mu);
	err = g->err;
	pthread_mutex_unlock(&g->mu);
	return err;
}

int dynpf_ctrl_gp_fd(struct dynpf_ctrl *c)
{
	return c->gp ? c->gp->efd : -1;
}

/* One run of the drain program, and the acks it wrote. */
static int drain_once(struct dynpf_ctrl *c, uint32_t max_msgs, uint32_t reclaim, uint32_t *drained)
{
	/* The drain program's context (include/dynpf/ctrl.h). */
	struct dynpf_drain_args args = { .max_msgs = max_msgs, .reclaim_max = reclaim };
	int err;

	if (c->gp) {
		pthread_mutex_lock(&c->gp->mu);
		args.synced_gen = c->gp->mark_gen;
		args.synced_epoch = c->gp->mark_epoch;
		err = c->gp->err;
		pthread_mutex_unlock(&c->gp->mu);
		if (err) {
			p_err("cannot wait for an RCU grace period: %s", strerror(-err));
			return err;
		}
	}
	/* A syscall program's test run copies the context back into ctx_in. */
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = &args, .ctx_size_in = sizeof(args));

	err = bpf_prog_test_run_opts(bpf_program__fd(c->skel->progs.dynpf_drain), &opts);
	if (err) {
		err = -errno;
		p_err("cannot run the drain program: %s", strerror(-err));
		return err;
	}
	c->held = args.err == -EAGAIN;
	c->nheld += c->held;
	if (args.err && !c->held) {
		p_err("the drain program failed: %s", strerror(-args.err));
		return args.err;
	}
	err = ring_buffer__consume(c->acks);
	if (err < 0) {
		p_err("cannot read the acks: %s", strerror(-err));
		return err;
	}
	c->gen = args.gen;
	c->limbo = args.limbo;
	/* Entries wait: the next grace period, in the background. */
	if (c->limbo) {
		err = gp_request(c);
		if (err) {
			p_err("cannot start the grace-period thread: %s", strerror(-err));
			return err;
		}
	}
	*drained = args.drained;
	return 0;
}

int dynpf_ctrl_flush(struct dynpf_ctrl *c)
{
	uint32_t drained;
	int err;

	while (c->acked < c->sent || c->held) {
		/* Each message retires an entry at most: reclaim as many more. */
		uint64_t pending = c->sent - c->acked;
		uint32_t reclaim = c->reclaim_max +
				   (pending < DYNPF_ACK_MAX_RUN ? pending : DYNPF_ACK_MAX_RUN);

		err = drain_once(c, DYNPF_ACK_MAX_RUN, reclaim, &drained);
		if (err)
			return err;
		if (c->held) {
			/* A commit waits for room: what the next grace period frees. */
			err = gp_sync(c);
			if (err) {
				p_err("cannot wait for an RCU grace period: %s", strerror(-err));
				return err;
			}
			continue;
		}
		if (!drained && c->acked < c->sent) {
			p_err("%llu messages sent but not acked, and the ring is empty",
			      (unsigned long long)(c->sent - c->acked));
			return -EPROTO;
		}
	}
	return 0;
}

int dynpf_ctrl_reclaim(struct dynpf_ctrl *c, uint32_t max)
{
	uint64_t n;
	uint32_t drained;

	if (c->gp && read(c->gp->efd, &n, sizeof(n)) < 0)
		(void)0; /* nothing to read: a run all the same */
	if (c->acked < c->sent)
		return 0; /* a flush will do it */
	return drain_once(c, DYNPF_ACK_MAX_RUN, max ? max : 2 * DYNPF_MAX_RULES, &drained);
}

int dynpf_ctrl_quiesce(struct dynpf_ctrl *c)
{
	uint32_t drained;
	int err;

	err = dynpf_ctrl_flush(c);
	err = err ?: drain_once(c, DYNPF_ACK_MAX_RUN, 2 * DYNPF_MAX_RULES, &drained);
	/* Two grace periods at most: one to unlink, one to free. */
	for (int i = 0; !err && c->limbo && i < 8; i++) {
		err = gp_sync(c);
		err = err ?: drain_once(c, DYNPF_ACK_MAX_RUN, 2 * DYNPF_MAX_RULES, &drained);
	}
	if (!err && c->limbo) {
		p_err("%u rule entries still wait to be reclaimed after 8 grace periods", c->limbo);
		err = -EBUSY;
	}
	return err;
}

/*
 * A producer killed between reserve and submit leaves its record busy, and
 * the drain stops at a busy record for good: nothing after it would ever be
 * applied. The producer taking over marks such records discarded (what
 * user_ring_buffer__discard does), which the drain skips. Only safe with no
 * other producer alive: the daemon at start. The records discarded, or
 * -errno.
 */
static int discard_abandoned(struct dynpf_ctrl *c)
{
	int fd = bpf_map__fd(c->skel->maps.dynpf_ctrl), n = 0;
	size_t page = sysconf(_SC_PAGESIZE), size = bpf_map__max_entries(c->skel->maps.dynpf_ctrl);
	uint64_t cons, prod, mask = size - 1;
	void *cpage, *ppage;
	uint8_t *data;

	/* The consumer's page is read-only to us; the producer's page and
	 * the data, mapped twice over for wrap-around, are ours to write. */
	cpage = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
	if (cpage == MAP_FAILED)
		return -errno;
	ppage = mmap(NULL, page + 2 * size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, page);
	if (ppage == MAP_FAILED) {
		n = -errno;
		munmap(cpage, page);
		return n;
	}
	data = (uint8_t *)ppage + page;
	cons = __atomic_load_n((uint64_t *)cpage, __ATOMIC_ACQUIRE);
	prod = __atomic_load_n((uint64_t *)ppage, __ATOMIC_ACQUIRE);
	while (cons < prod) {
		uint32_t *hdr = (uint32_t *)(data + (cons & mask));
		uint32_t len = __atomic_load_n(hdr, __ATOMIC_ACQUIRE);
		uint32_t body = len & ~(BPF_RINGBUF_BUSY_BIT | BPF_RINGBUF_DISCARD_BIT);

		if (len & BPF_RINGBUF_BUSY_BIT) {
			__atomic_store_n(hdr, body | BPF_RINGBUF_DISCARD_BIT, __ATOMIC_RELEASE);
			n++;
		}
		cons += (body + BPF_RINGBUF_HDR_SZ + 7) & ~7ull;
	}
	munmap(ppage, page + 2 * size);
	munmap(cpage, page);
	return n;
}

int dynpf_ctrl_recover(struct dynpf_ctrl *c, int *discarded)
{
	uint32_t drained;
	int err, total = 0;

	err = discard_abandoned(c);
	if (err < 0) {
		p_err("cannot map the control ring to look for abandoned messages: %s",
		      strerror(-err));
		return err;
	}
	if (discarded)
		*discarded = err;

	/* At most the ring's worth of messages: a few runs of the drain. */
	for (int i = 0; i < 64; i++) {
		err = drain_once(c, DYNPF_ACK_MAX_RUN, c->reclaim_max, &drained);
		if (!err && c->held) /* a commit it left, waiting for room */
			err = gp_sync(c);
		if (err)
			return err;
		if (!drained && !c->held)
			break;
		total += drained;
	}
	/* Their acks answer a dead producer: nobody's. */
	c->acked = c->sent;
	dynpf_ctrl_take(c);
	err = dynpf_ctrl_abort(c, NULL);
	if (!err)
		err = dynpf_ctrl_flush(c);
	dynpf_ctrl_take(c);
	return err ? err : total;
}

int dynpf_ctrl_send(struct dynpf_ctrl *c, void *msg, uint32_t size, uint64_t *seq)
{
	struct dynpf_msg_hdr *h = msg;
	void *slot;
	int err;

	h->version = DYNPF_CTRL_VERSION;
	h->size = size;
	h->seq = c->next_seq++;
	slot = user_ring_buffer__reserve(c->urb, size);
	if (!slot && errno == ENOSPC)
		c->full++;
	if (!slot && errno == ENOSPC && c->self_drain) {
		err = dynpf_ctrl_flush(c);
		if (err)
			return err;
		slot = user_ring_buffer__reserve(c->urb, size);
	}
	if (!slot && errno == ENOSPC && !c->self_drain) {
		slot = user_ring_buffer__reserve_blocking(c->urb, size, c->timeout_ms);
		/* Out of time, libbpf says ETIMEDOUT or, from its last try,
		 * ENOSPC: either way the ring stayed full. */
		if (!slot && errno == ENOSPC)
			errno = ETIMEDOUT;
	}
	if (!slot) {
		err = -errno;
		if (err == -ETIMEDOUT)
			p_err("the control ring stayed full for %d ms: is the drain running?",
			      c->timeout_ms);
		else
			p_err("cannot reserve %u bytes in the control ring: %s", size,
			      strerror(-err));
		return err;
	}
	memcpy(slot, msg, size);
	user_ring_buffer__submit(c->urb, slot);
	c->sent++;
	if (c->sent - c->acked > c->peak)
		c->peak = c->sent - c->acked;
	if (seq)
		*seq = h->seq;
	return 0;
}

int dynpf_ctrl_begin(struct dynpf_ctrl *c, uint64_t *seq)
{
	struct dynpf_msg_txn m = { .h.type = DYNPF_MSG_TXN_BEGIN };

	return dynpf_ctrl_send(c, &m, sizeof(m), seq);
}

int dynpf_ctrl_commit(struct dynpf_ctrl *c, uint64_t *seq)
{
	struct dynpf_msg_txn m = { .h.type = DYNPF_MSG_TXN_COMMIT };

	return dynpf_ctrl_send(c, &m, sizeof(m), seq);
}

int dynpf_ctrl_abort(struct dynpf_ctrl *c, uint64_t *seq)
{
	struct dynpf_msg_txn m = { .h.type = DYNPF_MSG_TXN_ABORT };

	return dynpf_ctrl_send(c, &m, sizeof(m), seq);
}

int dynpf_ctrl_add(struct dynpf_ctrl *c, const struct dynpf_rule *r, uint64_t *seq)
{
	struct dynpf_msg_rule_add m = { .h.type = DYNPF_MSG_RULE_ADD, .rule = *r };

	return dynpf_ctrl_send(c, &m, sizeof(m), seq);
}

int dynpf_ctrl_del(struct dynpf_ctrl *c, uint32_t id, uint64_t *seq)
{
	struct dynpf_msg_rule_del m = { .h.type = DYNPF_MSG_RULE_DEL, .id = id };

	return dynpf_ctrl_send(c, &m, sizeof(m), seq);
}

int dynpf_ctrl_set(struct dynpf_ctrl *c, uint32_t key, uint64_t value, uint64_t *seq)
{
	struct dynpf_msg_set m = { .h.type = DYNPF_MSG_SET, .key = key, .value = value };

	return dynpf_ctrl_send(c, &m, sizeof(m), seq);
}

int dynpf_ctrl_reset(struct dynpf_ctrl *c, uint32_t id, uint64_t *seq)
{
	struct dynpf_msg_counter_reset m = { .h.type = DYNPF_MSG_COUNTER_RESET, .id = id };

	return dynpf_ctrl_send(c, &m, sizeof(m), seq);
}

int dynpf_ctrl_proto_add(struct dynpf_ctrl *c, const struct dynpf_proto_desc *d, uint64_t *seq)
{
	struct dynpf_msg_proto_add m = { .h.type = DYNPF_MSG_PROTO_ADD, .d = *d };

	return dynpf_ctrl_send(c, &m, sizeof(m), seq);
}

int dynpf_ctrl_proto_del(struct dynpf_ctrl *c, uint32_t id, uint64_t *seq)
{
	struct dynpf_msg_proto_del m = { .h.type = DYNPF_MSG_PROTO_DEL, .id = id };

	return dynpf_ctrl_send(c, &m, sizeof(m), seq);
}

const struct dynpf_ack_commit *dynpf_ctrl_ack(const struct dynpf_ctrl *c, uint64_t seq)
{
	/* Acks come in message order: search from the end of the batch. */
	for (size_t i = c->nack; i-- > 0;)
		if (c->ack[i].a.seq == seq)
			return &c->ack[i];
	return NULL;
}

void dynpf_ctrl_take(struct dynpf_ctrl *c)
{
	c->nack = 0;
}
