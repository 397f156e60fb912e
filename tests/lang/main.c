// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Unit tests of the rule language (loader/lang/, docs/rules.md):
 * every match and action keyword into its struct fields, every error with
 * its FILE:LINE:COLUMN, the round trip text -> rule -> text -> rule, and
 * hostile input. Every rule parsed here is also formatted, parsed back and
 * compared byte for byte, and must pass dynpf_rule_check() (rules/match.h),
 * the validation of the control channel.
 *
 * One file a topic (lang.h lists them); here the helpers they share and
 * main(), which ends with "test_rules: N passed, N failed" (tests/lib/unit.h).
 */
#include <errno.h>
#include <string.h>

#include "lang.h"

#include "match.h"

static struct dynpf_rule_ids no_ids;

void roundtrip(const char *name, const struct dynpf_rule *r)
{
	char a[DYNPF_RULE_TEXT_MAX], b[DYNPF_RULE_TEXT_MAX];
	struct dynpf_rule_err err;
	struct dynpf_rule r2;
	char *words[1] = { a };
	int n;

	n = dynpf_rule_format(r, a, sizeof(a));
	CHECK(name, n > 0 && (size_t)n < sizeof(a) && strlen(a) == (size_t)n,
	      "format returned %d for '%s'", n, a);
	if (dynpf_rule_parse_words(&r2, 1, words, &no_ids, &err)) {
		CHECK(name, 0, "'%s' does not parse back: %s", a, err.msg);
		return;
	}
	dynpf_rule_format(&r2, b, sizeof(b));
	CHECK(name, !memcmp(r, &r2, sizeof(r2)), "'%s' parses back to another rule", a);
	CHECK(name, !strcmp(a, b), "'%s' formats back as '%s'", a, b);
	{
		__u16 field;
		int e = dynpf_rule_check(r, &field);

		CHECK(name, e == 0, "'%s': dynpf_rule_check %d, field %u", a, e, field);
	}
}

int rule(const char *name, const char *text, struct dynpf_rule *r)
{
	struct dynpf_rule_err err;
	struct dynpf_ruleset rs;
	int e;

	dynpf_ruleset_init(&rs);
	e = dynpf_ruleset_parse(&rs, FILE_NAME, text, strlen(text), &err);
	CHECK(name, !e && rs.n == 1, "'%s': %s", text, e ? err.msg : "not one rule");
	if (e || rs.n != 1) {
		dynpf_ruleset_free(&rs);
		memset(r, 0, sizeof(*r));
		return -1;
	}
	*r = rs.rules[0];
	dynpf_ruleset_free(&rs);
	roundtrip(name, r);
	return 0;
}

void normalized(const char *text, const char *want)
{
	char buf[DYNPF_RULE_TEXT_MAX];
	struct dynpf_rule r;

	if (rule(text, text, &r))
		return;
	dynpf_rule_format(&r, buf, sizeof(buf));
	CHECK(text, !strcmp(buf, want), "normalized to '%s', want '%s'", buf, want);
}

void fails_n(const char *name, const char *text, size_t len, const char *want)
{
	struct dynpf_rule_err err;
	struct dynpf_ruleset rs;
	int e;

	dynpf_ruleset_init(&rs);
	e = dynpf_ruleset_parse(&rs, FILE_NAME, text, len, &err);
	CHECK(name, e == -EINVAL, "accepted, want the error %s", want);
	if (e == -EINVAL)
		CHECK(name, !strcmp(err.msg, want), "error\n      %s\n want %s", err.msg, want);
	dynpf_ruleset_free(&rs);
}

void fails(const char *text, const char *want)
{
	fails_n(text, text, strlen(text), want);
}

int main(void)
{
	test_matches();
	test_tlvs_and_values();
	test_actions();
	test_timeouts();
	test_ids_and_settings();
	test_normalized();
	test_errors();
	test_roundtrip_file();
	test_format_buffer();
	test_hostile();
	test_needs();
	test_proto_check();
	test_proto_lang();
	return unit_report("test_rules");
}
