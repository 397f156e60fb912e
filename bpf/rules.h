/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The rule set in BPF maps, shared by the drain program (bpf/ctrl.h) and
 * the data path (bpf/classify.h).
 *
 * Two copies ("sides") of the rule set: the data path reads the active one
 * only; the drain program changes only the inactive one, then flips
 * dynpf_state.active. A packet reads `active` once, so it is classified by
 * one whole rule set. The changes of the last commit are kept (the staged
 * ops) and applied to the other side at the next drain run, once the
 * producer says an RCU grace period has passed since the flip (no packet
 * can still be reading that side; see loader/ctrl.c).
 *
 * Classifier: tuple space search. Rules are grouped by the mask of their
 * key (struct dynpf_key: interface, stack, family, protocol, exact ports,
 * address prefixes). Per group ("tuple") a hash map entry per masked key
 * heads a chain of the rules with that key, sorted by priority. A packet
 * costs one hash lookup per tuple, whatever the number of rules, and a
 * tuple whose best priority cannot beat the best match so far is skipped.
 * Chosen over bit-vector search (cost grows with the rule count, in words
 * per field) and decision trees (rebuilt in user space, not updated rule by
 * rule in BPF): a rule add or delete is one chain insert or unlink.
 */
#ifndef DYNPF_BPF_RULES_H
#define DYNPF_BPF_RULES_H

#include "dynpf/ctrl.h"
#include "match.h"


/* A staged change (the drain validated it; the commit applies it). */
struct dynpf_op {
	__u8 type;   /* DYNPF_MSG_RULE_ADD, _RULE_DEL, _SET, _COUNTER_RESET */
	__u8 pad[3];
	__u32 id;    /* rule id; SET: the key */
	__u64 value; /* SET */
	struct dynpf_rule rule;
};


/*
 * A tuple's Bloom filter of the masked keys it holds (dynpf_blooms, one per
 * tuple slot): one bit per key, set when a rule is added, cleared when the
 * tuple is given out again (a deleted rule's bit stays: a false positive
 * costs the hash lookup it would have saved, nothing else). A packet looks
 * a tuple up in dynpf_tss only if its bit is set, so most tuples of a large
 * rule set cost a few arithmetic operations, not a hash map lookup. 65536
 * bits: under 1% false positives with 500 keys a tuple, 7% with 5,000.
 */
#define DYNPF_BLOOM_SHIFT 16
#define DYNPF_BLOOM_WORDS ((1u << DYNPF_BLOOM_SHIFT) / 64)
struct dynpf_bloom {
	__u64 w[DYNPF_BLOOM_WORDS];
};

struct dynpf_tuple {
	struct dynpf_key mask;
	__u32 nrules;
	__u32 min_prio; /* no rule of the tuple has a lower priority */
	__u8 used;
	__u8 pad[7];
};

/*
 * A 64-bit hash of a masked key: the key of dynpf_tss (16 bytes to hash
 * instead of 56), and its top bits the key's bit in the Bloom filter. Two
 * keys with one hash share a chain: harmless, every candidate is checked
 * whole by dynpf_rule_match().
 */
static __always_inline __u64 dynpf_key_hash(const struct dynpf_key *k)
{
	__u64 x = k->w[0] * 0x9e3779b97f4a7c15ull;

	x = (x ^ k->w[1]) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ k->w[2]) * 0x94d049bb133111ebull;
	x = (x ^ k->w[3]) * 0x9e3779b97f4a7c15ull;
	x = (x ^ k->w[4]) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ k->w[5]) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

#define dynpf_bloom_bit(h) ((__u32)((h) >> (64 - DYNPF_BLOOM_SHIFT)))

struct dynpf_tss_key {
	__u32 slot;  /* side * DYNPF_MAX_TUPLES + tuple */
	__u32 pad;
	__u64 hash;  /* dynpf_key_hash() of the masked key */
};

/* Per rule id, during a transaction: what the staged ops did to it. */
#define DYNPF_IDS_ADDED 1
#define DYNPF_IDS_DELETED 2
struct dynpf_id_state {
	__u32 txn;
	__u32 state;
};

/* A token bucket (limit and sample rates), in nanoseconds of credit. */
struct dynpf_bucket {
	struct bpf_spin_lock lock;
	__u32 pad;
	__u64 credit; /* ns worth of packets: one packet costs 1e9 / rate */
	__u64 last;   /* bpf_ktime_get_ns() of the last refill */
};


/*
 * The rule capacity of this load: rule ids below dynpf_cfg_max_rules, and
 * as many staged messages per transaction as dynpf_cfg_max_ops. The loader
 * sizes the maps below to match (bpf_map__set_max_entries): a test run of
 * a capture without rules does not allocate 50 MB of rule tables.
 */
const volatile __u32 dynpf_cfg_max_rules = DYNPF_MAX_RULES;
const volatile __u32 dynpf_cfg_max_ops = DYNPF_MAX_TXN_OPS;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dynpf_state);
} dynpf_state SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2 * DYNPF_MAX_RULES);
	__type(key, __u32);
	__type(value, struct dynpf_rule_ent);
} dynpf_rules SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2 * DYNPF_MAX_TUPLES);
	__type(key, __u32);
	__type(value, struct dynpf_tuple);
} dynpf_tuples SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2 * DYNPF_MAX_TUPLES);
	__type(key, __u32);
	__type(value, struct dynpf_bloom);
} dynpf_blooms SEC(".maps");

static __always_inline struct dynpf_bloom *dynpf_bloom(__u32 side, __u32 t)
{
	__u32 k = (side & 1) * DYNPF_MAX_TUPLES + (t & (DYNPF_MAX_TUPLES - 1));

	return bpf_map_lookup_elem(&dynpf_blooms, &k);
}

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 2 * DYNPF_MAX_RULES);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct dynpf_tss_key);
	__type(value, __u32);
} dynpf_tss SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, DYNPF_MAX_RULES);
	__type(key, __u32);
	__type(value, struct dynpf_rule_stats);
} dynpf_rule_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, DYNPF_MAX_RULES);
	__type(key, __u32);
	__type(value, struct dynpf_bucket);
} dynpf_buckets SEC(".maps");

static __always_inline struct dynpf_state *dynpf_state_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&dynpf_state, &zero);
}

/* Both sides of a rule are next to each other: the map is 2 * capacity. */
static __always_inline struct dynpf_rule_ent *dynpf_rule_ent(__u32 side, __u32 id)
{
	__u32 k = (id & (DYNPF_MAX_RULES - 1)) * 2 + (side & 1);

	return bpf_map_lookup_elem(&dynpf_rules, &k);
}

static __always_inline struct dynpf_tuple *dynpf_tuple(__u32 side, __u32 t)
{
	__u32 k = (side & 1) * DYNPF_MAX_TUPLES + (t & (DYNPF_MAX_TUPLES - 1));

	return bpf_map_lookup_elem(&dynpf_tuples, &k);
}

#endif /* DYNPF_BPF_RULES_H */
