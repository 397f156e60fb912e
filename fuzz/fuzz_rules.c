// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * libFuzzer target: the rule language (loader/lang/) over any text.
 *
 * A rule file either fails with a message naming file:line:column, or
 * yields rules that (1) the control channel's validator accepts
 * (dynpf_rule_check(), the code the BPF drain runs; the declarations
 * dynpf_proto_check()) and (2) print back (dynpf_ruleset_text(), what
 * `rules-save` writes: declarations, settings, rules) to text that parses
 * to the same set: what the daemon saves, it loads back unchanged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "protocheck.h"
#include "lang/rules_lang.h"

#define FUZZ_NAME "fuzz_rules"
#include "fuzz.h"

static struct dynpf_ruleset rs, back;

int LLVMFuzzerTestOneInput(const __u8 *data, size_t size)
{
	struct dynpf_rule_err err;
	size_t len;
	char *text;

	/* One instant for the parse and the print: a timeout prints back exactly. */
	dynpf_lang_set_now(1700000000ull * 1000000000ull);
	dynpf_ruleset_init(&rs);
	if (dynpf_ruleset_parse(&rs, "fuzz.rules", (const char *)data, size, &err)) {
		CHECK(!strncmp(err.msg, "fuzz.rules:", 11), "message without the file: %s",
		      err.msg);
		CHECK(err.msg[0] && strlen(err.msg) < sizeof(err.msg), "empty message");
		dynpf_ruleset_free(&rs);
		return 0;
	}
	for (size_t i = 0; i < rs.n; i++) {
		__u16 field = 0;
		int e = dynpf_rule_check(&rs.rules[i], &field);

		CHECK(e == 0, "rule %zu (line %lu) refused by the validator: %d, field %u", i,
		      rs.lines[i], e, field);
	}
	for (unsigned int i = 0; i < DYNPF_MAX_PROTOS; i++) {
		__u16 field = 0;

		if (rs.protos.key[i])
			CHECK(!dynpf_proto_check(&rs.protos.d[i], &field),
			      "protocol %u (line %lu) refused by the drain's check: field %u", i,
			      rs.proto_line[i], field);
	}
	/* The whole set as `rules save` writes it: the same set read back. */
	text = dynpf_ruleset_text(&rs, true, &len);
	CHECK(text, "no text");
	dynpf_ruleset_init(&back);
	CHECK(!dynpf_ruleset_parse(&back, "saved", text, len, &err),
	      "the saved text does not parse back: %s\n%s", err.msg, text);
	CHECK(back.n == rs.n && (!rs.n || !memcmp(back.rules, rs.rules, rs.n * sizeof(*rs.rules))),
	      "the saved text parses to other rules:\n%s", text);
	CHECK(!memcmp(back.protos.d, rs.protos.d, sizeof(rs.protos.d)) &&
		      !memcmp(back.protos.key, rs.protos.key, sizeof(rs.protos.key)),
	      "the saved text parses to other declarations:\n%s", text);
	CHECK(back.set_seen == rs.set_seen && !memcmp(back.set, rs.set, sizeof(rs.set)),
	      "the saved text parses to other settings:\n%s", text);
	dynpf_ruleset_free(&back);
	free(text);
	dynpf_ruleset_free(&rs);
	return 0;
}
