/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * What the files of the rule language share, and no other folder uses (the
 * public interface is lang/rules_lang.h):
 *
 *   lex.c      the words of a line, numbers, ranges, addresses, interfaces,
 *              and the FILE:LINE:COLUMN messages
 *   names.c    the names of values (protocols, flags, TLV types, errors,
 *              actions, settings) for the parser and the printer
 *   match.c    the match keywords: one table, a parser function each
 *   action.c   the actions and their arguments
 *   ruleset.c  a whole rule (id, prio, matches, action), rule ids,
 *              settings, rule files and rule sets
 *   print.c    a rule back to its normalized text
 *   proto.c    protocol declarations and the matches on declared protocols
 *   classify.c the native reference classifier (lang/classify.h)
 */
#ifndef DYNPF_LANG_LANG_H
#define DYNPF_LANG_LANG_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "lang/rules_lang.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/*
 * The matches a rule has at most once, in the docs' table order; the value
 * tests follow (SLOT_VAL + DYNPF_V_* - 1). The parser keeps where each was
 * given, for the messages about duplicates and conflicts. SLOT_NONE: a
 * match that may be given more than once (the TLV tests).
 */
enum slot {
	SLOT_NONE,
	SLOT_IIF,
	SLOT_ETH_SRC,
	SLOT_ETH_DST,
	SLOT_ETHERTYPE,
	SLOT_VLAN,
	SLOT_FAMILY,
	SLOT_SRC,
	SLOT_DST,
	SLOT_PROTO,
	SLOT_FRAG,
	SLOT_TTL,
	SLOT_DSCP,
	SLOT_SPORT,
	SLOT_DPORT,
	SLOT_TCP_FLAGS,
	SLOT_ERROR,
	SLOT_INNER,
	SLOT_VAL,
	SLOT_N = SLOT_VAL + DYNPF_V_MAX - 1,
};

/* lex.c: one word of a line. */
struct word {
	const char *p; /* NULL: the end of the line */
	size_t len;
	size_t col; /* 1-based; at the end of the line, right after the last word */
};

/* The parser of one line: where it is, and what the rule has so far. */
struct rp {
	const char *src;
	unsigned long line;
	const char *s; /* the line, without its newline */
	size_t len, pos;
	struct word prev, cur;
	size_t col; /* the first word of the match being read */
	struct dynpf_rule_err *err;
	struct dynpf_rule *r;
	const struct dynpf_proto_tab *protos; /* the names a rule may match on, or NULL */
	size_t slot_col[SLOT_N];
	const char *slot_what[SLOT_N];
	size_t fam_col, proto_col, stack_col, id_col;
	const char *fam_what, *proto_what, *stack_what;
	size_t tlv_col[DYNPF_MATCH_TLVS];
	bool has_id, has_prio;
};

void rp_init(struct rp *p, const char *src, unsigned long line, const char *s, size_t len,
	     struct dynpf_rule *r, struct dynpf_rule_err *err);

/* The next word of the line into p->cur, the current one into p->prev. */
void rp_next(struct rp *p);
/* The word after the current one, without moving. */
struct word rp_peek(const struct rp *p);

static inline bool word_eq(const struct word *w, const char *s)
{
	size_t n = strlen(s);

	return w->p && w->len == n && !memcmp(w->p, s, n);
}

/* The current word is s. */
static inline bool rp_is(const struct rp *p, const char *s)
{
	return word_eq(&p->cur, s);
}

/* "FILE:LINE:COL: ..." into p->err; -EINVAL. */
int rp_fail(struct rp *p, size_t col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* "expected WHAT after 'PREV', got 'CUR'" at the current word; -EINVAL. */
int rp_expected(struct rp *p, const char *what);
/* The same, with a reason after it. */
int rp_expected_why(struct rp *p, const char *what, const char *why);
/* Move to the next word, which must be there. */
int rp_need(struct rp *p, const char *what);

/* NUM: decimal or 0x hex, every byte of s, at most max (<= UINT32_MAX). */
bool lang_num(const char *s, size_t n, __u32 max, __u32 *out);
bool word_num(const struct word *w, __u32 max, __u32 *out);
/* A MAC address, 02:00:00:00:00:01. */
bool word_mac(const struct word *w, __u8 *out);

/* The next word, which must be a RANGE (NUM or NUM-NUM) within max. */
int rp_need_range(struct rp *p, const char *what, __u32 max, __u32 *lo, __u32 *hi);
/* IFNAME|NUM: a number is an index (1 or more), a name must exist now. */
int rp_need_ifindex(struct rp *p, const char *what, __u32 *out);
/* PREFIX: an address of family fam (4, 6), and /LEN or the whole address. */
int rp_need_prefix(struct rp *p, int fam, const char *what, __u8 *addr, __u8 *plen);

/* names.c: a value's name, both ways. Tables end with an empty entry. */
struct name_val {
	const char *name;
	__u32 val;
};

extern const struct name_val lang_ethertypes[], lang_ipprotos[], lang_frags[], lang_tcp_flags[],
	lang_err_names[], lang_actions[], lang_settings[];

/* NULL when val has no name in t. */
const char *nv_name(const struct name_val *t, __u32 val);
/* The entry named w, NULL when none is. */
const struct name_val *nv_lookup(const struct name_val *t, const struct word *w);

/*
 * TLV presence tests, in the order of the docs' table: the order they are
 * kept in (and printed), dynpf_tlv_test_rank()'s (rules/match.h).
 * types: the names; NULL for Geneve (CLASS:TYPE).
 * only_named: a number must be one of the names' (extension headers).
 */
struct tlv_kind {
	const char *words;
	__u8 family;
	const struct name_val *types;
	bool only_named;
};

extern const struct tlv_kind lang_tlv_kinds[];
const struct tlv_kind *tlv_kind_of(__u32 family); /* NULL: not a family */

/* Value tests, indexed by DYNPF_V_* - 1: the docs' table order too. */
struct val_kind {
	__u8 field;
	const char *words;
};

extern const struct val_kind lang_val_kinds[];

/* match.c: one match, from its first word (cur) to its last. */
int rp_match(struct rp *p);
/* A match keyword whose first word in() does not hold, or NULL. */
const char *lang_match_word_missing(int (*in)(const char *name));

/*
 * proto.c: a `protocol` line, the current word `protocol`, into d, its id
 * the lowest not in known (the declarations before it, whose names and
 * bindings it may not take; known_line: their lines, for messages).
 */
int lang_proto(struct rp *p, struct dynpf_proto_desc *d, const struct dynpf_proto_tab *known,
	       const unsigned long *known_line);
/*
 * A word a rule starts with that dynpf_proto_reserved() (rules/protocheck.h)
 * does not hold, or NULL: the list the drain checks names against is the
 * language's.
 */
const char *lang_reserved_missing(void);
/* The declared protocol w names in t: its id, or -1. */
int lang_proto_find(const struct dynpf_proto_tab *t, const struct word *w);
/* NAME option TYPE [missing | data ...]: a declared protocol's match (cur: NAME). */
int lang_decl_match(struct rp *p, int id);

/* names.c: "match.src" for DYNPF_F_* */
const char *lang_field_name(unsigned int field);

/* action.c: is the current word an action; the action, from it to its last word. */
bool rp_is_action(const struct rp *p);
int rp_action(struct rp *p);
/* The current word is "timeout": its duration, into the rule's expires. */
int rp_timeout(struct rp *p);

/* One hex digit's value, or -1 (lex.c). */
int lang_hexval(char c);

#endif
