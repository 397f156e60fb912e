// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * libFuzzer target: the rule language (loader/lang/) over any text.
 *
 * A rule file either fails with a message naming file:line:column, or
 * yields rules that (1) the control channel's validator accepts
 * (dynpf_rule_check(), the code the BPF drain runs) and (2) print back
 * (dynpf_rule_format(), what `rules-save` writes) to text that parses to
 * the same rule: what the daemon saves, it loads back unchanged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "lang/rules_lang.h"

#define FUZZ_NAME "fuzz_rules"
#include "fuzz.h"

static struct dynpf_ruleset rs, back;

int LLVMFuzzerTestOneInput(const __u8 *data, size_t size)
{
	struct dynpf_rule_err err;
	char line[DYNPF_RULE_TEXT_MAX];

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
		const struct dynpf_rule *r = &rs.rules[i];
		__u16 field = 0;
		int e = dynpf_rule_check(r, &field);
		int n;

		CHECK(e == 0, "rule %zu (line %lu) refused by the validator: %d, field %u", i,
		      rs.lines[i], e, field);
		n = dynpf_rule_format(r, line, sizeof(line));
		CHECK(n > 0 && (size_t)n < sizeof(line), "format: %d", n);
		dynpf_ruleset_init(&back);
		CHECK(!dynpf_ruleset_parse(&back, "saved", line, n, &err),
		      "'%s' does not parse back: %s", line, err.msg);
		CHECK(back.n == 1, "'%s' parses to %zu rules", line, back.n);
		CHECK(!memcmp(&back.rules[0], r, sizeof(*r)), "'%s' parses to another rule", line);
		dynpf_ruleset_free(&back);
	}
	for (unsigned int k = 0; k < DYNPF_SET_MAX; k++) {
		int n;

		if (!(rs.set_seen & (1u << k)))
			continue;
		n = dynpf_setting_format(k, rs.set[k], line, sizeof(line));
		CHECK(n > 0 && (size_t)n < sizeof(line), "setting format: %d", n);
		dynpf_ruleset_init(&back);
		CHECK(!dynpf_ruleset_parse(&back, "saved", line, n, &err),
		      "'%s' does not parse back: %s", line, err.msg);
		CHECK(back.set_seen == (1u << k) && back.set[k] == rs.set[k],
		      "'%s' parses to another setting", line);
		dynpf_ruleset_free(&back);
	}
	dynpf_ruleset_free(&rs);
	return 0;
}
