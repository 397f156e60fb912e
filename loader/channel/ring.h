/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The producer side of the control channel (include/dynpf/ctrl.h): writes
 * messages into the user ring buffer dynpf_ctrl, runs the drain program
 * (bpf/drain.bpf.c) with BPF_PROG_TEST_RUN, and collects one ack per message.
 *
 * After a commit the producer makes the kernel wait for an RCU grace period
 * (an update of the map-in-map dynpf_sync) before the next drain run: then
 * no packet still reads the side the commit left, and the drain may bring
 * it up to date.
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

struct dynpf_ctrl {
	struct dynpf_bpf *skel; /* borrowed */
	struct user_ring_buffer *urb;
	struct ring_buffer *acks;
	uint64_t next_seq;
	uint64_t sent;  /* messages written */
	uint64_t acked; /* acks received */
	uint64_t peak;  /* the most messages in the ring at once (sent, not yet acked) */
	uint64_t full;  /* messages that found the ring full (drained, or waited on) */
	bool need_sync; /* a commit since the last grace period */
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

/* Run the drain until every message sent is acked. 0 or -errno. */
int dynpf_ctrl_flush(struct dynpf_ctrl *c);

/* Message helpers: each is dynpf_ctrl_send() of one message. */
int dynpf_ctrl_begin(struct dynpf_ctrl *c, uint64_t *seq);
int dynpf_ctrl_commit(struct dynpf_ctrl *c, uint64_t *seq);
int dynpf_ctrl_abort(struct dynpf_ctrl *c, uint64_t *seq);
int dynpf_ctrl_add(struct dynpf_ctrl *c, const struct dynpf_rule *r, uint64_t *seq);
int dynpf_ctrl_del(struct dynpf_ctrl *c, uint32_t id, uint64_t *seq);
int dynpf_ctrl_set(struct dynpf_ctrl *c, uint32_t key, uint64_t value, uint64_t *seq);
int dynpf_ctrl_reset(struct dynpf_ctrl *c, uint32_t id, uint64_t *seq);

/* The ack of message seq among those collected, or NULL. */
const struct dynpf_ack_commit *dynpf_ctrl_ack(const struct dynpf_ctrl *c, uint64_t seq);

/* Forget the collected acks. */
void dynpf_ctrl_take(struct dynpf_ctrl *c);

/* "match.src" for DYNPF_F_*; "rule-add" for DYNPF_MSG_*. */
const char *dynpf_field_name(unsigned int field);
const char *dynpf_msg_name(unsigned int type);

#endif
