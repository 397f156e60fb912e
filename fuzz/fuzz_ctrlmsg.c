// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * libFuzzer target: the control channel's message validator
 * (rules/msgcheck.h, the checks the BPF drain runs), compiled natively.
 *
 * The first input byte chooses how the rest is read: raw (a ring record as
 * any producer could write it), or as the body of a message whose header is
 * made right for its type (so the fuzzer spends its time on the fields).
 * An accepted message must be one the rest of dynpf can live with:
 *  - a rule: the classifier's key is the rule's own (dynpf_rule_key() and
 *    dynpf_rule_match() agree on a packet built from it), and the rule
 *    language prints it (`rules-save`) as text that parses back to the same
 *    rule, so a saved rule set always loads back (a lifetime as the time left
 *    then, in whole seconds: the language's clock is fixed here; a rule on
 *    declared protocols: with every id declared, with 32-bit types, the way
 *    `rules save` prints the declarations before the rules);
 *  - a setting: the language prints it and reads it back;
 *  - a protocol declaration (PROTO_ADD, dynpf_proto_check()): the language
 *    prints it and reads it back to the same descriptor, which the check
 *    accepts again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msgcheck.h"
#include "lang/rules_lang.h"

#define FUZZ_NAME "fuzz_ctrlmsg"
#include "fuzz.h"

static struct dynpf_ruleset back, decl;

/* Every protocol id declared, each with a 32-bit type: any rule's names resolve. */
static const char every_decl[] = "protocol p0 ip proto 150 tlv type u32 length u8\n"
				 "protocol p1 ip proto 151 tlv type u32 length u8\n"
				 "protocol p2 ip proto 152 tlv type u32 length u8\n"
				 "protocol p3 ip proto 153 tlv type u32 length u8\n"
				 "protocol p4 ip proto 154 tlv type u32 length u8\n"
				 "protocol p5 ip proto 155 tlv type u32 length u8\n"
				 "protocol p6 ip proto 156 tlv type u32 length u8\n"
				 "protocol p7 ip proto 157 tlv type u32 length u8\n";

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct dynpf_rule_err err;

	(void)argc;
	(void)argv;
	dynpf_ruleset_init(&decl);
	CHECK(!dynpf_ruleset_parse(&decl, "decl", every_decl, sizeof(every_decl) - 1, &err), "%s",
	      err.msg);
	return 0;
}

#define FUZZ_NOW (1700000000ull * 1000000000ull)

static void check_rule(const struct dynpf_rule *msg)
{
	struct dynpf_rule_err err;
	char line[sizeof(every_decl) + DYNPF_RULE_TEXT_MAX];
	struct dynpf_rule want = *msg, *r = &want;
	int n = sizeof(every_decl) - 1;

	/* What it loads back as: its lifetime the seconds left at the print. */
	dynpf_lang_set_now(FUZZ_NOW);
	if (want.expires)
		want.expires = FUZZ_NOW + dynpf_rule_timeout_left(msg, FUZZ_NOW) * 1000000000ull;

	memcpy(line, every_decl, n);
	n += dynpf_rule_format_p(msg, &decl.protos, line + n, sizeof(line) - n);
	CHECK(n > 0 && (size_t)n < sizeof(line), "format: %d", n);
	dynpf_ruleset_init(&back);
	CHECK(!dynpf_ruleset_parse(&back, "saved", line, n, &err),
	      "an accepted rule prints as '%s', which does not parse: %s", line, err.msg);
	if (back.n == 1 && memcmp(&back.rules[0], r, sizeof(*r))) {
		char again[DYNPF_RULE_TEXT_MAX];
		size_t off = 0;

		while (((const __u8 *)&back.rules[0])[off] == ((const __u8 *)r)[off])
			off++;
		dynpf_rule_format_p(&back.rules[0], &decl.protos, again, sizeof(again));
		CHECK(0,
		      "an accepted rule prints as '%s', which parses to another rule ('%s', "
		      "from byte %zu of struct dynpf_rule)",
		      line, again, off);
	}
	CHECK(back.n == 1, "'%s' parses to %zu rules", line, back.n);
	dynpf_ruleset_free(&back);
}

static void check_proto(const struct dynpf_proto_desc *d)
{
	struct dynpf_rule_err err;
	char line[DYNPF_RULE_TEXT_MAX];
	int n = dynpf_proto_format(d, line, sizeof(line));
	__u16 field;

	CHECK(n > 0 && (size_t)n < sizeof(line), "proto format: %d", n);
	dynpf_ruleset_init(&back);
	CHECK(!dynpf_ruleset_parse(&back, "saved", line, n, &err),
	      "an accepted declaration prints as '%s', which does not parse: %s", line, err.msg);
	/* Read back, it takes the first id: compare it as the one it was. */
	back.protos.d[0].id = d->id;
	CHECK(back.protos.key[0] && !memcmp(&back.protos.d[0], d, sizeof(*d)),
	      "an accepted declaration prints as '%s', which parses to another one", line);
	CHECK(!dynpf_proto_check(&back.protos.d[0], &field), "'%s' read back is refused: %u", line,
	      field);
	dynpf_ruleset_free(&back);
}

static void check_setting(const struct dynpf_msg_set *m)
{
	struct dynpf_rule_err err;
	char line[DYNPF_RULE_TEXT_MAX];
	int n = dynpf_setting_format(m->key, m->value, line, sizeof(line));

	CHECK(n > 0 && (size_t)n < sizeof(line), "setting format: %d", n);
	dynpf_ruleset_init(&back);
	CHECK(!dynpf_ruleset_parse(&back, "saved", line, n, &err),
	      "an accepted setting prints as '%s', which does not parse: %s", line, err.msg);
	CHECK(back.set_seen == 1u << m->key && back.set[m->key] == m->value,
	      "'%s' parses to another setting", line);
	dynpf_ruleset_free(&back);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	union dynpf_msg m;
	__u16 field = 0xffff;
	__u32 len;
	int err;

	if (size < 2 || size - 1 > sizeof(m))
		return 0;
	memset(&m, 0, sizeof(m));
	len = size - 1;
	memcpy(&m, data + 1, len);
	if (data[0] & 1) {
		/* A header right for a type the first byte picks. */
		m.h.version = DYNPF_CTRL_VERSION;
		m.h.type = 1 + (data[0] >> 1) % (DYNPF_MSG_MAX - 1);
		len = m.h.size = dynpf_msg_size(m.h.type);
	}
	err = dynpf_msg_check(&m, len, &field);
	CHECK(field < DYNPF_F_MAX, "field %u", field);
	if (err) {
		CHECK(field != DYNPF_F_NONE, "refused (%d) without naming a field", err);
		return 0;
	}
	CHECK(field == DYNPF_F_NONE, "accepted, naming field %u", field);
	switch (m.h.type) {
	case DYNPF_MSG_RULE_ADD:
		check_rule(&m.add.rule);
		break;
	case DYNPF_MSG_SET:
		check_setting(&m.set);
		break;
	case DYNPF_MSG_PROTO_ADD:
		check_proto(&m.padd.d);
		break;
	}
	return 0;
}
