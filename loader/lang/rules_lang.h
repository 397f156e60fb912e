/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The rule language of docs/rules.md: text to struct dynpf_rule and back.
 *
 * A rule parses to exactly one struct: every field the rule does not use is
 * zero, the TLV and value tests are sorted (the order of the docs' table,
 * then by type), so the normalized text of a rule (dynpf_rule_format) parses
 * back to the same bytes, and formats to the same text.
 *
 * No I/O but reading a rule file, no json-c, no libbpf: the unit tests and
 * the fuzz targets link loader/lang/ alone (the Makefile's LANG_SRCS). Its
 * files, and what each holds: lang/lang.h.
 */
#ifndef DYNPF_RULES_LANG_H
#define DYNPF_RULES_LANG_H

#include <stdbool.h>
#include <stddef.h>

#include "dynpf/ctrl.h"

/* Where an error is and what it is: msg is the whole one-line message. */
struct dynpf_rule_err {
	char msg[512];      /* "FILE:LINE:COLUMN: expected X after 'Y', got 'Z'" */
	unsigned long line; /* 1-based, 0 when the error is not about a line (I/O) */
	unsigned long col;  /* 1-based byte column of the offending word */
};

/* Rule ids in use: one bit per id (id 0 is never given out). */
struct dynpf_rule_ids {
	__u64 w[DYNPF_MAX_RULES / 64];
};

static inline int dynpf_rule_ids_test(const struct dynpf_rule_ids *ids, __u32 id)
{
	return id < DYNPF_MAX_RULES && (ids->w[id / 64] >> (id % 64)) & 1;
}

static inline void dynpf_rule_ids_set(struct dynpf_rule_ids *ids, __u32 id)
{
	if (id < DYNPF_MAX_RULES)
		ids->w[id / 64] |= 1ull << (id % 64);
}

/* The source name of a rule given as words (error messages). */
#define DYNPF_RULE_CMDLINE "<command line>"

/*
 * One rule from words (a command line's argv): they are joined with single
 * blanks and parsed as one line of a rule file, so a word may also hold
 * several words. A rule without "id" gets the lowest id not in taken (NULL:
 * none taken); without "prio", its id. 0, or -EINVAL with err set; errors
 * are "<command line>:1:COLUMN: ...", COLUMN in the joined text.
 */
int dynpf_rule_parse_words(struct dynpf_rule *r, int nwords, char *const *words,
			   const struct dynpf_rule_ids *taken, struct dynpf_rule_err *err);

/*
 * A line of `dynpf rules apply`: a change in the CLI's words, "rule add
 * RULE" (RULE as on a line of a rule file, or after `dynpf rule add`),
 * "rule del ID", "rule add protocol NAME ..." (a `protocol` line of a rule
 * file) or "rule del protocol NAME"; a blank line or a comment is no
 * change. src and line name it in messages: "SRC:LINE:COLUMN: ...". A rule
 * without "id" gets the lowest id not in taken (NULL: none taken). protos
 * (may be NULL) holds the protocols declared: those a rule may test and a
 * deletion may name, whose ids, names and bindings a declaration may not
 * take (it gets the lowest id free). 0, or -EINVAL with err set.
 */
enum dynpf_change_kind {
	DYNPF_CHANGE_NONE,
	DYNPF_CHANGE_ADD,
	DYNPF_CHANGE_DEL,       /* rule.id */
	DYNPF_CHANGE_PROTO_ADD, /* proto */
	DYNPF_CHANGE_PROTO_DEL, /* proto.id, proto.name */
};

struct dynpf_change {
	enum dynpf_change_kind kind;
	struct dynpf_rule rule;
	struct dynpf_proto_desc proto;
};

int dynpf_change_parse(struct dynpf_change *c, const char *src, unsigned long line, const char *s,
		       size_t len, const struct dynpf_rule_ids *taken,
		       const struct dynpf_proto_tab *protos, struct dynpf_rule_err *err);

/* The same, the rule may match on the protocols declared in protos (may be NULL). */
int dynpf_rule_parse_words_p(struct dynpf_rule *r, int nwords, char *const *words,
			     const struct dynpf_rule_ids *taken,
			     const struct dynpf_proto_tab *protos, struct dynpf_rule_err *err);

/*
 * A protocol declaration from words ("protocol", NAME, ...), as one line
 * of a rule file: d gets the lowest id not declared in known (the active
 * set's declarations, may be NULL), whose names and bindings it may not
 * take. 0, or -EINVAL with err set ("<command line>:1:COLUMN: ...").
 */
int dynpf_proto_parse_words(struct dynpf_proto_desc *d, int nwords, char *const *words,
			    const struct dynpf_proto_tab *known, struct dynpf_rule_err *err);

/* A rule file: its rules in file order, and the settings it gives. */
struct dynpf_ruleset {
	struct dynpf_rule *rules;
	unsigned long *lines; /* the source line of each rule */
	size_t n, cap;
	unsigned int set_seen;    /* 1 << DYNPF_SET_* of the settings given */
	__u64 set[DYNPF_SET_MAX]; /* their values, as in struct dynpf_msg_set */
	unsigned long set_line[DYNPF_SET_MAX];
	struct dynpf_rule_ids ids; /* the ids of rules[] */
	__u32 free_hint;           /* no id below it is free */
	/*
	 * Protocols declared at runtime (`protocol` lines, before the rules
	 * that match on them): their table (include/dynpf/proto.h), and the
	 * line each is declared on.
	 */
	struct dynpf_proto_tab protos;
	unsigned long proto_line[DYNPF_MAX_PROTOS];
};

void dynpf_ruleset_init(struct dynpf_ruleset *rs);
void dynpf_ruleset_free(struct dynpf_ruleset *rs);

/*
 * Parse len bytes of rule-file text (NUL bytes included) into rs, which
 * must be freshly initialized. name is the file name for messages. 0, or
 * -EINVAL with err set at the first error (rs then holds the rules before
 * it and must only be freed), or -ENOMEM.
 */
int dynpf_ruleset_parse(struct dynpf_ruleset *rs, const char *name, const char *text, size_t len,
			struct dynpf_rule_err *err);

/*
 * Read and parse a rule file ("-": standard input). -EINVAL: a language
 * error (err->line != 0); another negative errno: the file could not be
 * read (err->msg says "FILE: reason", err->line is 0).
 */
int dynpf_ruleset_load(struct dynpf_ruleset *rs, const char *path, struct dynpf_rule_err *err);

/*
 * A rule's lifetime (`timeout DURATION`, after the action): the parser sets
 * struct dynpf_rule.expires to now + DURATION, the printer writes the time
 * left, rounded up to a second. Now is CLOCK_REALTIME, or the time given
 * here (nanoseconds; 0: the real clock again), for tests that need one
 * instant.
 */
#define DYNPF_TIMEOUT_MAX 4294967295u /* seconds */
__u64 dynpf_lang_now(void);
void dynpf_lang_set_now(__u64 ns);

/*
 * The seconds left of a rule's lifetime at now_ns, rounded up, 1 at least
 * and DYNPF_TIMEOUT_MAX at most; 0: none set.
 */
__u64 dynpf_rule_timeout_left(const struct dynpf_rule *r, __u64 now_ns);

/* Enough for any rule's normalized text. */
#define DYNPF_RULE_TEXT_MAX 1536

/*
 * The normalized text of a rule: "id N prio N", then "inner" for a rule on
 * the inner stack, the matches in the order of the docs' table, the action,
 * and "timeout Ns" (the seconds left, rounded up, at least 1) for a rule
 * with a lifetime.
 * snprintf's contract: returns the length of the whole text.
 */
int dynpf_rule_format(const struct dynpf_rule *r, char *buf, size_t len);

/*
 * The same, naming the declared protocols of protos (without them, a test
 * of one is written "protoID option ...", which does not parse back).
 */
int dynpf_rule_format_p(const struct dynpf_rule *r, const struct dynpf_proto_tab *protos, char *buf,
			size_t len);

/* A declaration's normalized line: "protocol acme udp dport 7777 header 8 tlv ...". */
int dynpf_proto_format(const struct dynpf_proto_desc *d, char *buf, size_t len);

/*
 * A rule set as a rule file that loads back to it: its declarations in id
 * order, its settings, its rules (in rules[]'s order), one a line,
 * normalized; what `rules check` and `rules save` print. A rule with a
 * lifetime says the time it has left when lifetimes is set. malloc'd, NUL
 * ended, *len its length; NULL when out of memory.
 */
char *dynpf_ruleset_text(const struct dynpf_ruleset *rs, bool lifetimes, size_t *len);

/* A range as the language writes it, "LO" or "LO-HI" (nft writes it so too): buf. */
#define DYNPF_RANGE_TEXT_MAX 24
const char *dynpf_range_text(char *buf, __u32 lo, __u32 hi);

/* "set default-action drop": a setting line. snprintf's contract. */
int dynpf_setting_format(unsigned int key, __u64 value, char *buf, size_t len);

/* Names, for JSON and messages; NULL when the value has none. */
const char *dynpf_action_name(unsigned int action);                  /* "pass", ... */
const char *dynpf_setting_name(unsigned int key);                    /* "default-action", ... */
const char *dynpf_setting_value_name(unsigned int key, __u64 value); /* "drop", "on" */
const char *dynpf_val_name(unsigned int field);                      /* "tcp-mss", ... */
const char *dynpf_frag_name(unsigned int frag);       /* "none", "any", "first", "later" */
const char *dynpf_match_error_name(unsigned int err); /* "ok", "truncated", ... */
/* A TLV test's family: "tcp_opt", ... as DYNPF_TLV_FAMILIES, "ip6_exthdr" */
const char *dynpf_tlv_test_family_name(unsigned int family);
/* Where a byte test reads: "tcp_opt", ... as DYNPF_TLV_FAMILIES, "gtpu_ext", "l3", "l4", "payload" */
const char *dynpf_data_where_name(unsigned int where);
/* A byte test's value or mask, its len bytes: "0x00ff". buf: at least 35 bytes. */
const char *dynpf_data_hex(const __u8 *b, unsigned int len, char *buf);
/* The name of the struct dynpf_match field of a DYNPF_M_* bit: "ifindex", ... */
const char *dynpf_match_field_name(__u32 bit);

#endif
