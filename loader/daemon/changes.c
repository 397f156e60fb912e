// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Rule changes one at a time, and streams of them: the requests rule-add,
 * rule-del and rules-apply, each change a transaction of its own (or a
 * blank-line-separated batch of them, one transaction), acked when its
 * commit is: nothing waits for the packets in flight (docs/rules.md). And
 * rule lifetimes: a rule added with `timeout` is removed when it runs out.
 *
 * What it keeps: the rule set's maps as memory (a view, channel/ruleset.h:
 * the daemon is the only producer, so what it reads between its drain runs
 * is the last commit's set), the rule ids in use (for a rule without an id,
 * the lowest free one), kept with every commit, and a heap of the lifetimes,
 * soonest first. The expiry time is in the rule itself, in the pinned maps
 * (struct dynpf_rule.expires): a restarted daemon finds it there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "channel/ring.h"
#include "channel/ruleset.h"
#include "daemon/internal.h"
#include "daemon/request.h"
#include "decltab.h"
#include "match.h"
#include "protocheck.h"
#include "lang/rules_lang.h"
#include "lib/log.h"
#include "lib/util.h"

#define jadd(o, k, v) json_object_object_add(o, k, v)

static json_object *reply(bool ok, const char *err)
{
	json_object *o = json_object_new_object();

	jadd(o, "ok", json_object_new_boolean(ok));
	if (!ok)
		jadd(o, "error", json_object_new_string(err));
	return o;
}

/* ---- lifetimes: a heap of (expires, id), soonest first --------------------- */

static void heap_push(struct daemon *d, __u64 at, __u32 id)
{
	struct expiry e = { at, id };
	size_t i;

	if (d->nexp == d->capexp) {
		size_t cap = d->capexp ? 2 * d->capexp : 256;
		struct expiry *n = realloc(d->exp, cap * sizeof(*n));

		if (!n) {
			p_err("out of memory: rule %u will not expire", id);
			return;
		}
		d->exp = n;
		d->capexp = cap;
	}
	for (i = d->nexp++; i && d->exp[(i - 1) / 2].at > at; i = (i - 1) / 2)
		d->exp[i] = d->exp[(i - 1) / 2];
	d->exp[i] = e;
}

static void heap_pop(struct daemon *d)
{
	struct expiry last = d->exp[--d->nexp];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < d->nexp) {
		if (c + 1 < d->nexp && d->exp[c + 1].at < d->exp[c].at)
			c++;
		if (d->exp[c].at >= last.at)
			break;
		d->exp[i] = d->exp[c];
		i = c;
	}
	if (d->nexp)
		d->exp[i] = last;
}

void changes_rebuild(struct daemon *d)
{
	memset(d->ids, 0, sizeof(*d->ids));
	d->nexp = 0;
	for (__u32 id = 1; id < d->rv.nids; id++) {
		const struct dynpf_rule *r = dynpf_rules_view_get(&d->rv, id);

		if (!r)
			continue;
		dynpf_rule_ids_set(d->ids, id);
		if (r->expires)
			heap_push(d, r->expires, id);
	}
}

int changes_open(struct daemon *d)
{
	int err;

	d->ids = calloc(1, sizeof(*d->ids));
	if (!d->ids)
		return -ENOMEM;
	err = dynpf_rules_view_open(d->skel, &d->rv);
	if (err) {
		p_err("cannot map the rule set's maps: %s", strerror(-err));
		return err;
	}
	changes_rebuild(d);
	return 0;
}

void changes_close(struct daemon *d)
{
	dynpf_rules_view_close(&d->rv);
	free(d->ids);
	d->ids = NULL;
	free(d->exp);
	d->exp = NULL;
	d->nexp = d->capexp = 0;
}

static void ids_clear(struct dynpf_rule_ids *ids, __u32 id)
{
	if (id < DYNPF_MAX_RULES)
		ids->w[id / 64] &= ~(1ull << (id % 64));
}

/* The protocols the active set declares: what its rules may test. */
static const struct dynpf_proto_tab *cur_protos(const struct daemon *d)
{
	return &d->rv.protos[dynpf_proto_tab_cur(&d->rv.protos[0], &d->rv.protos[1],
						 d->rv.st->gen)];
}

/* ---- transactions of changes ---------------------------------------------- */

/* One change of a transaction, and its message. */
struct change {
	struct dynpf_change c;
	unsigned long line;
	uint64_t seq;
	char tests[80]; /* a deletion of a protocol: the rules that test it */
};

/* One transaction: its lines, its changes, its commit, and what came of it. */
struct txn {
	unsigned long line, last;
	struct change *ch;
	size_t n;
	uint64_t seq_commit;
	bool sent;
	char err[600]; /* why it was refused, or "" */
	__u32 gen;
};

/* A rule's id into the list ids (n of them, at most max), once. */
static void ids_add(__u32 *ids, size_t *n, size_t max, __u32 id)
{
	for (size_t i = 0; i < *n; i++)
		if (ids[i] == id)
			return;
	if (*n < max)
		ids[(*n)++] = id;
}

/*
 * The rules that test the protocol deletion c (transaction t[i], change k)
 * deletes, as " (rule 11 tests it)" or " (rules 11, 12 test it)", the first
 * eight, into c's tests; "" when none does: the active set's, with what
 * the changes before c in the request add and delete. Said if the drain
 * refuses the deletion (EBUSY): the transactions run before it is known.
 */
static void rules_testing(const struct daemon *d, const struct txn *t, size_t i, size_t k)
{
	struct change *c = &t[i].ch[k];
	__u32 id = c->c.proto.id, ids[64];
	size_t n = 0, len = sizeof(c->tests), off;

	for (__u32 r = 1; r < d->rv.nids; r++) {
		const struct dynpf_rule *rule = dynpf_rules_view_get(&d->rv, r);

		if (rule && (dynpf_rule_decls(rule) & (1u << id)))
			ids_add(ids, &n, 64, r);
	}
	for (size_t j = 0; j <= i; j++) {
		for (size_t m = 0; m < t[j].n && (j < i || m < k); m++) {
			const struct dynpf_change *e = &t[j].ch[m].c;

			if (t[j].err[0])
				break;
			if (e->kind == DYNPF_CHANGE_ADD &&
			    (dynpf_rule_decls(&e->rule) & (1u << id)))
				ids_add(ids, &n, 64, e->rule.id);
			for (size_t x = 0; e->kind == DYNPF_CHANGE_DEL && x < n; x++)
				if (ids[x] == e->rule.id)
					ids[x] = ids[--n];
		}
	}
	c->tests[0] = 0;
	if (!n)
		return;
	off = snprintf(c->tests, len, " (rule%s", n > 1 ? "s" : "");
	for (size_t x = 0; x < n && x < 8 && off < len; x++)
		off += snprintf(c->tests + off, len - off, "%s %u", x ? "," : "", ids[x]);
	if (off < len)
		snprintf(c->tests + off, len - off, "%s %s it)", n > 8 ? ", ..." : "",
			 n > 1 ? "test" : "tests");
}

/* What a refused change says: its line, its rule or protocol, why. */
static void say_refused(struct txn *t, const char *name, const struct change *c,
			const struct dynpf_ack *a)
{
	__u32 id = c->c.rule.id;

	if (c->c.kind == DYNPF_CHANGE_PROTO_ADD || c->c.kind == DYNPF_CHANGE_PROTO_DEL) {
		const char *rules = a->err == -EBUSY ? c->tests : "";

		snprintf(t->err, sizeof(t->err),
			 "%s:%lu: %s of protocol '%.15s' refused: field %s: %s%s", name, c->line,
			 dynpf_msg_name(c->c.kind == DYNPF_CHANGE_PROTO_ADD ? DYNPF_MSG_PROTO_ADD
									    : DYNPF_MSG_PROTO_DEL),
			 c->c.proto.name, dynpf_field_name(a->field), dynpf_proto_refusal(a),
			 rules);
		return;
	}
	if (c->c.kind == DYNPF_CHANGE_DEL && a->err == -ENOENT)
		snprintf(t->err, sizeof(t->err), "%s:%lu: rule %u: no such rule", name, c->line,
			 id);
	else if (c->c.kind == DYNPF_CHANGE_ADD && a->err == -EEXIST)
		snprintf(t->err, sizeof(t->err),
			 "%s:%lu: rule %u exists: delete it first (rule del %u)", name, c->line, id,
			 id);
	else
		snprintf(t->err, sizeof(t->err),
			 "%s:%lu: rule %u refused by the classifier: field %s: %s", name, c->line,
			 id, dynpf_field_name(a->field), strerror(-a->err));
}

/*
 * Send the transactions that parsed, flush once, and read what came of each;
 * each counted for the metrics (metrics.c), the time of the flush its own.
 */
static int run_txns(struct daemon *d, struct txn *t, size_t n, const char *name)
{
	double t0 = dynpf_now();
	int err = 0;

	dynpf_ctrl_take(&d->ctrl);
	for (size_t i = 0; i < n && !err; i++) {
		if (t[i].err[0] || !t[i].n)
			continue;
		err = dynpf_ctrl_begin(&d->ctrl, NULL);
		for (size_t k = 0; k < t[i].n && !err; k++) {
			struct change *c = &t[i].ch[k];

			switch (c->c.kind) {
			case DYNPF_CHANGE_ADD:
				err = dynpf_ctrl_add(&d->ctrl, &c->c.rule, &c->seq);
				break;
			case DYNPF_CHANGE_DEL:
				err = dynpf_ctrl_del(&d->ctrl, c->c.rule.id, &c->seq);
				break;
			case DYNPF_CHANGE_PROTO_ADD:
				err = dynpf_ctrl_proto_add(&d->ctrl, &c->c.proto, &c->seq);
				break;
			case DYNPF_CHANGE_PROTO_DEL:
				rules_testing(d, t, i, k);
				err = dynpf_ctrl_proto_del(&d->ctrl, c->c.proto.id, &c->seq);
				break;
			default:
				err = -EINVAL;
			}
		}
		err = err ?: dynpf_ctrl_commit(&d->ctrl, &t[i].seq_commit);
		t[i].sent = !err;
	}
	err = err ?: dynpf_ctrl_flush(&d->ctrl);
	counts_acks(d);
	for (size_t i = 0; i < n; i++) {
		const struct dynpf_ack_commit *a;

		if (!t[i].sent)
			continue;
		a = err ? NULL : dynpf_ctrl_ack(&d->ctrl, t[i].seq_commit);
		if (!a) {
			snprintf(t[i].err, sizeof(t[i].err),
				 "%s:%lu: the control channel failed%s%s", name, t[i].line,
				 err ? ": " : "", err ? strerror(-err) : "");
			continue;
		}
		if (!a->a.err) {
			t[i].gen = a->a.gen;
			continue;
		}
		for (size_t k = 0; k < t[i].n; k++) {
			const struct dynpf_ack_commit *ca =
				dynpf_ctrl_ack(&d->ctrl, t[i].ch[k].seq);

			if (ca && ca->a.err) {
				say_refused(&t[i], name, &t[i].ch[k], &ca->a);
				break;
			}
		}
		if (!t[i].err[0])
			snprintf(t[i].err, sizeof(t[i].err),
				 "%s:%lu: the transaction was refused: %s", name, t[i].line,
				 strerror(-a->a.err));
	}
	/* What the commits did, to the ids and the lifetimes. */
	for (size_t i = 0; i < n; i++) {
		if (t[i].sent)
			counts_txn_only(d, dynpf_now() - t0,
					!t[i].err[0]                                ? 0
					: dynpf_ctrl_ack(&d->ctrl, t[i].seq_commit) ? -EINVAL
										    : -EIO);
		else if (t[i].err[0])
			counts_txn_only(d, 0, -EINVAL); /* the rule language refused it */
		if (t[i].err[0] || !t[i].sent)
			continue;
		for (size_t k = 0; k < t[i].n; k++) {
			const struct dynpf_rule *r = &t[i].ch[k].c.rule;

			if (t[i].ch[k].c.kind == DYNPF_CHANGE_DEL) {
				ids_clear(d->ids, r->id);
				continue;
			}
			if (t[i].ch[k].c.kind != DYNPF_CHANGE_ADD)
				continue; /* a declaration: in the pinned table */
			dynpf_rule_ids_set(d->ids, r->id);
			if (r->expires)
				heap_push(d, r->expires, r->id);
		}
	}
	return err;
}

static void txns_free(struct txn *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(t[i].ch);
	free(t);
}

/* Add change c (line) to transaction t. 0 or -ENOMEM. */
static int txn_add(struct txn *t, const struct dynpf_change *c, unsigned long line)
{
	struct change *n = realloc(t->ch, (t->n + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	t->ch = n;
	t->ch[t->n].c = *c;
	t->ch[t->n].line = line;
	t->ch[t->n].seq = 0;
	if (!t->n)
		t->line = line;
	t->last = line;
	t->n++;
	return 0;
}

/* The result of a transaction, as the reply says it. */
static json_object *txn_json(const struct txn *t)
{
	json_object *o = json_object_new_object(), *added, *deleted, *declared, *undeclared;

	jadd(o, "line", json_object_new_int64(t->line));
	jadd(o, "last_line", json_object_new_int64(t->last));
	jadd(o, "ok", json_object_new_boolean(!t->err[0]));
	if (t->err[0]) {
		jadd(o, "error", json_object_new_string(t->err));
		return o;
	}
	added = json_object_new_array();
	deleted = json_object_new_array();
	declared = json_object_new_array();
	undeclared = json_object_new_array();
	for (size_t k = 0; k < t->n; k++) {
		const struct dynpf_change *c = &t->ch[k].c;

		if (c->kind == DYNPF_CHANGE_ADD || c->kind == DYNPF_CHANGE_DEL)
			json_object_array_add(c->kind == DYNPF_CHANGE_ADD ? added : deleted,
					      json_object_new_int64(c->rule.id));
		else
			json_object_array_add(c->kind == DYNPF_CHANGE_PROTO_ADD ? declared
										: undeclared,
					      json_object_new_string(c->proto.name));
	}
	jadd(o, "added", added);
	jadd(o, "deleted", deleted);
	jadd(o, "declared", declared);
	jadd(o, "undeclared", undeclared);
	jadd(o, "generation", json_object_new_int64(t->gen));
	return o;
}

/*
 * The declarations the lines of a rules-apply see: the active set's, with
 * the changes of the lines before (now), and as they were when the open
 * transaction began (start), for a transaction refused as it is read.
 */
struct apply_protos {
	struct dynpf_proto_tab now, start;
};

/* A transaction read: a refused one takes its declarations back. */
static void txn_read(struct apply_protos *ap, const struct txn *t)
{
	if (t->err[0])
		ap->now = ap->start;
	ap->start = ap->now;
}

/*
 * A line of a rules-apply. A deletion may also name a protocol the active
 * set declares that a line before deletes: whether that one was refused is
 * known once the transactions run, and the drain says if it is still there.
 */
static int apply_parse(const struct daemon *d, const struct apply_protos *ap,
		       struct dynpf_change *c, const struct dynpf_req *req, unsigned long line,
		       const struct dynpf_rule_ids *taken, struct dynpf_rule_err *rerr)
{
	const char *s = req->lines[line - req->first];
	struct dynpf_rule_err again;
	int e = dynpf_change_parse(c, req->name, line, s, strlen(s), taken, &ap->now, rerr);

	if (e &&
	    !dynpf_change_parse(c, req->name, line, s, strlen(s), taken, cur_protos(d), &again)) {
		if (c->kind == DYNPF_CHANGE_PROTO_DEL)
			return 0;
		memset(c, 0, sizeof(*c));
	}
	return e;
}

/*
 * rules-apply: the lines of a stream of changes, each line a transaction,
 * or each blank-line-separated batch (batch). A line that does not parse
 * refuses its transaction alone, naming it; the others go on. A rule may
 * test a protocol a line before declares.
 */
json_object *req_rules_apply(struct daemon *d, const struct dynpf_req *req)
{
	struct dynpf_rule_ids *taken = malloc(sizeof(*taken));
	struct apply_protos *ap = malloc(sizeof(*ap));
	struct txn *t = calloc(req->nlines + 1, sizeof(*t));
	json_object *o, *res;
	struct dynpf_rule_err rerr;
	struct dynpf_change c;
	size_t n = 0;
	int err = 0;

	if (!t || !taken || !ap) {
		free(ap);
		free(taken);
		free(t);
		return reply(false, "out of memory");
	}
	/* Ids the request's own adds take count as taken at once. */
	memcpy(taken, d->ids, sizeof(*taken));
	ap->now = ap->start = *cur_protos(d);
	for (int i = 0; i < req->nlines && !err; i++) {
		unsigned long line = req->first + i;
		struct txn *cur = &t[n];
		const char *s = req->lines[i];

		if (apply_parse(d, ap, &c, req, line, taken, &rerr)) {
			if (!cur->n)
				cur->line = line;
			cur->last = line;
			if (!cur->err[0])
				snprintf(cur->err, sizeof(cur->err), "%s", rerr.msg);
			if (!req->batch)
				txn_read(ap, &t[n++]);
			continue;
		}
		if (c.kind == DYNPF_CHANGE_NONE) {
			/* A blank line ends a batch; a comment does not. */
			bool blank = strspn(s, " \t") == strlen(s);

			if (req->batch && blank && (cur->n || cur->err[0]))
				txn_read(ap, &t[n++]);
			continue;
		}
		if (c.kind == DYNPF_CHANGE_ADD)
			dynpf_rule_ids_set(taken, c.rule.id);
		else if (c.kind == DYNPF_CHANGE_PROTO_ADD)
			dynpf_proto_tab_set(&ap->now, &c.proto);
		else if (c.kind == DYNPF_CHANGE_PROTO_DEL && ap->now.key[c.proto.id] &&
			 !strncmp(ap->now.d[c.proto.id].name, c.proto.name, DYNPF_PROTO_NAME_MAX))
			dynpf_proto_tab_unset(&ap->now, c.proto.id);
		err = txn_add(cur, &c, line);
		if (!req->batch)
			txn_read(ap, &t[n++]);
	}
	if (req->batch && (t[n].n || t[n].err[0]))
		n++;
	free(ap);
	free(taken);
	if (err) {
		txns_free(t, req->nlines + 1);
		return reply(false, "out of memory");
	}
	run_txns(d, t, n, req->name);
	o = reply(true, NULL);
	res = json_object_new_array();
	for (size_t i = 0; i < n; i++)
		json_object_array_add(res, txn_json(&t[i]));
	jadd(o, "results", res);
	txns_free(t, req->nlines + 1);
	return o;
}

/* One change in a transaction of its own: the reply, with the id of an add. */
static json_object *one_change(struct daemon *d, const struct dynpf_change *c)
{
	struct txn t = { .line = 1, .last = 1 };
	json_object *o;

	if (txn_add(&t, c, 1))
		return reply(false, "out of memory");
	run_txns(d, &t, 1, DYNPF_RULE_CMDLINE);
	if (t.err[0]) {
		o = reply(false, t.err);
	} else {
		o = reply(true, NULL);
		if (c->kind == DYNPF_CHANGE_PROTO_ADD || c->kind == DYNPF_CHANGE_PROTO_DEL)
			jadd(o, "protocol", json_object_new_string(c->proto.name));
		if (c->kind == DYNPF_CHANGE_ADD)
			jadd(o, "id", json_object_new_int64(c->rule.id));
		else if (c->kind == DYNPF_CHANGE_PROTO_ADD)
			jadd(o, "id", json_object_new_int64(c->proto.id));
		jadd(o, "generation", json_object_new_int64(t.gen));
		if (c->kind == DYNPF_CHANGE_PROTO_ADD || c->kind == DYNPF_CHANGE_PROTO_DEL)
			pr_info("protocol %s %s by a client (id %u), generation %u\n",
				c->proto.name,
				c->kind == DYNPF_CHANGE_PROTO_ADD ? "declared" : "deleted",
				c->proto.id, t.gen);
	}
	free(t.ch);
	return o;
}

/*
 * rule-add of "protocol NAME ...": a protocol declared in the active set,
 * in its own transaction, with the lowest id the set leaves free.
 */
static json_object *proto_add(struct daemon *d, const struct dynpf_req *req)
{
	struct dynpf_change c = { .kind = DYNPF_CHANGE_PROTO_ADD };
	struct dynpf_rule_err rerr;

	if (dynpf_proto_parse_words(&c.proto, req->nwords, req->words, cur_protos(d), &rerr))
		return reply(false, rerr.msg);
	return one_change(d, &c);
}

/*
 * rule-add: one rule, as an array of its words, in its own transaction; it
 * may test the protocols the active set declares. Or a declaration.
 */
json_object *req_rule_add(struct daemon *d, const struct dynpf_req *req)
{
	struct dynpf_change c = { .kind = DYNPF_CHANGE_ADD };
	struct dynpf_rule_err rerr;
	char msg[128];

	if (req->nwords && !strcmp(req->words[0], "protocol"))
		return proto_add(d, req);
	if (dynpf_rule_parse_words_p(&c.rule, req->nwords, req->words, d->ids, cur_protos(d),
				     &rerr))
		return reply(false, rerr.msg);
	if (dynpf_rule_ids_test(d->ids, c.rule.id)) {
		snprintf(msg, sizeof(msg), "rule %u exists: delete it first (dynpf rule del %u)",
			 c.rule.id, c.rule.id);
		return reply(false, msg);
	}
	return one_change(d, &c);
}

/*
 * rule-del of a protocol: a declaration of the active set, by its name, in
 * its own transaction; the drain refuses it while a rule tests it.
 */
static json_object *proto_del(struct daemon *d, const char *name)
{
	const struct dynpf_proto_tab *tab = cur_protos(d);
	struct dynpf_change c = { .kind = DYNPF_CHANGE_PROTO_DEL };
	char msg[64];

	for (__u32 i = 0; i < DYNPF_MAX_PROTOS; i++) {
		if (tab->key[i] && !strncmp(tab->d[i].name, name, DYNPF_PROTO_NAME_MAX)) {
			c.proto = tab->d[i];
			return one_change(d, &c);
		}
	}
	snprintf(msg, sizeof(msg), "protocol '%.15s': no such protocol", name);
	return reply(false, msg);
}

/* rule-del: one rule, by its id, in its own transaction; or a protocol. */
json_object *req_rule_del(struct daemon *d, const struct dynpf_req *req)
{
	struct dynpf_change c = { .kind = DYNPF_CHANGE_DEL, .rule.id = req->id };
	char msg[64];

	if (req->proto)
		return proto_del(d, req->proto);
	if (!dynpf_rule_ids_test(d->ids, req->id)) {
		snprintf(msg, sizeof(msg), "rule %u: no such rule", req->id);
		return reply(false, msg);
	}
	return one_change(d, &c);
}

/* ---- expiry ----------------------------------------------------------------- */

int64_t changes_next_expiry_ms(const struct daemon *d)
{
	__u64 now = dynpf_lang_now();

	if (!d->nexp)
		return -1;
	if (d->exp[0].at <= now)
		return 0;
	/* Rounded up: woken no earlier than the rule runs out. */
	return (int64_t)((d->exp[0].at - now + 999999) / 1000000);
}

void changes_expire(struct daemon *d)
{
	struct txn t = { 0 };
	__u64 now = dynpf_lang_now();

	while (d->nexp && d->exp[0].at <= now) {
		struct expiry e = d->exp[0];
		const struct dynpf_rule *r = dynpf_rules_view_get(&d->rv, e.id);
		struct dynpf_change c = { .kind = DYNPF_CHANGE_DEL, .rule.id = e.id };
		bool dup = false;

		heap_pop(d);
		/* The rule that had this lifetime, not one added since in its place. */
		if (!r || r->expires != e.at)
			continue;
		for (size_t k = 0; k < t.n && !dup; k++)
			dup = t.ch[k].c.rule.id == e.id;
		if (!dup && txn_add(&t, &c, 0)) {
			p_err("out of memory: rule %u not expired", e.id);
			break;
		}
	}
	if (!t.n)
		return;
	/* One transaction for every rule that ran out. */
	run_txns(d, &t, 1, "expiry");
	if (t.err[0])
		p_err("rules running out could not be removed: %s", t.err);
	else
		for (size_t k = 0; k < t.n; k++)
			pr_info("rule %u ran out (timeout): removed, generation %u\n",
				t.ch[k].c.rule.id, t.gen);
	free(t.ch);
}

/* ---- status ----------------------------------------------------------------- */

static int cmp_exp(const void *a, const void *b)
{
	const struct expiry *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

void changes_status(const struct daemon *d, json_object *o)
{
	json_object *list = json_object_new_array();
	struct expiry *all = NULL;
	size_t n = 0, cap = 0;
	__u64 now = dynpf_lang_now();

	for (__u32 id = 1; id < d->rv.nids; id++) {
		const struct dynpf_rule *r = dynpf_rules_view_get(&d->rv, id);

		if (!r || !r->expires)
			continue;
		if (n == cap) {
			struct expiry *m = realloc(all, (cap = cap ? 2 * cap : 64) * sizeof(*m));

			if (!m)
				break;
			all = m;
		}
		all[n++] = (struct expiry){ r->expires, id };
	}
	qsort(all, n, sizeof(*all), cmp_exp);
	for (size_t i = 0; i < n && i < DYNPF_STATUS_EXPIRING; i++) {
		json_object *e = json_object_new_object();
		struct dynpf_rule r = { .expires = all[i].at };

		jadd(e, "id", json_object_new_int64(all[i].id));
		jadd(e, "timeout", json_object_new_int64(dynpf_rule_timeout_left(&r, now)));
		json_object_array_add(list, e);
	}
	jadd(o, "timed", json_object_new_int64(n));
	jadd(o, "expiring", list);
	free(all);
}
