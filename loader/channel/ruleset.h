/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Rule sets through the control channel: loading one, reading the active
 * one back, and verdicts as JSON. The native classifier (the reference the
 * BPF one is compared with) is lang/classify.h, included for its users.
 */
#ifndef DYNPF_CHANNEL_RULESET_H
#define DYNPF_CHANNEL_RULESET_H

#include <json-c/json.h>

#include "channel/ring.h"
#include "lang/classify.h"
#include "lang/rules_lang.h"

/*
 * Why the drain refused a declaration's message (PROTO_ADD, PROTO_DEL), in
 * words: what the member the ack names must be (dynpf_proto_why(), the
 * text `rules check` gives), or what the error says of the rule set's
 * state ("a rule tests it: delete the rules first").
 */
const char *dynpf_proto_refusal(const struct dynpf_ack *a);

/*
 * Load rs through the control channel as one transaction; with old (the
 * active set, from dynpf_ruleset_read), in place of it: old's rules are
 * deleted and the settings rs does not give go back to their defaults, in
 * the same transaction. On a refusal, "FILE:LINE: ..." naming the rule and
 * the field goes to err (or is printed, err NULL), and -EINVAL: nothing
 * changed. 0 on success; *gen (if not NULL) the new generation.
 */
int dynpf_ruleset_apply(struct dynpf_ctrl *c, const struct dynpf_ruleset *rs, const char *file,
			const struct dynpf_ruleset *old, char *err, size_t errlen, __u32 *gen);

/* {"action", "rule", "gen", "matched": [...], "mark"}; gen < 0: left out. */
json_object *dynpf_verdict_to_json(const struct dynpf_verdict *v, bool with_gen);

/*
 * The rule set's maps as memory (BPF_F_MMAPABLE, bpf/rules.h), read-only:
 * the state, the entry of each rule id, the entry pool. What the producer
 * reads between its drain runs is the rule set of the last commit.
 */
struct dynpf_bpf;
struct dynpf_rules_view {
	const struct dynpf_state *st;
	const __u64 *idx;                     /* nids: id -> entry, 0: none */
	const struct dynpf_rule_ent *ent;     /* nents */
	const struct dynpf_proto_tab *protos; /* 2: the declarations (parsers/decltab.h) */
	__u32 nids, nents;
	size_t st_len, idx_len, ent_len, protos_len; /* the mappings' lengths */
};

/* Map them (v zeroed by the caller, or closed). 0 or -errno. */
int dynpf_rules_view_open(struct dynpf_bpf *skel, struct dynpf_rules_view *v);
void dynpf_rules_view_close(struct dynpf_rules_view *v);

/* The rule of id alive at the current generation, or NULL. */
const struct dynpf_rule *dynpf_rules_view_get(const struct dynpf_rules_view *v, __u32 id);

/*
 * The rule set of a loaded object, read back from its maps into rs
 * (initialized by the caller): the rules in id order, and the settings the
 * set holds. What `rules save` prints. 0 or -errno.
 */
int dynpf_ruleset_read(struct dynpf_bpf *skel, struct dynpf_ruleset *rs);

/* The same from a view. */
int dynpf_ruleset_read_view(const struct dynpf_rules_view *v, struct dynpf_ruleset *rs);

/* The largest rule id in rs, + 1: the rule tables a load needs. */
__u32 dynpf_ruleset_capacity(const struct dynpf_ruleset *rs);

#endif
