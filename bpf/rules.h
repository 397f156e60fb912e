/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The rule set in BPF maps, shared by the drain program (bpf/drain.bpf.c)
 * and the data path (bpf/classify.h, in bpf/dynpf.bpf.c).
 *
 * One rule set, versioned: each rule entry (struct dynpf_rule_ent, in the
 * pool dynpf_rules) is born at a generation and, once deleted, dead from
 * another. A packet reads the generation once (dynpf_state.pub, one 64-bit
 * load that also holds the settings and what the rules need of the parse)
 * and skips every entry not alive at it, so it is classified by one whole
 * rule set. A commit links the transaction's new entries (unborn, so
 * invisible to the packets in flight), sets the death generation of the
 * entries it deletes, and publishes the new generation in one store: the
 * flip is that store, and the producer acks it without waiting for anyone.
 *
 * Reclaim, in the background and many entries at a time: a retired entry
 * stays in its chain (a packet of an older generation may still need it)
 * until a grace period has passed since its generation was published, then
 * it is unlinked; its own next pointer is left alone (a packet may be on
 * it), and it goes back to the free stack (dynpf_free) once another grace
 * period has passed since. The drain keeps them in order in the limbo ring
 * (dynpf_limbo); the producer says which grace periods have passed
 * (struct dynpf_drain_args, loader/channel/ring.c). Everything a packet
 * uses to find candidates (tuples, their selection bits, field filters,
 * bucket chains) is a superset while entries wait in limbo: a rule is found
 * and then skipped, never missed.
 *
 * Classifier: tuple space search. Rules are grouped by the mask of their
 * key (struct dynpf_key: interface, stack, family, protocol, exact ports,
 * address prefixes) and the quick filters' dimensions they test
 * (rules/quick.h). Per group ("tuple") a bucket per masked key heads a
 * chain of the rules with that key, sorted by priority. A packet costs one
 * probe per candidate tuple, whatever the number of rules; the candidates
 * are the tuples that the packet's family and protocol, its quick filters'
 * values and its field filters' values leave, and a tuple whose best
 * priority cannot beat the best match so far is skipped.
 * Chosen over bit-vector search (cost grows with the rule count, in words
 * per field) and decision trees (rebuilt in user space, not updated rule by
 * rule in BPF): a rule add or delete is one chain insert or unlink.
 *
 * Catch-alls: a rule that tests nothing (dynpf_rule_any(): "count", a last
 * "drop") is in no tuple. Its entry is on one chain of its own, from the
 * state's any_head (struct dynpf_state), in (prio, id) order, born and
 * retired as any other; a packet walks it before any tuple, so the best
 * terminal catch-all is the bar every tuple must beat (a tuple whose best
 * priority is after it is not probed). It takes no tuple slot, and a rule
 * set of catch-alls alone has no tuple at all: then the packet makes no
 * view of its parse and no candidates (bpf/classify.h). Against a konst
 * tuple of its own, probed as the others: syn with a catch-all alone
 * 126 -> 104 ns on xdp, with the bench's 10,000 rules 158 -> 147-149.
 */
#ifndef DYNPF_BPF_RULES_H
#define DYNPF_BPF_RULES_H

#include "dynpf/ctrl.h"
#include "match.h"
#include "quick.h"

/*
 * A tuple, as packets read it: what the drain writes into it only when the
 * tuple is made or freed, or a rule lowers its min_prio (its counts are in
 * struct dynpf_tuple_cnt, which packets never read: the cache line packets
 * read stays theirs while rules come and go).
 */
struct dynpf_tuple {
	struct dynpf_key mask;
	__u32 min_prio; /* no rule of the tuple has a lower priority */
	__u8 used;
	/*
	 * konst: the mask pins no field but the stack (a catch-all, rules of
	 * ranges, flags, TTL ...): every packet's masked key is the same, and
	 * khash its hash, made once by the drain, not per packet.
	 */
	__u8 konst;
	__u8 pad[2];
	__u64 khash;
};

/*
 * Tuple selection: which tuples can hold a rule for a packet, known from
 * each stack's family and protocol before any key is masked or hashed. A
 * rule set mixing IPv4 and IPv6, TCP, UDP and ICMP rules has tuples that
 * no one packet can match: a TCP/IPv4 packet skips the IPv6 and the UDP
 * tuples for the price of two loads, instead of a key and hash each.
 *
 * Per tuple, dynpf_tuple_cnt counts its linked entries by family test and
 * by protocol test; dynpf_tuple_sel holds the tuple bits they make, kept
 * up to date as entries are linked and unlinked. A bit is set
 * when some rule of the tuple could match (a superset: the rule's own
 * test decides), so a packet's candidates are, per stack,
 * stk[stack].fam[family] & proto[stack][protocol] (no IP header: fam[0]).
 */
#define DYNPF_SEL_ANY 256 /* dynpf_tuple_cnt.proto: rules without a protocol test */
struct dynpf_tuple_cnt {
	__u32 fam[3]; /* rules without a family test, of IPv4, of IPv6 */
	__u32 proto[DYNPF_SEL_ANY + 1];
	__u32 qwild[DYNPF_QF_N]; /* rules that do not test quick dimension d */
	/* The last values of dimension d whose bits the drain set (qlast_ok
	 * bit d): a rule with the same ones sets none (dynpf_qf_rule_bits()). */
	struct dynpf_qf_set qlast[DYNPF_QF_N];
	__u32 qlast_ok;
	__u32 nrules; /* entries linked: alive, unborn, or retired in limbo */
	__u32 nlive;  /* rules alive at the current generation */
	/* A field filter's count could not be made (no memory): its bits stay
	 * until the tuple goes, as before there were counts. */
	__u32 fs_lost;
	__u32 optw; /* entries linked of rules that read TCP options */
	/* of those, rules that read more than which types are there
	 * (dynpf_rule_tcp_opt_types(): DYNPF_TCP_OPT_WHOLE) */
	__u32 optall;
	/* the types the others test the presence of: grown as they are
	 * linked, cleared when the tuple is made or freed */
	__u64 optk;
};

/*
 * Field filters, after the family and protocol: per stack, for
 * each field F (the source and destination address by a 16-bit index of
 * their first bits, the source and destination port), dynpf_fsel holds at
 * index v the tuples with a rule whose F is v, and dynpf_tuple_sel.filt
 * the tuples F can filter: those whose mask pins F (an IPv4 prefix of 16
 * bits or more, an IPv6 one of 32 or more, an exact port). A packet keeps
 * such a tuple only if its bit is set at the packet's own value of F: with
 * 10,000 rules of 20 masks, the syn packet probes 5 tuples instead of 10.
 * A bit is set as a rule is linked and cleared when the last entry of its
 * tuple with that value is unlinked (a grace period after the rule died:
 * no packet can still match it): the drain counts them per value and
 * tuple in dynpf_fs_cnt, a hash map that holds only the counts in use
 * (no preallocation: 4 entries a rule at most). Before the counts, a
 * deleted rule's bits stayed until its tuple's last rule went, and a rule
 * set that churned (a blocklist) kept tuples as candidates for nothing: a
 * deleted rule of the bench cost syn 14 ns a packet that way.
 * The sizes, which the loader needs too, are in include/dynpf/ctrl.h.
 */

/*
 * What a packet reads of the selection for one stack, in three cache lines
 * (the first: the family's tuples and the hints; then the quick filters'
 * wild tuples; then the field filters'): a TCP/IPv4 packet reads 5 lines
 * of the selection, not 8 spread over its 4.5 KB.
 */
struct dynpf_sel_stack {
	__u64 fam[3]; /* [0]: no IP header, [1]: IPv4, [2]: IPv6 */
	/*
	 * The quick filters (rules/quick.h): the tuples that every dimension
	 * cannot keep (qany: some dimension tested by each of their rules),
	 * and below, per dimension, the tuples with a rule that does not test
	 * it (dynpf_qsel cannot drop them). Kept from counts per tuple
	 * (dynpf_tuple_cnt.qwild) as entries are linked and unlinked.
	 */
	__u64 qany;
	/*
	 * The tuples that are not konst (struct dynpf_tuple): only their
	 * probes hash the packet's key. A packet whose candidates are all
	 * konst (a catch-all, rules of flags or TTL only) makes no key and
	 * runs no field filter. Exact for every tuple that holds a rule
	 * alive at a packet's generation: the bit is set when the tuple is
	 * made, before its first rule is committed, and cleared when it is
	 * freed, after its last entry's grace period. A slot freed and made
	 * again while a packet runs holds no rule that packet can see: a
	 * probe with a stale key there misses nothing (the same holds for
	 * the stacks whose key a packet did not make).
	 */
	__u64 keyed;
	/*
	 * The tuples with a rule that reads TCP options (DYNPF_NEED_TCP_OPT),
	 * from dynpf_tuple_cnt.optw: the option gate below. Of those, optall:
	 * those with a rule that reads more of an area than which types are
	 * in it (from dynpf_tuple_cnt.optall): the walk goes to the area's
	 * end for them. The others' rules test only the presence of types
	 * below 64, and optk (stack 0's; stack 1's is unused) holds every
	 * such type of every tuple (bit t: type t; the union of
	 * dynpf_tuple_cnt.optk): a walk may end once it has seen them all
	 * (dynpf_tcp_opt_types()). One word, not one per tuple: the union of
	 * the candidates', taken in a loop in the gate, took dynpf_xdp past
	 * the verifier's 1M instructions. A superset of what a packet's
	 * candidates test, so a walk goes on a little further at worst;
	 * grown as rules are linked, made again when a tuple is freed.
	 */
	__u64 optw;
	__u64 optall;
	__u64 optk;
	__u64 qwild[DYNPF_QF_N];
	__u64 filt[2][DYNPF_FS_NFIELDS]; /* [IPv6?][field] */
};
_Static_assert(sizeof(struct dynpf_sel_stack) == 3 * 64, "three cache lines a stack");

struct dynpf_tuple_sel {
	struct dynpf_sel_stack stk[DYNPF_MAX_STACKS];
	__u64 proto[DYNPF_MAX_STACKS][256];
};

/* The index of dynpf_fsel for stack, field F and its value v. */
static __always_inline __u32 dynpf_fs_idx(__u32 stack, __u32 field, __u32 v)
{
	return ((stack & 1) * DYNPF_FS_NFIELDS + (field & 3)) * DYNPF_FS_VALS +
	       (v & (DYNPF_FS_VALS - 1));
}

/*
 * The value of field F of key k, of family v6 (0: IPv4), as the filter
 * indexes it: an IPv4 address's first 16 bits; a hash of an IPv6 address's
 * first 32 (the first 16 are 2001 or 2a0x nearly everywhere); a port.
 */
static __always_inline __u32 dynpf_fs_val_of(const __u8 *src, const __u8 *dst, __u16 sport,
					     __u16 dport, __u32 field, __u32 v6)
{
	const __u8 *a = field == DYNPF_FS_SRC ? src : dst;
	__u32 w;

	if (field == DYNPF_FS_SPORT)
		return sport;
	if (field == DYNPF_FS_DPORT)
		return dport;
	if (!v6)
		return (__u32)a[0] << 8 | a[1];
	w = (__u32)a[0] << 24 | (__u32)a[1] << 16 | (__u32)a[2] << 8 | a[3];
	return (w * 0x9e3779b1u) >> 16;
}

static __always_inline __u32 dynpf_fs_val(const struct dynpf_key *k, __u32 field, __u32 v6)
{
	return dynpf_fs_val_of(k->src, k->dst, k->sport, k->dport, field, v6);
}

/* Does a tuple of mask m pin field F, for family v6 (0: IPv4)? */
static __always_inline int dynpf_fs_pins(const struct dynpf_key *m, __u32 field, __u32 v6)
{
	const __u8 *a = field == DYNPF_FS_SRC ? m->src : m->dst;

	if (field == DYNPF_FS_SPORT)
		return m->sport == 0xffff;
	if (field == DYNPF_FS_DPORT)
		return m->dport == 0xffff;
	return a[v6 ? 3 : 1] == 0xff;
}

/*
 * A 64-bit hash of a masked key whose pad byte holds its tuple's slot, so
 * that equal masked keys of two tuples differ. Its low bits pick the key's
 * bucket in dynpf_heads; the whole of it is kept in the rule entries, which
 * a walk compares first. Two keys with one hash share their entries' hash:
 * harmless, every candidate is checked whole by dynpf_rule_match().
 *
 * Six independent products, summed, rather than a chain of rounds: the
 * multiplies run side by side in the CPU. A chain of six multiplies, each
 * waiting for the last, cost about 15 ns per tuple walked, the classifier's
 * largest cost with many tuples (perf, 10,000 rules). A product's low bits
 * see only its word's low bits: the fold and the final multiply carry every
 * input bit into the low bits that pick the bucket.
 */
static __always_inline __u64 dynpf_hash6(__u64 w0, __u64 w1, __u64 w2, __u64 w3, __u64 w4, __u64 w5)
{
	__u64 x;

	x = (w0 ^ 0x243f6a8885a308d3ull) * 0x9e3779b97f4a7c15ull +
	    (w1 ^ 0x13198a2e03707344ull) * 0xbf58476d1ce4e5b9ull +
	    (w2 ^ 0xa4093822299f31d0ull) * 0x94d049bb133111ebull +
	    (w3 ^ 0x082efa98ec4e6c89ull) * 0xd6e8feb86659fd93ull +
	    (w4 ^ 0x452821e638d01377ull) * 0xc2b2ae3d27d4eb4full +
	    (w5 ^ 0xbe5466cf34e90c6cull) * 0x165667b19e3779f9ull;
	x ^= x >> 32;
	x *= 0xff51afd7ed558ccdull;
	return x ^ (x >> 33);
}

static __always_inline __u64 dynpf_key_hash(const struct dynpf_key *k)
{
	return dynpf_hash6(k->w[0], k->w[1], k->w[2], k->w[3], k->w[4], k->w[5]);
}

/* The pad byte of struct dynpf_key, in its first word. */
_Static_assert(offsetof(struct dynpf_key, pad) == 7, "dynpf_key.pad is the 8th byte");
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define DYNPF_KEY_PAD_SHIFT 56
#else
#define DYNPF_KEY_PAD_SHIFT 0
#endif

/*
 * dynpf_key_hash() of k under mask with slot in the pad byte, computed in
 * registers: the same value as masking into a key, setting its pad and
 * hashing it (what the control plane does for a rule), without the stores
 * and loads.
 */
static __always_inline __u64 dynpf_key_hash_masked(const struct dynpf_key *k,
						   const struct dynpf_key *mask, __u32 slot)
{
	__u64 w0 = k->w[0] & mask->w[0] & ~(0xffull << DYNPF_KEY_PAD_SHIFT);

	w0 |= (__u64)(slot & 0xff) << DYNPF_KEY_PAD_SHIFT;
	return dynpf_hash6(w0, k->w[1] & mask->w[1], k->w[2] & mask->w[2], k->w[3] & mask->w[3],
			   k->w[4] & mask->w[4], k->w[5] & mask->w[5]);
}

/* A token bucket (limit and sample rates), in nanoseconds of credit. */
struct dynpf_bucket {
	struct bpf_spin_lock lock;
	__u32 pad;
	__u64 credit; /* ns worth of packets: one packet costs 1e9 / rate */
	__u64 last;   /* bpf_ktime_get_ns() of the last refill */
};

/*
 * The maps and settings below are the two units' own (dynpf.bpf.c and
 * drain.bpf.c, compiled apart): each unit has them, __weak, and the BPF
 * static linker (bpftool gen object, the Makefile) keeps one of each in
 * .output/dynpf.bpf.o; it refuses the link if the two differ in type or,
 * for a map, in its definition (max_entries mismatch, ...).
 *
 * The rule capacity of this load: rule ids below dynpf_cfg_max_rules, an
 * entry pool of twice as many (a whole rule set replaced while the old one
 * waits in limbo), and as many staged messages per transaction as
 * dynpf_cfg_max_ops. The loader sizes the maps below to match
 * (bpf_map__set_max_entries): a test run of a capture without rules does
 * not allocate 50 MB of rule tables.
 */
const volatile __u32 dynpf_cfg_max_rules __weak = DYNPF_MAX_RULES;
const volatile __u32 dynpf_cfg_max_ops __weak = DYNPF_MAX_TXN_OPS;
/* Buckets of dynpf_heads, a power of 2 >= 2 * dynpf_cfg_max_rules. */
const volatile __u32 dynpf_cfg_buckets __weak = 2 * DYNPF_MAX_RULES;

/* The state and the published word (include/dynpf/ctrl.h). User space maps it. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct dynpf_state);
} dynpf_state __weak SEC(".maps");

/* The entry pool: 2 * dynpf_cfg_max_rules entries, 0 unused. User space maps it. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2 * DYNPF_MAX_RULES);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct dynpf_rule_ent);
} dynpf_rules __weak SEC(".maps");

/*
 * Per rule id, its entry alive at the current generation, or 0. User space
 * maps it: 64-bit values, the size an array map's element has in memory.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, DYNPF_MAX_RULES);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, __u64);
} dynpf_idx __weak SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, DYNPF_MAX_TUPLES);
	__type(key, __u32);
	__type(value, struct dynpf_tuple);
} dynpf_tuples __weak SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, DYNPF_MAX_TUPLES);
	__type(key, __u32);
	__type(value, struct dynpf_tuple_cnt);
} dynpf_tuple_cnt __weak SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dynpf_tuple_sel);
} dynpf_tuple_sel __weak SEC(".maps");

/*
 * The buckets of the rules' masked keys: dynpf_cfg_buckets heads of chains
 * threaded through dynpf_rules (dynpf_rule_ent.next), each in (prio, id)
 * order. A bucket holds the entries of every key whose hash falls in it, of
 * any tuple: at most half the buckets are used, so a packet's key finds an
 * empty bucket (one load) or mostly its own rules. An array, not a hash
 * map: a lookup is an inlined load, not a call hashing the key again.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2 * DYNPF_MAX_RULES);
	__type(key, __u32);
	__type(value, __u32);
} dynpf_heads __weak SEC(".maps");

/*
 * The chain heads of the konst tuples (struct dynpf_tuple), one per slot:
 * their entries are threaded from here, not from a bucket. A packet's
 * probe of such a tuple loads its head by the slot, beside the tuple
 * itself, instead of after it (the bucket's index is khash): one dependent
 * load less, and no other tuple's entries in the chain.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, DYNPF_MAX_TUPLES);
	__type(key, __u32);
	__type(value, __u32);
} dynpf_kheads __weak SEC(".maps");

/* The field filters' tuple bits (above); sized to 1 entry without rules. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, DYNPF_FS_ENTRIES);
	__type(key, __u32);
	__type(value, __u64);
} dynpf_fsel __weak SEC(".maps");

/*
 * The field filters on the tuples m of stack s, of family v6 (0: IPv4),
 * for the packet's stack st, of view vs (NULL: a TCP header just parsed):
 * the tuples left. The values are the ones dynpf_fs_val() gives for the
 * key dynpf_pkt_key() makes (ports only with a TCP or UDP header), read
 * from the parse: the packet makes its key only for a tuple that survives.
 * Whether it has ports is asked per field, not kept across the lookups: kept,
 * it took the TC programs' frames past the 512 bytes their calls may share.
 */
static __always_inline __u64 dynpf_fs_filter(const struct dynpf_tuple_sel *sel, __u64 m,
					     const struct dynpf_stack *st,
					     const struct dynpf_cls_stack *vs, __u32 s, __u32 v6)
{
	__u32 fs, idx;
	__u64 fm, *w;
	int ports;

	for (fs = 0; fs < DYNPF_FS_NFIELDS; fs++) {
		fm = sel->stk[s].filt[v6][fs] & m;
		if (!fm)
			continue;
		ports = !vs || dynpf_has_ports(vs->l4);
		idx = dynpf_fs_idx(s, fs,
				   dynpf_fs_val_of(st->l3.saddr, st->l3.daddr,
						   ports ? st->l4.sport : 0,
						   ports ? st->l4.dport : 0, fs, v6));
		w = bpf_map_lookup_elem(&dynpf_fsel, &idx);
		if (w)
			m &= ~fm | *w;
	}
	return m;
}

/*
 * The four values the field filters index for stack st of view vs, of
 * family v6, 16 bits each in field order (dynpf_fs_val_of(); ports only with
 * a TCP or UDP header, as the key has them): the classifier's cache and
 * dynpf_fs_filter_v() read them.
 */
static __always_inline __u64 dynpf_fs_vals(const struct dynpf_stack *st,
					   const struct dynpf_cls_stack *vs, __u32 v6)
{
	__u64 sp = 0, dp = 0;

	if (dynpf_has_ports(vs->l4)) {
		sp = st->l4.sport;
		dp = st->l4.dport;
	}
	_Static_assert(DYNPF_FS_SRC == 0 && DYNPF_FS_DST == 1 && DYNPF_FS_SPORT == 2 &&
			       DYNPF_FS_DPORT == 3,
		       "the fields' order in the word");
	return (__u64)dynpf_fs_val_of(st->l3.saddr, st->l3.daddr, 0, 0, DYNPF_FS_SRC, v6) |
	       (__u64)dynpf_fs_val_of(st->l3.saddr, st->l3.daddr, 0, 0, DYNPF_FS_DST, v6) << 16 |
	       sp << 32 | dp << 48;
}

/* dynpf_fs_filter() with the values made (fsv, dynpf_fs_vals()). */
static __always_inline __u64 dynpf_fs_filter_v(const struct dynpf_tuple_sel *sel, __u64 m,
					       __u64 fsv, __u32 s, __u32 v6)
{
	__u32 fs, idx;
	__u64 fm, *w;

	for (fs = 0; fs < DYNPF_FS_NFIELDS; fs++) {
		fm = sel->stk[s].filt[v6][fs] & m;
		if (!fm)
			continue;
		idx = dynpf_fs_idx(s, fs, fsv >> (16 * fs));
		w = bpf_map_lookup_elem(&dynpf_fsel, &idx);
		if (w)
			m &= ~fm | *w;
	}
	return m;
}

/*
 * The quick filters' tuple bits: per stack, dimension and value, the tuples
 * with a rule that can match a packet with that value (rules/quick.h). Set
 * as a rule is linked, cleared when its tuple goes, as the field filters.
 * One value, looked up once: the packet's 8 loads are loads, not calls
 * that clobber registers.
 */
struct dynpf_qsel {
	__u64 t[DYNPF_MAX_STACKS][DYNPF_QF_N][DYNPF_QF_VALS];
};
_Static_assert(DYNPF_QF_N == 8, "indexes of dimensions masked by 7");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dynpf_qsel);
} dynpf_qsel __weak SEC(".maps");

static __always_inline __u32 *dynpf_head(__u64 hash)
{
	__u32 k = (__u32)hash & (dynpf_cfg_buckets - 1);

	return bpf_map_lookup_elem(&dynpf_heads, &k);
}

/* The chain head of konst tuple t. */
static __always_inline __u32 *dynpf_khead(__u32 t)
{
	__u32 k = t & (DYNPF_MAX_TUPLES - 1);

	return bpf_map_lookup_elem(&dynpf_kheads, &k);
}

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, DYNPF_MAX_RULES);
	__type(key, __u32);
	__type(value, struct dynpf_rule_stats);
} dynpf_rule_stats __weak SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, DYNPF_MAX_RULES);
	__type(key, __u32);
	__type(value, struct dynpf_bucket);
} dynpf_buckets __weak SEC(".maps");

static __always_inline struct dynpf_state *dynpf_state_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&dynpf_state, &zero);
}

/* Entry idx of the pool. */
static __always_inline struct dynpf_rule_ent *dynpf_ent(__u32 idx)
{
	return bpf_map_lookup_elem(&dynpf_rules, &idx);
}

/* Does a packet at generation gen see entry e? (One compare: ctrl.h says why.) */
static __always_inline int dynpf_ent_alive(const struct dynpf_rule_ent *e, __u64 gen)
{
	return gen - e->born < e->span;
}

static __always_inline struct dynpf_tuple *dynpf_tuple(__u32 t)
{
	__u32 k = t & (DYNPF_MAX_TUPLES - 1);

	return bpf_map_lookup_elem(&dynpf_tuples, &k);
}

/*
 * The TCP option gate (parsers/tcp.h, DYNPF_SKIP_TCP_OPT_GATE): may a rule
 * that reads TCP options match packet p, whose outer stack's TCP header was
 * just parsed? Its candidates among the tuples with such a rule (optw), by
 * family, protocol, the quick filters of the TCP header's fields and the
 * field filters, as dynpf_tuple_cands() will take them (a superset: the
 * rule's own test decides). None (0): the option area is
 * left unwalked, as when no rule reads options at all, and no verdict
 * changes. Only the outer stack's: its TCP header ends the parse (no
 * declared protocol after it: the gate is not asked then), so the packet
 * has no inner stack, whose candidates are then the tuples without a
 * family test, and a TLV test (which matches the options of any stack)
 * sees only this area.
 * Some: those candidates (all of them, ~0, where the gate cannot tell),
 * for dynpf_tcp_opt_types().
 */
static __always_inline __u64 dynpf_tcp_opt_wanted(const struct dynpf_pkt *p, int inner)
{
	const struct dynpf_stack *st = &p->st[0];
	__u32 zero = 0, v6 = st->l3.version == 6;
	struct dynpf_tuple_sel *sel;
	struct dynpf_qsel *qs;
	__u64 m, qf, qsp, qdp;

	sel = bpf_map_lookup_elem(&dynpf_tuple_sel, &zero);
	if (!sel)
		return ~0ull;
	/* An inner stack's rule without a family test matches a packet with
	 * no inner stack by a TLV test (of any stack's TLVs): as its
	 * candidates, stk[1].fam[0], no field filter. */
	if (inner && (sel->stk[1].optw & sel->stk[1].fam[0]))
		return ~0ull;
	/* The stack's protocol as the classifier's view takes it
	 * (dynpf_cls_view_walk()): IPv4's header's, which is AH's 51 when
	 * AH comes before the TCP header (a rule of `proto ah` sees it so);
	 * IPv6's upper-layer header's, TCP's here (dynpf_ip6_upper() passes
	 * AH and the other extension headers). Taken as TCP behind IPv4's AH,
	 * the gate missed such a rule's tuple and left its options unwalked:
	 * `proto ah tcp option mss missing` matched a segment with an MSS
	 * (tests/rules/optgate.rules, ipv4_ext.pcap's last packet). */
	m = sel->stk[0].optw & sel->stk[0].fam[v6 ? 2 : 1] &
	    sel->proto[0][v6 ? DYNPF_IPPROTO_TCP : st->l3.proto];
	if (!m)
		return 0;
	qf = sel->stk[0].qwild[DYNPF_QF_FLAGS];
	qsp = sel->stk[0].qwild[DYNPF_QF_SPORT];
	qdp = sel->stk[0].qwild[DYNPF_QF_DPORT];
	_Static_assert(DYNPF_FS_NFIELDS == 4, "a load per field");
	/* A tuple that none of the filters below can drop (it pins no field,
	 * and has a rule testing none of the quick fields): wanted, at once
	 * ("tcp option 8": tcp-opt40's rule), with every candidate so far. */
	if (m & qf & qsp & qdp &
	    ~(sel->stk[0].filt[v6][0] | sel->stk[0].filt[v6][1] | sel->stk[0].filt[v6][2] |
	      sel->stk[0].filt[v6][3]))
		return m;
	/* The quick filters of the TCP header's own fields, as
	 * dynpf_qf_val() gives them ("tcp flags syn", the ports' high bytes). */
	qs = bpf_map_lookup_elem(&dynpf_qsel, &zero);
	if (qs) {
		m &= qf | qs->t[0][DYNPF_QF_FLAGS][st->l4.flags];
		m &= qsp | qs->t[0][DYNPF_QF_SPORT][st->l4.sport >> 8];
		m &= qdp | qs->t[0][DYNPF_QF_DPORT][st->l4.dport >> 8];
	}
	return dynpf_fs_filter(sel, m, st, NULL, 0, v6);
}
#define DYNPF_TCP_OPT_GATE(p, inner) dynpf_tcp_opt_wanted(p, inner)

/*
 * The option types the walk must see for the rules of the gate's candidate
 * tuples m (struct dynpf_area.tcp_want): the whole area if one of them has
 * a rule that reads more (optall, of either stack: m is ~0 where the gate
 * could not tell), else every type a rule of any tuple tests the presence
 * of (optk). Asked after the gate, the selection looked up again: the
 * gate returning the types took the TC programs past the 512 bytes of
 * stack their calls may share.
 */
static __always_inline __u64 dynpf_tcp_opt_types(__u64 m)
{
	struct dynpf_tuple_sel *sel;
	__u32 zero = 0;

	sel = bpf_map_lookup_elem(&dynpf_tuple_sel, &zero);
	if (!sel || (m & (sel->stk[0].optall | sel->stk[1].optall)) || !sel->stk[0].optk)
		return DYNPF_TCP_OPT_WHOLE;
	return sel->stk[0].optk;
}
#define DYNPF_TCP_OPT_TYPES(m) dynpf_tcp_opt_types(m)

#endif /* DYNPF_BPF_RULES_H */
