// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench: rule transactions through the control channel
 * (loader/channel/ring.h), as the rule benchmarks and --live drive it,
 * exactly as a producer would: begin, adds and deletes, commit, flush, and
 * the commit's ack checked; a refusal is said, naming the message.
 */
#include <errno.h>
#include <string.h>

#include "bench/bench.h"
#include "channel/ring.h"
#include "lib/log.h"

int bench_say_refusal(const struct dynpf_ctrl *c, const char *who, const char *what)
{
	for (size_t i = 0; i < c->nack; i++) {
		const struct dynpf_ack *a = &c->ack[i].a;

		if (a->err) {
			p_err("%s: %s: %s (seq %llu) refused: %s, field %s", who, what,
			      dynpf_msg_name(a->type), (unsigned long long)a->seq,
			      strerror(-a->err), dynpf_field_name(a->field));
			return a->err;
		}
	}
	p_err("%s: %s: the commit was not acked", who, what);
	return -EPROTO;
}

int bench_commit(struct dynpf_ctrl *c, const char *who, const char *what,
		 struct dynpf_ack_commit *ack)
{
	const struct dynpf_ack_commit *a;
	uint64_t seq;
	int err;

	err = dynpf_ctrl_commit(c, &seq);
	err = err ?: dynpf_ctrl_flush(c);
	if (err)
		return err; /* said by the library */
	a = dynpf_ctrl_ack(c, seq);
	if (!a || a->a.err)
		return bench_say_refusal(c, who, what);
	if (ack)
		*ack = *a;
	return 0;
}

int bench_txn(struct dynpf_ctrl *c, uint32_t n, bench_op_fn op, const void *arg, const char *who,
	      const char *what, struct dynpf_ack_commit *ack)
{
	struct dynpf_rule r;
	bool del;
	int err;

	dynpf_ctrl_take(c);
	err = dynpf_ctrl_begin(c, NULL);
	for (uint32_t i = 0; !err && i < n; i++) {
		del = false;
		op(arg, i, &del, &r);
		if (del)
			err = dynpf_ctrl_del(c, r.id, NULL);
		else
			err = dynpf_ctrl_add(c, &r, NULL);
	}
	return err ?: bench_commit(c, who, what, ack);
}
