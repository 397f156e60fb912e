/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The producer side of the control channel (include/dynpf/ctrl.h): writes
 * messages into the user ring buffer dynpf_ctrl, runs the drain program
 * (bpf/drain.bpf.c) with BPF_PROG_TEST_RUN, and collects one ack per message.
 *
 * A commit is in force when its ack is read: nobody waits for the packets
 * in flight. What commits retire is reclaimed later (bpf/rules.h): a thread
 * of the producer's waits for RCU grace periods (an update of the map-in-map
 * dynpf_sync makes the kernel wait for one), one after another while
 * entries wait in limbo, and each drain run reclaims what the grace periods
 * passed so far allow, at most reclaim_max entries. A program that waits
 * for its requests in a poll loop (the daemon) polls dynpf_ctrl_gp_fd() and
 * calls dynpf_ctrl_reclaim() when it is readable.
 */
#ifndef DYNPF_LOADER_CTRL_H
#define DYNPF_LOADER_CTRL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dynpf/ctrl.h"

struct dynpf_bpf;
struct user_ring_buffer;
struct ring_buffer;
struct dynpf_gp;

/*
 * Entries a drain run that carries messages reclaims, at most, each phase,
 * besides one per message it carries (a message retires one at most): the
 * cost it adds to the ack of a small transaction stays in the tens of
 * microseconds, and reclaim keeps pace with any stream of transactions.
 */
#define DYNPF_RECLAIM_PER_RUN 64

struct dynpf_ctrl {
	struct dynpf_bpf *skel; /* borrowed */
	struct user_ring_buffer *urb;
	struct ring_buffer *acks;
	uint64_t next_seq;
	uint64_t sent;  /* messages written */
	uint64_t acked; /* acks received */
	uint64_t peak;  /* the most messages in the ring at once (sent, not yet acked) */
	uint64_t full;  /* messages that found the ring full (drained, or waited on) */
	/* After the last drain run: */
	uint64_t gen;         /* the generation packets read */
	uint32_t limbo;       /* entries retired and not yet free */
	bool held;            /* a commit waits for a grace period to make room */
	uint64_t nheld;       /* drain runs that held a commit so, since the open */
	uint32_t reclaim_max; /* entries a run reclaims, at most (each phase) */
	struct dynpf_gp *gp;  /* the grace-period thread, once started */
	/*
	 * true: this process also runs the drain (offline use): a full ring is
	 * drained, not waited on. false: another process drains; a full ring
	 * is waited on for timeout_ms, then an error.
	 */
	bool self_drain;
	int timeout_ms;
	/* The acks of the messages sent since the last dynpf_ctrl_take(). */
	struct dynpf_ack_commit *ack;
	size_t nack, cap;
};

int dynpf_ctrl_open(struct dynpf_ctrl *c, struct dynpf_bpf *skel);
void dynpf_ctrl_close(struct dynpf_ctrl *c);

/*
 * Write one message (its header's version, size and seq are filled in);
 * *seq gets the sequence number. 0 or -errno (-ETIMEDOUT: the ring stayed
 * full for timeout_ms).
 */
int dynpf_ctrl_send(struct dynpf_ctrl *c, void *msg, uint32_t size, uint64_t *seq);

/*
 * For a producer taking over the ring (the daemon at start): discard what a
 * killed producer reserved and never submitted (*discarded: how many, if
 * not NULL), apply what it submitted, with its acks dropped, then abort the
 * transaction it may have left open. The messages drained, or -errno.
 */
int dynpf_ctrl_recover(struct dynpf_ctrl *c, int *discarded);

/*
 * Run the drain until every message sent is acked. It waits for a grace
 * period only when a commit needs the room one makes (a whole rule set
 * replaced twice in a row). 0 or -errno.
 */
int dynpf_ctrl_flush(struct dynpf_ctrl *c);

/*
 * An eventfd that is readable when a grace period the producer waited for
 * in the background has passed (-1 before the first): then call
 * dynpf_ctrl_reclaim(). It reads the eventfd itself.
 */
int dynpf_ctrl_gp_fd(struct dynpf_ctrl *c);

/*
 * A drain run that reclaims (at most max entries each phase, 0: as many as
 * the grace periods passed allow) and asks for the next grace period while
 * entries wait. Only with every message sent acked. 0 or -errno.
 */
int dynpf_ctrl_reclaim(struct dynpf_ctrl *c, uint32_t max);

/*
 * Wait until nothing waits in limbo: grace periods, each followed by a
 * drain run, until every retired entry is free. 0 or -errno.
 */
int dynpf_ctrl_quiesce(struct dynpf_ctrl *c);

/* Message helpers: each is dynpf_ctrl_send() of one message. */
int dynpf_ctrl_begin(struct dynpf_ctrl *c, uint64_t *seq);
int dynpf_ctrl_commit(struct dynpf_ctrl *c, uint64_t *seq);
int dynpf_ctrl_abort(struct dynpf_ctrl *c, uint64_t *seq);
int dynpf_ctrl_add(struct dynpf_ctrl *c, const struct dynpf_rule *r, uint64_t *seq);
int dynpf_ctrl_del(struct dynpf_ctrl *c, uint32_t id, uint64_t *seq);
int dynpf_ctrl_set(struct dynpf_ctrl *c, uint32_t key, uint64_t value, uint64_t *seq);
int dynpf_ctrl_reset(struct dynpf_ctrl *c, uint32_t id, uint64_t *seq);
int dynpf_ctrl_proto_add(struct dynpf_ctrl *c, const struct dynpf_proto_desc *d, uint64_t *seq);
int dynpf_ctrl_proto_del(struct dynpf_ctrl *c, uint32_t id, uint64_t *seq);

/* The ack of message seq among those collected, or NULL. */
const struct dynpf_ack_commit *dynpf_ctrl_ack(const struct dynpf_ctrl *c, uint64_t seq);

/* Forget the collected acks. */
void dynpf_ctrl_take(struct dynpf_ctrl *c);

/* "match.src" for DYNPF_F_*; "rule-add" for DYNPF_MSG_*. */
const char *dynpf_field_name(unsigned int field);
const char *dynpf_msg_name(unsigned int type);

#endif
