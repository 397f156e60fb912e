// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The control channel's BPF side: dynpf_drain, a SEC("syscall") program the
 * producer runs with BPF_PROG_TEST_RUN after writing a batch of messages
 * into dynpf_ctrl (BPF_MAP_TYPE_USER_RINGBUF). It validates every field of
 * every message, stages the changes of a transaction, applies them at
 * commit (new entries born at the next generation, deleted ones dead from
 * it) and publishes that generation (bpf/rules.h), and writes one ack per
 * message on dynpf_acks. Each run first reclaims what the grace periods the
 * producer says have passed allow (struct dynpf_drain_args).
 *
 * A run drains at most args.max_msgs messages and stops after a commit (the
 * commit is applied after the drain returns, outside its callback), so the
 * acks of one run always fit in dynpf_acks: the producer reads them all
 * before the next run. A commit that needs more entries or tuple slots than
 * are free while retired ones wait in limbo, or that changes the declared
 * protocols while a packet may still read the table it would write, is
 * held (dynpf_state.pending): the run returns -EAGAIN, and the next one,
 * after a grace period, applies it before it drains anything else.
 *
 * A unit of its own, linked with the packet programs (dynpf.bpf.c) into one
 * object and one skeleton (.output/dynpf.bpf.o, the Makefile): the rule set's
 * maps and settings are shared through bpf/rules.h.
 */

/*
 * The kfuncs both units call, under names of this unit's own: the BPF
 * static linker of bpftool 7.5 refuses two objects that declare one kfunc
 * ("failed to resolve size of underlying type", docs/bpf-notes.md), and
 * libbpf looks a kfunc up in the kernel without its "___" suffix. A kfunc
 * the drain starts to call that dynpf.bpf.c calls too goes here.
 */
#define bpf_dynptr_size bpf_dynptr_size___drain
#define bpf_iter_num_new bpf_iter_num_new___drain
#define bpf_iter_num_next bpf_iter_num_next___drain
#define bpf_iter_num_destroy bpf_iter_num_destroy___drain

#include "rules.h"
#include "msgcheck.h"
#include "decltab.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

#define EPERM 1
#define ENOENT 2
#define EAGAIN 11
#define EEXIST 17
#define ENOSPC 28
#define EPROTO 71
#define EMSGSIZE 90
#define E2BIG 7
#define EBUSY 16

/* A staged change (the drain validated it; the commit applies it). */
struct dynpf_op {
	__u8 type; /* DYNPF_MSG_RULE_ADD, _RULE_DEL, _SET, _COUNTER_RESET */
	__u8 pad[3];
	__u32 id;    /* rule id; SET: the key */
	__u64 value; /* SET */
	struct dynpf_rule rule;
};

/* Per rule id, during a transaction: what the staged ops did to it. */
#define DYNPF_IDS_ADDED 1
#define DYNPF_IDS_DELETED 2
#define DYNPF_IDS_LIVE0 4 /* alive when the transaction first touched it */
struct dynpf_id_state {
	__u32 txn;
	__u32 state;
};

struct {
	__uint(type, BPF_MAP_TYPE_USER_RINGBUF);
	__uint(max_entries, 1 << 20);
} dynpf_ctrl SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 18); /* > DYNPF_ACK_MAX_RUN acks of 48 bytes */
} dynpf_acks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, DYNPF_MAX_TXN_OPS);
	__type(key, __u32);
	__type(value, struct dynpf_op);
} dynpf_ops SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, DYNPF_MAX_RULES);
	__type(key, __u32);
	__type(value, struct dynpf_id_state);
} dynpf_ids SEC(".maps");

/* (mask, stack) pairs the open transaction adds: the tuple budget. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, DYNPF_MAX_TUPLES);
	__type(key, __u32);
	__type(value, struct dynpf_key);
} dynpf_txn_masks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, union dynpf_msg);
} dynpf_msgbuf SEC(".maps");

/*
 * The entries of dynpf_rules given back, a stack (dynpf_state.nfree deep),
 * and the limbo: a ring of the entries commits retired, in order, first
 * waiting to be unlinked, then to be free (dynpf_state.limbo_*). Both as
 * large as the pool.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2 * DYNPF_MAX_RULES);
	__type(key, __u32);
	__type(value, __u32);
} dynpf_free SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2 * DYNPF_MAX_RULES);
	__type(key, __u32);
	__type(value, __u32);
} dynpf_limbo SEC(".maps");

/* The synchronisation map: updating it makes the kernel wait for an RCU
 * grace period (map-in-map updates do), which the producer does in the
 * background to learn what may be reclaimed (loader/channel/ring.c). */
struct dynpf_sync_inner {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} dynpf_sync_inner SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, struct dynpf_sync_inner);
} dynpf_sync SEC(".maps") = {
	.values = { [0] = &dynpf_sync_inner },
};

/*
 * Declared protocols (include/dynpf/proto.h): the open transaction's
 * table, the one in force with its own PROTO_ADD and PROTO_DEL, made at
 * its first message that touches them (txn: the transaction's id,
 * dynpf_state.txn_id), and the rules alive that test each protocol (refs)
 * and the open transaction's counts (trefs), which its rule adds and
 * deletes change. Its commit gives the table to the other slot of
 * dynpf_protos, born at the commit's generation, when it differs from the
 * one in force (dynpf_protos_commit()).
 */
struct dynpf_proto_stage {
	__u32 txn;
	__u32 refs[DYNPF_MAX_PROTOS];
	__u32 trefs[DYNPF_MAX_PROTOS];
	__u32 pad;
	struct dynpf_proto_tab tab;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dynpf_proto_stage);
} dynpf_proto_stage SEC(".maps");

/* Keys too big for the stack of the drain's call chain: one slot per
 * function that needs them (the drain runs on one CPU at a time). */
struct dynpf_ctrl_tmp {
	struct dynpf_key k;
	struct dynpf_key mask;
};
#define DYNPF_TMP_ADD 0
#define DYNPF_TMP_BUDGET 1
#define DYNPF_TMP_UNLINK 2

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 3);
	__type(key, __u32);
	__type(value, struct dynpf_ctrl_tmp);
} dynpf_ctrl_tmp SEC(".maps");

static __always_inline struct dynpf_ctrl_tmp *dynpf_tmp(__u32 slot)
{
	return bpf_map_lookup_elem(&dynpf_ctrl_tmp, &slot);
}

struct dynpf_drain_ctx {
	struct dynpf_state *st;
	__u32 n;
	__u32 max;
	__u32 commit; /* a TXN_COMMIT was taken: apply after the drain */
	__u64 commit_seq;
};

/* The drain's counts of tuple t. */
static __always_inline struct dynpf_tuple_cnt *dynpf_tcnt(__u32 t)
{
	__u32 k = t & (DYNPF_MAX_TUPLES - 1);

	return bpf_map_lookup_elem(&dynpf_tuple_cnt, &k);
}

/* Entries in the pool: ids times two (a whole set replaced, the old one in limbo). */
static __always_inline __u32 dynpf_pool_size(void)
{
	return 2 * dynpf_cfg_max_rules;
}

/* ---- the rule set: linking, retiring, reclaiming entries ---------------- */

/*
 * The rule's key and mask, and the tuple identity: the stack in mask.pad,
 * the quick dimensions its rules test (dynpf_tuple_budget()) in mask.pad2,
 * which the packet's key leaves 0 (they are not hashed).
 * Global subprograms (like dynpf_rule_check_g): verified once, for any rule,
 * instead of along every path of the drain that reaches them.
 */
DYNPF_SUBPROG int dynpf_rule_tuple_key(const struct dynpf_rule *r, struct dynpf_key *k,
				       struct dynpf_key *mask, __u32 dims)
{
	if (!r || !k || !mask)
		return -EINVAL;
	dynpf_rule_key(r, k, mask);
	mask->pad = r->m.stack;
	mask->pad2 = dims;
	return 0;
}

/*
 * Rule r's values of quick dimension d (rules/quick.h), into c: global
 * subprograms, verified once, not once per dimension of every caller's
 * loops (inlined, the drain went past 1M instructions).
 */
DYNPF_SUBPROG int dynpf_qf_rule_g(const struct dynpf_rule *r, __u32 d, struct dynpf_qf_set *c)
{
	if (!r || !c)
		return 0;
	return dynpf_qf_rule(r, d, c);
}

DYNPF_SUBPROG int dynpf_qf_dims_g(const struct dynpf_rule *r)
{
	return r ? dynpf_qf_dims(r) : 0;
}

/* Rule r's TCP option types (rules/match.h), into *types: as above. */
DYNPF_SUBPROG int dynpf_rule_tcp_opt_types_g(const struct dynpf_rule *r, __u64 *types)
{
	if (!r || !types)
		return 0;
	*types = dynpf_rule_tcp_opt_types(r);
	return 0;
}

/*
 * What a rule needs of the parse (dynpf_rule_needs()), for its three
 * callers (a rule comes alive, dies, is counted in the selection): inlined
 * in each, its tests were the lines scripts/verifier-lines.sh found walked
 * most, 424k instructions for the drain and 2.1 s of its load; with this,
 * 246k and 0.45 s (every replay with rules, daemon and bench loads it).
 */
DYNPF_SUBPROG __u32 dynpf_rule_needs_g(const struct dynpf_rule *r)
{
	return r ? dynpf_rule_needs(r) : 0;
}

DYNPF_SUBPROG int dynpf_rule_check_g(const struct dynpf_rule *r, __u16 *field)
{
	if (!r || !field)
		return -EINVAL;
	return dynpf_rule_check(r, field);
}

/*
 * The field filters (bpf/rules.h) of tuple t, of mask m: which fields it is
 * subject to, per family, in dynpf_tuple_sel.filt, and whether its probe
 * needs the packet's key (.keyed); on, when the tuple is
 * made, or off, when its last entry is unlinked (and then its bits in
 * dynpf_fsel, stale or not, are cleared too: 4 x 65,536 entries, about a
 * millisecond, once per tuple freed).
 */
static __noinline void dynpf_fs_tuple(__u32 t, const struct dynpf_key *m, int on)
{
	__u32 k = 0, s = m->pad & (DYNPF_MAX_STACKS - 1), f, v6, i;
	struct dynpf_tuple_sel *sel = bpf_map_lookup_elem(&dynpf_tuple_sel, &k);
	__u64 bit = 1ull << (t & (DYNPF_MAX_TUPLES - 1)), optk = 0;
	struct dynpf_tuple_cnt *tc;
	struct dynpf_tuple *tu;
	struct dynpf_qsel *qs;

	if (!sel)
		return;
	/* Its bit in keyed: the tuple's konst is set (dynpf_tuple_find()). */
	tu = dynpf_tuple(t);
	if (on && tu && !tu->konst)
		sel->stk[s].keyed |= bit;
	else
		sel->stk[s].keyed &= ~bit;
	for (v6 = 0; v6 < 2; v6++)
		for (f = 0; f < DYNPF_FS_NFIELDS; f++) {
			if (on && dynpf_fs_pins(m, f, v6))
				sel->stk[s].filt[v6][f] |= bit;
			else
				sel->stk[s].filt[v6][f] &= ~bit;
		}
	/* The TCP option types its rules test (dynpf_sel_count()): none yet,
	 * or none left; the union of the tuples' made again without them. */
	tc = dynpf_tcnt(t);
	if (tc)
		tc->optk = 0;
	if (on)
		return;
	bpf_for(i, 0, DYNPF_MAX_TUPLES) {
		tc = dynpf_tcnt(i);
		if (!tc)
			break;
		optk |= tc->optk;
	}
	sel->stk[0].optk = optk;
	bpf_for(i, 0, DYNPF_FS_NFIELDS * DYNPF_FS_VALS) {
		__u32 idx = dynpf_fs_idx(s, i / DYNPF_FS_VALS, i);
		__u64 *w = bpf_map_lookup_elem(&dynpf_fsel, &idx);

		if (!w)
			break;
		*w &= ~bit;
	}
	qs = bpf_map_lookup_elem(&dynpf_qsel, &k);
	if (!qs)
		return;
	bpf_for(i, 0, DYNPF_QF_N * DYNPF_QF_VALS) {
		__u64 *w =
			&qs->t[s][(i / DYNPF_QF_VALS) & (DYNPF_QF_N - 1)][i & (DYNPF_QF_VALS - 1)];

		if (*w & bit)
			*w &= ~bit;
	}
}

/*
 * Does tuple tu (in slot t) pin nothing but the stack? Then the masked key
 * of every packet is {stack, slot}: its hash, once (struct dynpf_tuple).
 */
static __always_inline void dynpf_tuple_konst(struct dynpf_tuple *tu, __u32 t)
{
	struct dynpf_key k = {};
	const struct dynpf_key *m = &tu->mask;

	/* Its quick dimensions (pad2) are not in the packet's key. */
	tu->konst = !m->ifindex && !m->family && !m->proto && !m->sport && !m->dport && !m->w[2] &&
		    !m->w[3] && !m->w[4] && !m->w[5];
	if (!tu->konst)
		return;
	k.stack = m->pad; /* the tuple's stack (dynpf_rule_tuple_key()) */
	k.pad = t;
	tu->khash = dynpf_key_hash(&k);
}

/*
 * The slot of the tuple of mask: one in use (live: only one with a rule
 * alive), or with alloc a free one made that tuple; -1 if none. A global
 * subprogram: verified once, its result any slot, not once per caller's
 * state (the commit's room check loops over it).
 */
DYNPF_SUBPROG int dynpf_tuple_find(const struct dynpf_key *mask, int alloc, int live)
{
	struct dynpf_state *st = dynpf_state_get();
	struct dynpf_tuple_cnt *tc;
	struct dynpf_tuple *tu;
	int free = -1;
	__u32 t;

	if (!st || !mask)
		return -1;
	bpf_for(t, 0, DYNPF_MAX_TUPLES) {
		tu = dynpf_tuple(t);
		tc = dynpf_tcnt(t);
		if (!tu || !tc)
			break;
		if (tu->used) {
			if ((!live || tc->nlive) && dynpf_key_eq(&tu->mask, mask))
				return t;
		} else if (free < 0) {
			free = t;
		}
	}
	if (!alloc || free < 0)
		return -1;
	tu = dynpf_tuple(free);
	tc = dynpf_tcnt(free);
	if (!tu || !tc)
		return -1;
	tu->mask = *mask;
	tc->nrules = 0;
	tc->nlive = 0;
	tc->qlast_ok = 0; /* its bits in dynpf_qsel were cleared when it was freed */
	tc->fs_lost = 0;
	tu->min_prio = 0xffffffff;
	dynpf_tuple_konst(tu, free);
	dynpf_fs_tuple(free, mask, 1);
	barrier(); /* a packet that sees the slot used sees its mask */
	tu->used = 1;
	st->tuples_used++;
	return free;
}

/* Tuple t's bit in one entry of a selection table: set if n rules can match. */
static __always_inline void dynpf_sel_bit(__u64 *w, __u32 t, __u32 n)
{
	__u64 bit = 1ull << (t & (DYNPF_MAX_TUPLES - 1)), v = n ? *w | bit : *w & ~bit;

	if (v != *w) /* no store otherwise: packets read the line */
		*w = v;
}

/*
 * The field filters' counts (bpf/rules.h): per value of a field and tuple,
 * the tuple's entries linked with that value. Sized by the loader (8 per
 * rule id: 4 fields of the entries of two rule sets, an old one in limbo).
 */
struct dynpf_fs_ckey {
	__u32 idx;   /* of dynpf_fsel: stack, field, value */
	__u32 tuple; /* slot */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1);
	__type(key, struct dynpf_fs_ckey);
	__type(value, __u32);
} dynpf_fs_cnt SEC(".maps");

/*
 * An entry of rule r, of masked key k and mask m, in tuple t: linked (delta
 * 1) or unlinked (-1). Its tuple's bit at each of its fields' values is set
 * with the first entry counted there, cleared after the last.
 */
static __noinline void dynpf_fs_rule(__u32 t, const struct dynpf_rule *r, const struct dynpf_key *k,
				     const struct dynpf_key *m, int delta)
{
	__u32 s = m->pad & (DYNPF_MAX_STACKS - 1), v6 = r->m.family == 6, f, idx, one = 1, *n;
	__u64 bit = 1ull << (t & (DYNPF_MAX_TUPLES - 1)), *w;
	struct dynpf_tuple_cnt *tc = dynpf_tcnt(t);
	struct dynpf_fs_ckey ck;

	if (!tc)
		return;
	for (f = 0; f < DYNPF_FS_NFIELDS; f++) {
		if (!dynpf_fs_pins(m, f, v6))
			continue;
		idx = dynpf_fs_idx(s, f, dynpf_fs_val(k, f, v6));
		w = bpf_map_lookup_elem(&dynpf_fsel, &idx);
		if (!w)
			continue;
		ck.idx = idx;
		ck.tuple = t & (DYNPF_MAX_TUPLES - 1);
		n = bpf_map_lookup_elem(&dynpf_fs_cnt, &ck);
		if (delta > 0) {
			if (n)
				(*n)++;
			else if (bpf_map_update_elem(&dynpf_fs_cnt, &ck, &one, BPF_NOEXIST))
				tc->fs_lost = 1; /* the bit must stay: uncounted */
			if (!(*w & bit))         /* no store if set: packets read the line */
				*w |= bit;
			continue;
		}
		if (!n || --*n)
			continue;
		bpf_map_delete_elem(&dynpf_fs_cnt, &ck);
		if (!tc->fs_lost && (*w & bit))
			*w &= ~bit;
	}
}

/*
 * Rule r, in tuple t of stack s: its bits in the quick filters, the values
 * of each dimension it tests that it can match (rules/quick.h). At most 256
 * a dimension, most of them a range walked from its start.
 */
static __noinline void dynpf_qf_rule_bits(__u32 t, const struct dynpf_rule *r, __u32 s, __u32 dims)
{
	__u64 bit = 1ull << (t & (DYNPF_MAX_TUPLES - 1)), *w;
	struct dynpf_tuple_cnt *tc = dynpf_tcnt(t);
	struct dynpf_qf_set c, *last;
	struct dynpf_qsel *qs;
	__u32 d, v, zero = 0;

	qs = bpf_map_lookup_elem(&dynpf_qsel, &zero);
	if (!qs || !tc)
		return;
	s &= DYNPF_MAX_STACKS - 1;
	for (d = 0; d < DYNPF_QF_N; d++) {
		if (!(dims & (1u << d)) || !dynpf_qf_rule_g(r, d, &c))
			continue;
		/* The rules of a tuple often test a field alike ("tcp option
		 * mss missing" on each): their bits are set already. 10,000
		 * rules of the bench loaded in 24 ms without this, 19 before
		 * the quick filters. */
		last = &tc->qlast[d & (DYNPF_QF_N - 1)];
		if ((tc->qlast_ok & (1u << d)) && last->lo == c.lo && last->hi == c.hi &&
		    last->want == c.want && last->mask == c.mask)
			continue;
		*last = c;
		tc->qlast_ok |= 1u << d;
		bpf_for(v, c.lo, c.hi + 1) {
			if ((v & c.mask) != c.want)
				continue;
			w = &qs->t[s][d & (DYNPF_QF_N - 1)][v & (DYNPF_QF_VALS - 1)];
			if (!(*w & bit)) /* no store if set: packets read the line */
				*w |= bit;
		}
	}
}

/*
 * Whether any tuple of the inner stack is in the selection, into the
 * state's line that packets read pub from (dynpf_state.inner_sel): after
 * each change of stk[1].fam[], so it clears and sets with them.
 */
static __always_inline void dynpf_inner_sel_mirror(const struct dynpf_tuple_sel *sel)
{
	struct dynpf_state *st = dynpf_state_get();

	if (st)
		st->inner_sel = !!(sel->stk[1].fam[0] | sel->stk[1].fam[1] | sel->stk[1].fam[2]);
}

/*
 * Count an entry of rule r in or out (delta 1 or -1) of tuple t's selection
 * counts, and update the tuple's bits in dynpf_tuple_sel where a count
 * crossed zero: at link and at unlink, so the bits cover every entry a
 * packet may still see.
 */
static __noinline void dynpf_sel_count(__u32 t, const struct dynpf_rule *r, __u32 dims, int delta)
{
	__u32 k = t & (DYNPF_MAX_TUPLES - 1);
	struct dynpf_tuple_cnt *c = bpf_map_lookup_elem(&dynpf_tuple_cnt, &k);
	__u32 s = r->m.stack & (DYNPF_MAX_STACKS - 1), f = 0, p = DYNPF_SEL_ANY, q;
	__u32 d, qany = 0;
	struct dynpf_tuple_sel *sel;
	int fz, pz;

	k = 0;
	sel = bpf_map_lookup_elem(&dynpf_tuple_sel, &k);
	if (!c || !sel)
		return;
	/* The quick filters: the rules that do not test each dimension. */
	for (d = 0; d < DYNPF_QF_N; d++) {
		if (!(dims & (1u << d))) {
			fz = !c->qwild[d];
			c->qwild[d] += delta;
			if (fz != !c->qwild[d])
				dynpf_sel_bit(&sel->stk[s].qwild[d], t, c->qwild[d]);
		}
		qany |= !c->qwild[d];
	}
	/* The TCP option gate's tuples (bpf/rules.h, dynpf_tcp_opt_wanted()),
	 * and the option types their walk must see. */
	if (dynpf_rule_needs_g(r) & DYNPF_NEED_TCP_OPT) {
		__u64 types = DYNPF_TCP_OPT_WHOLE;

		dynpf_rule_tcp_opt_types_g(r, &types);
		fz = !c->optw;
		c->optw += delta;
		if (fz != !c->optw)
			dynpf_sel_bit(&sel->stk[s].optw, t, c->optw);
		if (types == DYNPF_TCP_OPT_WHOLE) {
			fz = !c->optall;
			c->optall += delta;
			if (fz != !c->optall)
				dynpf_sel_bit(&sel->stk[s].optall, t, c->optall);
		} else if (delta > 0) {
			c->optk |= types;
			if ((sel->stk[0].optk & types) != types) /* packets read the line */
				sel->stk[0].optk |= types;
		}
	}
	if (r->m.fields & (DYNPF_M_FAMILY | DYNPF_M_SRC | DYNPF_M_DST))
		f = r->m.family == 6 ? 2 : 1;
	if (r->m.fields & DYNPF_M_PROTO)
		p = r->m.proto;
	fz = !c->fam[f];
	pz = !c->proto[p & 511];
	c->fam[f] += delta;
	c->proto[p & 511] += delta;
	dynpf_sel_bit(&sel->stk[s].qany, t, qany && c->fam[0] + c->fam[1] + c->fam[2]);
	if (fz != !c->fam[f]) {
		dynpf_sel_bit(&sel->stk[s].fam[0], t, c->fam[0]);
		dynpf_sel_bit(&sel->stk[s].fam[1], t, c->fam[0] + c->fam[1]);
		dynpf_sel_bit(&sel->stk[s].fam[2], t, c->fam[0] + c->fam[2]);
		if (s == 1)
			dynpf_inner_sel_mirror(sel);
	}
	if (pz == !c->proto[p & 511])
		return;
	if (p != DYNPF_SEL_ANY) {
		dynpf_sel_bit(&sel->proto[s][p & 255], t,
			      c->proto[DYNPF_SEL_ANY] + c->proto[p & 255]);
		return;
	}
	bpf_for(q, 0, 256)
		dynpf_sel_bit(&sel->proto[s][q & 255], t,
			      c->proto[DYNPF_SEL_ANY] + c->proto[q & 255]);
}

/*
 * A rule comes alive or dies (delta 1 or -1) at the generation being
 * committed: the counts the published word and the commit's ack give.
 */
static __always_inline void dynpf_live_count(struct dynpf_state *st, const struct dynpf_rule *r,
					     __u32 t, int delta)
{
	__u32 needs = dynpf_rule_needs_g(r), b;
	struct dynpf_tuple_cnt *tc = t == DYNPF_TUPLE_ANY ? NULL : dynpf_tcnt(t);

	for (b = 0; b < DYNPF_NEED_BITS; b++)
		if (needs & (1u << b))
			st->need_cnt[b] += delta;
	st->nrules += delta;
	if (!tc)
		return;
	if (delta > 0 && !tc->nlive++)
		st->ntuples++;
	else if (delta < 0 && tc->nlive && !--tc->nlive && st->ntuples)
		st->ntuples--;
}

static __always_inline void dynpf_zero_rule_stats(__u32 id)
{
	__u32 cpu;

	bpf_for(cpu, 0, 4096) {
		struct dynpf_rule_stats *s =
			bpf_map_lookup_percpu_elem(&dynpf_rule_stats, &id, cpu);

		if (!s)
			break;
		s->packets = 0;
		s->bytes = 0;
	}
}

/* An entry of the pool, from the free stack or never used: 0 if none. */
static __always_inline __u32 dynpf_ent_alloc(struct dynpf_state *st)
{
	__u32 k, *v;

	if (st->nfree) {
		k = --st->nfree;
		v = bpf_map_lookup_elem(&dynpf_free, &k);
		return v ? *v : 0;
	}
	if (st->hwm < 1)
		st->hwm = 1;
	if (st->hwm >= dynpf_pool_size())
		return 0;
	return st->hwm++;
}

/* Entries a commit can have: free, or never used. */
static __always_inline __u32 dynpf_ent_room(const struct dynpf_state *st)
{
	__u32 hwm = st->hwm < 1 ? 1 : st->hwm;

	return st->nfree + (hwm < dynpf_pool_size() ? dynpf_pool_size() - hwm : 0);
}

/*
 * The head of the chain entry e of tuple tu (slot t) is on: the state's
 * any_head for a catch-all (t DYNPF_TUPLE_ANY, no tuple), the tuple's own
 * for a konst tuple (dynpf_kheads), else its key's bucket. Link and unlink
 * both ask here; the classifier asks the same, inline (bpf/classify.h).
 */
static __always_inline __u32 *dynpf_ent_head(struct dynpf_state *st, const struct dynpf_tuple *tu,
					     __u32 t, const struct dynpf_rule_ent *e)
{
	if (t == DYNPF_TUPLE_ANY)
		return &st->any_head;
	return tu && tu->konst ? dynpf_khead(t) : dynpf_head(e->hash);
}

/*
 * Link a new entry of rule r, born at generation gen, into its bucket's
 * chain in (prio, id) order: filled in first, then made reachable by one
 * store, so a packet walking the chain finds it whole (and, older than it,
 * passes it over). Its entry, or 0.
 */
DYNPF_SUBPROG int dynpf_link(const struct dynpf_rule *r, __u64 gen, __u32 dims, int plain)
{
	struct dynpf_ctrl_tmp *tmp = dynpf_tmp(DYNPF_TMP_ADD);
	struct dynpf_state *st = dynpf_state_get();
	__u32 idx, *head, prev = 0, cur, j;
	struct dynpf_rule_ent *e, *ce;
	struct dynpf_tuple_cnt *tc;
	struct dynpf_tuple *tu;
	int t, any;

	if (!st || !tmp || !r)
		return 0;
	/* A catch-all is in no tuple: its chain hangs from the state. */
	any = dynpf_rule_any(r);
	tu = NULL;
	t = DYNPF_TUPLE_ANY;
	if (!any) {
		dynpf_rule_tuple_key(r, &tmp->k, &tmp->mask, plain ? 0 : dims);
		t = dynpf_tuple_find(&tmp->mask, 1, 0);
		if (t < 0)
			return 0; /* the room was checked before the commit applied */
		tu = dynpf_tuple(t);
		if (!tu)
			return 0;
	}
	idx = dynpf_ent_alloc(st);
	e = dynpf_ent(idx);
	if (!e)
		return 0;
	/* The tuple's slot is part of the hashed key (dynpf_key_hash); a
	 * catch-all has neither. */
	e->hash = 0;
	if (!any) {
		tmp->k.pad = t;
		e->hash = dynpf_key_hash(&tmp->k);
	}
	head = dynpf_ent_head(st, tu, t, e);
	if (!head)
		return 0;
	e->r = *r;
	e->born = gen;
	e->span = DYNPF_SPAN_ALIVE;
	e->tuple = t;
	e->terminal = dynpf_act_terminal(r->action);
	e->qdims = dims;
	dynpf_qtest_make(r, &e->q);
	e->state = DYNPF_ENT_LINKED;
	e->epoch = 0;
	cur = *head;
	/* Keep the chain in (prio, id) order. */
	bpf_for(j, 0, 2 * DYNPF_MAX_RULES) {
		if (!cur)
			break;
		ce = dynpf_ent(cur);
		if (!ce || dynpf_before(r->prio, r->id, ce->r.prio, ce->r.id))
			break;
		prev = cur;
		cur = ce->next;
	}
	e->next = cur;
	e->prev = prev;
	if (tu) {
		tc = dynpf_tcnt(t);
		if (tc)
			tc->nrules++;
		dynpf_sel_count(t, r, dims, 1);
		dynpf_fs_rule(t, r, &tmp->k, &tmp->mask, 1);
		dynpf_qf_rule_bits(t, r, tmp->mask.pad, dims);
		if (r->prio < tu->min_prio)
			tu->min_prio = r->prio;
	}
	ce = dynpf_ent(cur);
	if (ce)
		ce->prev = idx;
	barrier(); /* the entry whole before a packet can reach it */
	if (prev) {
		ce = dynpf_ent(prev);
		if (ce)
			ce->next = idx;
	} else {
		*head = idx;
	}
	return idx;
}

/*
 * Take entry idx out of its chain: a packet that gets to the chain from now
 * on does not meet it, one that is on it goes on through its next pointer,
 * left as it is. The tuple goes when its last entry does. The entry waits
 * for a grace period before it is free (dynpf_reclaim()). A global
 * subprogram, like dynpf_link(): verified once, not once per iteration of
 * the loops that call it.
 */
DYNPF_SUBPROG int dynpf_unlink(__u32 idx)
{
	struct dynpf_state *st = dynpf_state_get();
	struct dynpf_rule_ent *e = dynpf_ent(idx), *o;
	struct dynpf_tuple_cnt *tc;
	struct dynpf_tuple *tu;
	__u32 *head;
	int any;

	if (!st || !e || e->state != DYNPF_ENT_LINKED)
		return 0;
	any = e->tuple == DYNPF_TUPLE_ANY;
	tu = any ? NULL : dynpf_tuple(e->tuple);
	if (e->prev) {
		o = dynpf_ent(e->prev);
		if (o)
			o->next = e->next;
	} else {
		head = dynpf_ent_head(st, tu, e->tuple, e);
		if (head)
			*head = e->next;
	}
	o = dynpf_ent(e->next);
	if (o)
		o->prev = e->prev;
	/* A catch-all's entry is in no tuple: no count, no selection bit. */
	if (!any) {
		struct dynpf_ctrl_tmp *tmp = dynpf_tmp(DYNPF_TMP_UNLINK);

		dynpf_sel_count(e->tuple, &e->r, e->qdims, -1);
		if (tmp) {
			dynpf_rule_tuple_key(&e->r, &tmp->k, &tmp->mask, 0);
			dynpf_fs_rule(e->tuple, &e->r, &tmp->k, &tmp->mask, -1);
		}
	}
	tc = any ? NULL : dynpf_tcnt(e->tuple);
	if (tu && tc && tc->nrules && !--tc->nrules) {
		tu->used = 0;
		dynpf_fs_tuple(e->tuple, &tu->mask, 0);
		tu->min_prio = 0xffffffff;
		tc->nlive = 0;
		if (st->tuples_used)
			st->tuples_used--;
	}
	e->state = DYNPF_ENT_UNLINKED;
	e->epoch = st->epoch;
	return 0;
}

/*
 * Reclaim, at most max entries a phase: free the unlinked entries no packet
 * can still be on (unlinked at an epoch below synced_epoch), then unlink
 * the retired ones no packet can still see (dead from a generation at or
 * below synced_gen). The entries reclaimed.
 */
static __noinline __u32 dynpf_reclaim(__u64 synced_gen, __u32 synced_epoch, __u32 max)
{
	struct dynpf_state *st = dynpf_state_get();
	__u32 i, k, *v, head, mid, pool = dynpf_pool_size();
	struct dynpf_rule_ent *e;

	if (!st || !pool)
		return 0;
	/* No counter of the loops' own: the verifier would tell every value
	 * apart and never see an iteration like the last one. */
	head = st->limbo_head;
	mid = st->limbo_mid;
	bpf_for(i, 0, max) {
		if (st->limbo_head == st->limbo_mid)
			break;
		k = st->limbo_head % pool;
		v = bpf_map_lookup_elem(&dynpf_limbo, &k);
		e = v ? dynpf_ent(*v) : NULL;
		if (!e)
			break;
		if (e->epoch >= synced_epoch)
			break;
		k = st->nfree;
		if (bpf_map_update_elem(&dynpf_free, &k, v, BPF_ANY))
			break;
		st->nfree++;
		e->state = DYNPF_ENT_FREE;
		st->limbo_head++;
	}
	bpf_for(i, 0, max) {
		if (st->limbo_mid == st->limbo_tail)
			break;
		k = st->limbo_mid % pool;
		v = bpf_map_lookup_elem(&dynpf_limbo, &k);
		e = v ? dynpf_ent(*v) : NULL;
		if (!e)
			break;
		if (e->born + e->span > synced_gen)
			break;
		dynpf_unlink(*v);
		st->limbo_mid++;
	}
	if (st->limbo_mid != mid)
		st->epoch++;
	return (st->limbo_head - head) + (st->limbo_mid - mid);
}

/* Retire entry idx: dead from generation gen on, and in the limbo ring. */
static __always_inline void dynpf_retire(struct dynpf_state *st, __u32 idx, __u64 gen)
{
	struct dynpf_rule_ent *e = dynpf_ent(idx);
	__u32 k = st->limbo_tail % (dynpf_pool_size() ?: 1);

	if (!e)
		return;
	e->span = gen - e->born;
	dynpf_live_count(st, &e->r, e->tuple, -1);
	if (!bpf_map_update_elem(&dynpf_limbo, &k, &idx, BPF_ANY))
		st->limbo_tail++;
}

/* Did the open transaction find rule id alive when it first touched it? */
static __always_inline int dynpf_id_live0(struct dynpf_state *st, __u32 id)
{
	struct dynpf_id_state *s = bpf_map_lookup_elem(&dynpf_ids, &id);

	return s && s->txn == st->txn_id && (s->state & DYNPF_IDS_LIVE0);
}

/* Add rule r at generation gen: its entry linked, its id pointing at it. */
static __noinline void dynpf_apply_add(struct dynpf_state *st, const struct dynpf_rule *r,
				       __u64 gen, __u32 dims, __u32 plain)
{
	__u32 id = r->id, idx;
	__u64 *slot;
	struct dynpf_rule_ent *e;

	if (!st)
		return;
	slot = bpf_map_lookup_elem(&dynpf_idx, &id);
	if (!slot)
		return;
	if (*slot) /* the messages' checks refuse this; never two alive */
		dynpf_retire(st, *slot, gen);
	*slot = 0;
	/* A new id's counters start at 0; a rule replaced keeps them. */
	if (!dynpf_id_live0(st, id))
		dynpf_zero_rule_stats(id);
	if (r->action == DYNPF_ACT_LIMIT || r->action == DYNPF_ACT_SAMPLE) {
		struct dynpf_bucket *b = bpf_map_lookup_elem(&dynpf_buckets, &id);

		if (b) {
			b->credit = 0xffffffffffffull; /* full: capped at use */
			b->last = bpf_ktime_get_ns();
		}
	}
	idx = dynpf_link(r, gen, dims, plain);
	e = dynpf_ent(idx);
	if (!e)
		return;
	*slot = idx;
	dynpf_live_count(st, r, e->tuple, 1);
}

static __noinline void dynpf_apply_ops(struct dynpf_state *st, __u64 gen)
{
	__u32 i, n;
	__u64 *slot;

	if (!st)
		return;
	n = st->nops;
	bpf_for(i, 0, DYNPF_MAX_TXN_OPS) {
		struct dynpf_op *op;

		if (i >= n)
			break;
		op = bpf_map_lookup_elem(&dynpf_ops, &i);
		if (!op)
			break;
		switch (op->type) {
		case DYNPF_MSG_RULE_ADD:
			dynpf_apply_add(st, &op->rule, gen, op->pad[0], op->pad[1]);
			break;
		case DYNPF_MSG_RULE_DEL:
			slot = bpf_map_lookup_elem(&dynpf_idx, &op->id);
			if (slot && *slot) {
				dynpf_retire(st, *slot, gen);
				*slot = 0;
			}
			break;
		case DYNPF_MSG_SET:
			if (op->id == DYNPF_SET_DEFAULT_ACTION)
				st->default_action = op->value;
			else if (op->id == DYNPF_SET_PASS_ARP_ND)
				st->arp_nd_rules = !op->value;
			break;
		case DYNPF_MSG_COUNTER_RESET:
			if (op->id) {
				dynpf_zero_rule_stats(op->id);
			} else {
				__u32 r;

				bpf_for(r, 1, DYNPF_MAX_RULES) {
					slot = bpf_map_lookup_elem(&dynpf_idx, &r);
					if (!slot)
						break;
					if (*slot)
						dynpf_zero_rule_stats(r);
				}
			}
			break;
		}
	}
}

/* ---- declared protocols ---------------------------------------------------- */

static __always_inline struct dynpf_proto_stage *dynpf_stage_map(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&dynpf_proto_stage, &zero);
}

/* The table in force at generation gen (parsers/decltab.h), and its index. */
static __always_inline struct dynpf_proto_tab *dynpf_protos_at(__u64 gen, __u32 *k)
{
	__u32 k0 = 0, k1 = 1;
	struct dynpf_proto_tab *t0 = bpf_map_lookup_elem(&dynpf_protos, &k0);
	struct dynpf_proto_tab *t1 = bpf_map_lookup_elem(&dynpf_protos, &k1);

	if (!t0 || !t1)
		return NULL;
	*k = dynpf_proto_tab_cur(t0, t1, gen);
	return *k ? t1 : t0;
}

/* The open transaction's declarations and rule counts (above), made at its first use. */
static __always_inline struct dynpf_proto_stage *dynpf_stage(struct dynpf_state *st)
{
	struct dynpf_proto_stage *s = dynpf_stage_map();
	struct dynpf_proto_tab *a;
	__u32 k;

	if (!s)
		return NULL;
	if (s->txn != st->txn_id) {
		a = dynpf_protos_at(st->gen, &k);
		if (!a)
			return NULL;
		s->tab = *a;
		__builtin_memcpy(s->trefs, s->refs, sizeof(s->refs));
		s->txn = st->txn_id;
	}
	return s;
}

/* Two names equal (16 bytes, NUL-padded: dynpf_proto_check()). */
static __always_inline int dynpf_name_eq(const char *a, const char *b)
{
	__u64 a0, a1, b0, b1;

	__builtin_memcpy(&a0, a, 8);
	__builtin_memcpy(&a1, a + 8, 8);
	__builtin_memcpy(&b0, b, 8);
	__builtin_memcpy(&b1, b + 8, 8);
	return a0 == b0 && a1 == b1;
}

/*
 * The handlers of declarations, global subprograms (verified once, for any
 * message, as dynpf_rule_check_g()).
 */
DYNPF_SUBPROG int dynpf_msg_proto_add(struct dynpf_state *st, const struct dynpf_msg_proto_add *m,
				      __u16 *field)
{
	struct dynpf_proto_stage *s;
	struct dynpf_proto_tab *t;
	__u32 i, key, id;
	int err;

	if (!st || !m || !field)
		return -EINVAL;
	err = dynpf_proto_check(&m->d, field);
	if (err)
		return err;
	key = DYNPF_PROTO_KEY(m->d.at, m->d.at_val);
	s = dynpf_stage(st);
	if (!s) {
		*field = DYNPF_F_TXN;
		return -ENOSPC;
	}
	t = &s->tab;
	id = m->d.id & (DYNPF_MAX_PROTOS - 1);
	if (t->key[id]) {
		*field = DYNPF_F_PROTO_ID;
		return -EEXIST;
	}
	for (i = 0; i < DYNPF_MAX_PROTOS; i++) {
		if (!t->key[i])
			continue;
		if (dynpf_name_eq(t->d[i].name, m->d.name)) {
			*field = DYNPF_F_PROTO_NAME;
			return -EEXIST;
		}
		if (t->key[i] == key) {
			*field = DYNPF_F_PROTO_AT;
			return -EEXIST;
		}
	}
	dynpf_proto_tab_set(t, &m->d);
	s->trefs[id] = 0;
	*field = DYNPF_F_NONE;
	return 0;
}

DYNPF_SUBPROG int dynpf_msg_proto_del(struct dynpf_state *st, const struct dynpf_msg_proto_del *m,
				      __u16 *field)
{
	struct dynpf_proto_stage *s;
	__u32 id;
	int err;

	if (!st || !m || !field)
		return -EINVAL;
	err = dynpf_msg_proto_del_check(m, field);
	if (err)
		return err;
	id = m->id & (DYNPF_MAX_PROTOS - 1);
	s = dynpf_stage(st);
	if (!s) {
		*field = DYNPF_F_TXN;
		return -ENOSPC;
	}
	*field = DYNPF_F_PROTO_ID;
	if (!s->tab.key[id])
		return -ENOENT;
	if (s->trefs[id])
		return -EBUSY; /* a rule tests it: delete the rule first */
	dynpf_proto_tab_unset(&s->tab, id);
	*field = DYNPF_F_NONE;
	return 0;
}

/*
 * The rule staged by the open transaction's last RULE_ADD of id (one it
 * now deletes): found from the end of the staged ops. Only a rule added
 * and deleted in one transaction is looked for.
 */
static __always_inline const struct dynpf_rule *dynpf_staged_rule(struct dynpf_state *st, __u32 id)
{
	__u32 i, k, n = st->nops;

	bpf_for(i, 0, DYNPF_MAX_TXN_OPS) {
		struct dynpf_op *op;

		if (i >= n)
			break;
		k = n - 1 - i;
		op = bpf_map_lookup_elem(&dynpf_ops, &k);
		if (!op)
			break;
		if (op->type == DYNPF_MSG_RULE_ADD && op->id == id)
			return &op->rule;
	}
	return NULL;
}

/*
 * The declared protocols' rule counts for rule r (NULL: rule id, as the
 * open transaction has it), added (delta 1) or deleted (-1). A rule added
 * must test only protocols the transaction has declared, with types that
 * fit their type fields. Each test of a declared protocol counts once: the
 * counts are kept in memory, not in registers, so the verifier's states do
 * not multiply by the tests' combinations. A global subprogram.
 */
DYNPF_SUBPROG int dynpf_rule_decl_refs(struct dynpf_state *st, const struct dynpf_rule *r, __u32 id,
				       int delta, __u16 *field)
{
	struct dynpf_proto_stage *s = NULL;
	struct dynpf_id_state *ids;
	struct dynpf_rule_ent *e;
	const struct dynpf_match *m;
	__u32 i, f, pid, type;
	__u64 *slot;

	if (!st || !field)
		return -EINVAL;
	if (!r) {
		ids = bpf_map_lookup_elem(&dynpf_ids, &id);
		if (ids && ids->txn == st->txn_id) {
			r = (ids->state & 3) == DYNPF_IDS_ADDED ? dynpf_staged_rule(st, id) : NULL;
		} else {
			slot = bpf_map_lookup_elem(&dynpf_idx, &id);
			e = slot && *slot ? dynpf_ent(*slot) : NULL;
			r = e ? &e->r : NULL;
		}
		if (!r)
			return 0;
	}
	m = &r->m;
	for (i = 0; i < DYNPF_MATCH_TLVS + DYNPF_MATCH_DATA; i++) {
		if (i < DYNPF_MATCH_TLVS) {
			if (i >= m->ntlv)
				continue;
			f = m->tlv[i & (DYNPF_MATCH_TLVS - 1)].family;
			type = m->tlv[i & (DYNPF_MATCH_TLVS - 1)].type;
			*field = DYNPF_F_TLV;
		} else {
			if (i - DYNPF_MATCH_TLVS >= m->ndata)
				continue;
			f = m->data[i & (DYNPF_MATCH_DATA - 1)].where;
			type = m->data[i & (DYNPF_MATCH_DATA - 1)].type;
			*field = DYNPF_F_DATA;
		}
		if (f < DYNPF_TLV_NFAM || f >= DYNPF_TLV_NALL)
			continue;
		if (!s)
			s = dynpf_stage(st);
		if (!s) {
			*field = DYNPF_F_TXN;
			return -ENOSPC;
		}
		pid = (f - DYNPF_TLV_NFAM) & (DYNPF_MAX_PROTOS - 1);
		if (delta > 0) {
			if (!s->tab.key[pid])
				return -ENOENT; /* declare it first */
			if (type > dynpf_lf_max(s->tab.d[pid].tlv.type_size, 0))
				return -EINVAL;
			s->trefs[pid]++;
		} else if (s->trefs[pid]) {
			s->trefs[pid]--;
		}
	}
	*field = DYNPF_F_NONE;
	return 0;
}

/* Do tables a and b declare the same (born aside)? A global subprogram. */
DYNPF_SUBPROG int dynpf_proto_tab_same(const struct dynpf_proto_tab *a,
				       const struct dynpf_proto_tab *b)
{
	const __u64 *x = (const __u64 *)a, *y = (const __u64 *)b;
	__u32 i;

	if (!a || !b)
		return 0;
	for (i = 1; i < sizeof(*a) / 8; i++)
		if (x[i] != y[i])
			return 0;
	return 1;
}

/*
 * At the commit of a transaction that touched the declarations: the table
 * it made, for packets from generation gen on, written to the slot packets
 * before the one in force read, when it differs from the one in force.
 * That slot may still be read by a packet classified before the one in
 * force was published, unless every packet now running read a generation
 * at or after it (synced_gen): if not, -EAGAIN, and the commit is held
 * for a grace period. Rule counts are the drain's alone: no table for them.
 */
static __noinline int dynpf_protos_commit(struct dynpf_state *st, __u64 gen, __u64 synced_gen,
					  int check)
{
	struct dynpf_proto_stage *s = dynpf_stage_map();
	struct dynpf_proto_tab *cur, *next;
	__u32 k, o;

	if (!st || !s || s->txn != st->txn_id)
		return 0; /* the transaction left them alone */
	cur = dynpf_protos_at(st->gen, &k);
	o = (k ^ 1) & 1;
	next = bpf_map_lookup_elem(&dynpf_protos, &o);
	if (!cur || !next)
		return 0;
	if (dynpf_proto_tab_same(cur, &s->tab)) {
		if (!check)
			__builtin_memcpy(s->refs, s->trefs, sizeof(s->refs));
		return 0;
	}
	if (check)
		return synced_gen < cur->born ? -EAGAIN : 0;
	/* Not in force before gen: born first, then the rest, then publish. */
	s->tab.born = gen;
	*(volatile __u64 *)&next->born = gen;
	barrier();
	*next = s->tab;
	__builtin_memcpy(s->refs, s->trefs, sizeof(s->refs));
	return 0;
}

/*
 * Whether packets walk declared protocols (DYNPF_PUB_DECL): a rule alive
 * tests one, or a rule needs the whole parse (a declared header's error is
 * the parse's) and some are declared. At gen, after its commit.
 */
static __always_inline int dynpf_protos_walked(struct dynpf_state *st, __u64 gen)
{
	struct dynpf_proto_stage *s = dynpf_stage_map();
	struct dynpf_proto_tab *t;
	__u32 i, k;

	if (!s)
		return 0;
	for (i = 0; i < DYNPF_MAX_PROTOS; i++)
		if (s->refs[i])
			return 1;
	t = dynpf_protos_at(gen, &k);
	return st->need_cnt[__builtin_ctz(DYNPF_NEED_FULL)] && t && t->n;
}

/*
 * Publish generation gen: one store of the word packets read. Everything
 * the commit wrote is in place before it (barrier(); the stores reach the
 * other CPUs in order on x86).
 */
static __always_inline void dynpf_publish(struct dynpf_state *st, __u64 gen)
{
	__u64 pub = gen << DYNPF_PUB_GEN_SHIFT;
	__u32 b;

	for (b = 0; b < DYNPF_NEED_BITS; b++)
		if (st->need_cnt[b])
			pub |= 1u << b;
	if (st->default_action == DYNPF_ACT_DROP)
		pub |= DYNPF_PUB_DROP;
	if (st->arp_nd_rules)
		pub |= DYNPF_PUB_ARP_ND_RULES;
	if (st->nrules)
		pub |= DYNPF_PUB_RULES;
	if (dynpf_protos_walked(st, gen))
		pub |= DYNPF_PUB_DECL;
	barrier();
	*(volatile __u64 *)&st->pub = pub;
	st->gen = gen;
}

/*
 * Is there room for the staged transaction: entries for its adds, tuple
 * slots for the masks it adds that no slot in use has? The slots a
 * commit's masks need, or -1 when there are not enough entries.
 */
DYNPF_SUBPROG int dynpf_commit_room(struct dynpf_state *st)
{
	__u32 i, need = 0;

	if (!st)
		return -1;
	if (dynpf_ent_room(st) < st->added)
		return -1;
	bpf_for(i, 0, DYNPF_MAX_TUPLES) {
		struct dynpf_key *m;

		if (i >= st->new_masks)
			break;
		m = bpf_map_lookup_elem(&dynpf_txn_masks, &i);
		if (m && dynpf_tuple_find(m, 0, 0) < 0)
			need++;
	}
	return need;
}

/* ---- messages ------------------------------------------------------------ */

/* Is rule id alive now (not counting the open transaction)? */
static __always_inline int dynpf_id_alive(__u32 id)
{
	__u64 *slot = bpf_map_lookup_elem(&dynpf_idx, &id);

	return slot && *slot;
}

/* Does rule id exist, with the staged changes of the open transaction? */
static __always_inline int dynpf_id_exists(struct dynpf_state *st, __u32 id)
{
	struct dynpf_id_state *s = bpf_map_lookup_elem(&dynpf_ids, &id);

	if (s && s->txn == st->txn_id)
		return (s->state & 3) == DYNPF_IDS_ADDED;
	return dynpf_id_alive(id);
}

static __always_inline void dynpf_id_set(struct dynpf_state *st, __u32 id, __u32 state)
{
	struct dynpf_id_state *s = bpf_map_lookup_elem(&dynpf_ids, &id);

	if (!s)
		return;
	if (s->txn != st->txn_id) /* the first touch: was it alive? */
		state |= dynpf_id_alive(id) ? DYNPF_IDS_LIVE0 : 0;
	else
		state |= s->state & DYNPF_IDS_LIVE0;
	s->txn = st->txn_id;
	s->state = state;
}

/* The slot of the transaction's next op, or NULL: no room (*field: TXN). */
static __always_inline struct dynpf_op *dynpf_op_next(struct dynpf_state *st, __u16 *field)
{
	struct dynpf_op *op = NULL;
	__u32 i = st->nops;

	if (i < DYNPF_MAX_TXN_OPS && i < dynpf_cfg_max_ops)
		op = bpf_map_lookup_elem(&dynpf_ops, &i);
	if (!op)
		*field = DYNPF_F_TXN;
	return op;
}

/* Stage op, from dynpf_op_next(): its type and id, the rest zero. */
static __always_inline struct dynpf_op *dynpf_op_stage(struct dynpf_state *st, struct dynpf_op *op,
						       __u8 type, __u32 id)
{
	__builtin_memset(op, 0, sizeof(*op));
	op->type = type;
	op->id = id;
	st->nops++;
	return op;
}

/*
 * Is the tuple of the rule's mask and quick dimensions dims there, or
 * within the budget? Counts it if new.
 */
static __noinline int dynpf_tuple_room(struct dynpf_state *st, const struct dynpf_rule *r,
				       __u32 dims)
{
	struct dynpf_ctrl_tmp *tmp = dynpf_tmp(DYNPF_TMP_BUDGET);
	__u32 i;

	if (!tmp)
		return -E2BIG;
	if (dynpf_rule_any(r))
		return 0; /* a catch-all needs no tuple */
	dynpf_rule_tuple_key(r, &tmp->k, &tmp->mask, dims);
	if (dynpf_tuple_find(&tmp->mask, 0, 1) >= 0)
		return 0; /* a tuple with rules alive has it */
	bpf_for(i, 0, DYNPF_MAX_TUPLES) {
		struct dynpf_key *m;

		if (i >= st->new_masks)
			break;
		m = bpf_map_lookup_elem(&dynpf_txn_masks, &i);
		if (m && dynpf_key_eq(m, &tmp->mask))
			return 0;
	}
	if (st->ntuples + st->new_masks >= DYNPF_MAX_TUPLES)
		return -E2BIG;
	i = st->new_masks;
	if (bpf_map_update_elem(&dynpf_txn_masks, &i, &tmp->mask, BPF_ANY))
		return -E2BIG;
	st->new_masks++;
	return 0;
}

/*
 * The rule's tuple: the one of its mask and the quick dimensions it tests
 * (rules/quick.h), so that its quick filters can drop it for the packets
 * it cannot match while the rules of its mask that test other things are
 * probed (0); when the budget has no room for it, the one of its mask
 * alone, as before the quick filters (1: the op keeps it for the link).
 * A tuple's rules may test anything: the filters count them one by one.
 */
static __noinline int dynpf_tuple_budget(struct dynpf_state *st, const struct dynpf_rule *r,
					 __u32 dims)
{
	if (!dynpf_tuple_room(st, r, dims))
		return 0;
	if (dims && !dynpf_tuple_room(st, r, 0))
		return 1;
	return -E2BIG;
}

static __noinline int dynpf_msg_rule_add(struct dynpf_state *st, const struct dynpf_msg_rule_add *m,
					 __u16 *field)
{
	struct dynpf_op *op;
	int err, plain, dims;

	err = dynpf_rule_check_g(&m->rule, field);
	if (err)
		return err;
	if (m->rule.id >= dynpf_cfg_max_rules) {
		*field = DYNPF_F_ID;
		return -ERANGE; /* beyond the capacity this load was given */
	}
	if (dynpf_id_exists(st, m->rule.id)) {
		*field = DYNPF_F_ID;
		return -EEXIST;
	}
	op = dynpf_op_next(st, field);
	if (!op)
		return -ENOSPC;
	dims = dynpf_qf_dims_g(&m->rule);
	plain = dynpf_tuple_budget(st, &m->rule, dims);
	if (plain < 0) {
		*field = DYNPF_F_TUPLES;
		return plain;
	}
	err = dynpf_rule_decl_refs(st, &m->rule, m->rule.id, 1, field);
	if (err)
		return err;
	op = dynpf_op_stage(st, op, DYNPF_MSG_RULE_ADD, m->rule.id);
	op->rule = m->rule;
	op->pad[0] = dims; /* the quick dimensions it tests (rules/quick.h) */
	op->pad[1] = plain;
	st->added++;
	dynpf_id_set(st, m->rule.id, DYNPF_IDS_ADDED);
	return 0;
}

static __always_inline int dynpf_msg_rule_del(struct dynpf_state *st,
					      const struct dynpf_msg_rule_del *m, __u16 *field)
{
	struct dynpf_op *op;
	int err = dynpf_msg_del_check(m, field);

	if (err)
		return err;
	if (!dynpf_id_exists(st, m->id)) {
		*field = DYNPF_F_ID;
		return -ENOENT;
	}
	op = dynpf_op_next(st, field);
	if (!op)
		return -ENOSPC;
	err = dynpf_rule_decl_refs(st, NULL, m->id, -1, field);
	if (err)
		return err;
	dynpf_op_stage(st, op, DYNPF_MSG_RULE_DEL, m->id);
	st->deleted++;
	dynpf_id_set(st, m->id, DYNPF_IDS_DELETED);
	*field = DYNPF_F_NONE;
	return 0;
}

static __always_inline int dynpf_msg_set(struct dynpf_state *st, const struct dynpf_msg_set *m,
					 __u16 *field)
{
	struct dynpf_op *op;
	int err = dynpf_msg_set_check(m, field);

	if (err)
		return err;
	op = dynpf_op_next(st, field);
	if (!op)
		return -ENOSPC;
	dynpf_op_stage(st, op, DYNPF_MSG_SET, m->key)->value = m->value;
	*field = DYNPF_F_NONE;
	return 0;
}

static __always_inline int dynpf_msg_reset(struct dynpf_state *st,
					   const struct dynpf_msg_counter_reset *m, __u16 *field)
{
	struct dynpf_op *op;
	int err = dynpf_msg_reset_check(m, field);

	if (err)
		return err;
	if (m->id && !dynpf_id_exists(st, m->id)) {
		*field = DYNPF_F_ID;
		return -ENOENT;
	}
	op = dynpf_op_next(st, field);
	if (!op)
		return -ENOSPC;
	dynpf_op_stage(st, op, DYNPF_MSG_COUNTER_RESET, m->id);
	*field = DYNPF_F_NONE;
	return 0;
}

/* The whole message, by its type's constant size (the verifier's way). */
static __always_inline int dynpf_msg_read(union dynpf_msg *m, __u32 type, struct bpf_dynptr *dp)
{
	switch (type) {
	case DYNPF_MSG_RULE_ADD:
		return bpf_dynptr_read(m, sizeof(m->add), dp, 0, 0);
	case DYNPF_MSG_RULE_DEL:
		return bpf_dynptr_read(m, sizeof(m->del), dp, 0, 0);
	case DYNPF_MSG_SET:
		return bpf_dynptr_read(m, sizeof(m->set), dp, 0, 0);
	case DYNPF_MSG_COUNTER_RESET:
		return bpf_dynptr_read(m, sizeof(m->reset), dp, 0, 0);
	case DYNPF_MSG_PROTO_ADD:
		return bpf_dynptr_read(m, sizeof(m->padd), dp, 0, 0);
	case DYNPF_MSG_PROTO_DEL:
		return bpf_dynptr_read(m, sizeof(m->pdel), dp, 0, 0);
	}
	return bpf_dynptr_read(m, sizeof(m->txn), dp, 0, 0);
}

static __always_inline void dynpf_ack(const struct dynpf_ack_commit *a, __u32 size)
{
	struct bpf_dynptr dp;

	if (bpf_ringbuf_reserve_dynptr(&dynpf_acks, size, 0, &dp)) {
		bpf_ringbuf_discard_dynptr(&dp, 0);
		return;
	}
	bpf_dynptr_write(&dp, 0, (void *)a, size, 0);
	bpf_ringbuf_submit_dynptr(&dp, 0);
}

/* One message: validate, stage or act, and ack (a commit acks later). */
static __noinline int dynpf_msg(struct bpf_dynptr *dp, struct dynpf_drain_ctx *dc)
{
	struct dynpf_state *st = dc->st;
	struct dynpf_ack_commit a = {};
	__u32 zero = 0, size;
	union dynpf_msg *m;
	__u16 field = DYNPF_F_NONE;
	int err = 0;

	m = bpf_map_lookup_elem(&dynpf_msgbuf, &zero);
	if (!m)
		return 1;
	__builtin_memset(m, 0, sizeof(*m));
	size = bpf_dynptr_size(dp);
	if (size < sizeof(struct dynpf_msg_hdr) || bpf_dynptr_read(&m->h, sizeof(m->h), dp, 0, 0)) {
		field = DYNPF_F_SIZE;
		err = -EMSGSIZE;
		goto ack;
	}
	a.a.seq = m->h.seq;
	a.a.type = m->h.type;
	err = dynpf_msg_hdr_check(&m->h, size, &field);
	if (err)
		goto ack;
	if (dynpf_msg_read(m, m->h.type, dp)) {
		field = DYNPF_F_SIZE;
		err = -EMSGSIZE;
		goto ack;
	}
	if (m->h.type != DYNPF_MSG_TXN_BEGIN && !st->txn_open) {
		/* Every change is part of a transaction. */
		field = DYNPF_F_TXN;
		err = m->h.type == DYNPF_MSG_TXN_ABORT ? -ENOENT : -EPERM;
		goto ack;
	}
	switch (m->h.type) {
	case DYNPF_MSG_TXN_BEGIN:
		if (st->txn_open) {
			field = DYNPF_F_TXN;
			err = -EBUSY;
			break;
		}
		st->txn_open = 1;
		st->txn_failed = 0;
		st->txn_id++;
		st->nops = 0;
		st->new_masks = 0;
		st->added = 0;
		st->deleted = 0;
		break;
	case DYNPF_MSG_RULE_ADD:
		err = dynpf_msg_rule_add(st, &m->add, &field);
		break;
	case DYNPF_MSG_RULE_DEL:
		err = dynpf_msg_rule_del(st, &m->del, &field);
		break;
	case DYNPF_MSG_SET:
		err = dynpf_msg_set(st, &m->set, &field);
		break;
	case DYNPF_MSG_COUNTER_RESET:
		err = dynpf_msg_reset(st, &m->reset, &field);
		break;
	case DYNPF_MSG_PROTO_ADD:
		err = dynpf_msg_proto_add(st, &m->padd, &field);
		break;
	case DYNPF_MSG_PROTO_DEL:
		err = dynpf_msg_proto_del(st, &m->pdel, &field);
		break;
	case DYNPF_MSG_TXN_ABORT:
		st->txn_open = 0;
		st->nops = 0;
		break;
	case DYNPF_MSG_TXN_COMMIT:
		if (st->txn_failed) {
			/* A refused message: nothing of the transaction. */
			st->txn_open = 0;
			st->nops = 0;
			field = DYNPF_F_TXN;
			err = -EINVAL;
			break;
		}
		dc->commit = 1;
		dc->commit_seq = m->h.seq;
		return 1; /* applied and acked after the drain */
	}
	if (err && st->txn_open)
		st->txn_failed = 1;
ack:
	a.a.err = err;
	a.a.field = field;
	a.a.gen = (__u32)st->gen;
	a.a.size = sizeof(a.a);
	dynpf_ack(&a, sizeof(a.a));
	return 0;
}

static long dynpf_drain_cb(struct bpf_dynptr *dp, void *data)
{
	struct dynpf_drain_ctx *dc = data;

	dynpf_msg(dp, dc);
	dc->n++;
	return dc->commit || dc->n >= dc->max;
}

/*
 * The commit of the open transaction, message seq: applied at the next
 * generation, published and acked; or refused and acked when there is no
 * room and nothing in limbo could make some; or, when a grace period may
 * make room or free the declarations' other table (synced_gen, struct
 * dynpf_drain_args), held: -EAGAIN.
 */
static __noinline int dynpf_commit(struct dynpf_state *st, __u64 seq, __u64 synced_gen)
{
	struct dynpf_ack_commit a = {};
	int slots;

	if (!st)
		return 0;
	slots = dynpf_commit_room(st);
	a.a.seq = seq;
	a.a.type = DYNPF_MSG_TXN_COMMIT;
	if (slots < 0 || st->tuples_used + slots > DYNPF_MAX_TUPLES) {
		if (st->limbo_tail != st->limbo_head)
			goto hold;
		a.a.err = slots < 0 ? -ENOSPC : -E2BIG;
		a.a.field = DYNPF_F_TXN;
	} else if (dynpf_protos_commit(st, st->gen + 1, synced_gen, 1)) {
		goto hold; /* the declarations' slot may still be read */
	} else {
		dynpf_apply_ops(st, st->gen + 1);
		dynpf_protos_commit(st, st->gen + 1, synced_gen, 0);
		dynpf_publish(st, st->gen + 1);
	}
	st->pending = 0;
	st->txn_open = 0;
	st->nops = 0;
	a.a.gen = (__u32)st->gen;
	a.a.size = sizeof(a);
	a.nrules = st->nrules;
	a.ntuples = st->ntuples;
	a.added = st->added;
	a.deleted = st->deleted;
	dynpf_ack(&a, sizeof(a));
	return 0;
hold:
	st->pending = 1;
	st->pending_seq = seq;
	return -EAGAIN;
}

/* args: in and out, struct dynpf_drain_args (include/dynpf/ctrl.h). */
SEC("syscall")
int dynpf_drain(struct dynpf_drain_args *args)
{
	struct dynpf_drain_ctx dc = {};
	struct dynpf_state *st;
	long n;

	st = dynpf_state_get();
	if (!st)
		return -1;
	args->drained = 0;
	args->err = 0;
	args->reclaimed = dynpf_reclaim(args->synced_gen, args->synced_epoch, args->reclaim_max);
	/* A commit held for room: first, before anything after it. */
	if (st->pending && dynpf_commit(st, st->pending_seq, args->synced_gen)) {
		args->err = -EAGAIN;
		goto out;
	}
	dc.st = st;
	dc.max = args->max_msgs;
	if (dc.max == 0 || dc.max > DYNPF_ACK_MAX_RUN)
		dc.max = DYNPF_ACK_MAX_RUN;
	n = bpf_user_ringbuf_drain(&dynpf_ctrl, dynpf_drain_cb, &dc, 0);
	args->drained = n > 0 ? n : 0;
	if (n < 0)
		args->err = n;
	if (dc.commit && dynpf_commit(st, dc.commit_seq, args->synced_gen))
		args->err = -EAGAIN;
out:
	args->limbo = st->limbo_tail - st->limbo_head;
	args->gen = st->gen;
	args->epoch = st->epoch;
	return 0;
}
