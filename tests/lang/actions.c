// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* build/test_rules: every action keyword; rule ids, priorities and settings. */
#include <errno.h>
#include <net/if.h>
#include <string.h>

#include "lang.h"

void test_actions(void)
{
	struct dynpf_rule r;

	if (!rule("pass", "pass", &r)) {
		CHECK_EQ("pass", r.action, DYNPF_ACT_PASS);
		CHECK_EQ("pass", r.arg, 0);
	}
	if (!rule("accept", "accept", &r))
		CHECK_EQ("accept", r.action, DYNPF_ACT_PASS);
	if (!rule("drop", "drop", &r))
		CHECK_EQ("drop", r.action, DYNPF_ACT_DROP);
	if (!rule("redirect lo", "redirect lo", &r)) {
		CHECK_EQ("redirect lo", r.action, DYNPF_ACT_REDIRECT);
		CHECK_EQ("redirect lo", r.arg, if_nametoindex("lo"));
	}
	if (!rule("redirect NUM", "redirect 4001", &r))
		CHECK_EQ("redirect NUM", r.arg, 4001);
	if (!rule("count", "count", &r))
		CHECK_EQ("count", r.action, DYNPF_ACT_COUNT);
	if (!rule("mark", "mark 0xffffffff", &r)) {
		CHECK_EQ("mark", r.action, DYNPF_ACT_MARK);
		CHECK_EQ("mark", r.arg, 0xffffffff);
	}
	if (!rule("mark 0", "mark 0", &r))
		CHECK_EQ("mark 0", r.arg, 0);
	if (!rule("sample", "sample 128", &r)) {
		CHECK_EQ("sample", r.action, DYNPF_ACT_SAMPLE);
		CHECK_EQ("sample", r.sample_len, 128);
		CHECK_EQ("sample", r.sample_rate, 100);
		CHECK_EQ("sample", r.arg, 0);
	}
	if (!rule("sample rate", "sample 256 rate 1/s", &r)) {
		CHECK_EQ("sample rate", r.sample_len, 256);
		CHECK_EQ("sample rate", r.sample_rate, 1);
	}
	if (!rule("limit", "limit 1000/s", &r)) {
		CHECK_EQ("limit", r.action, DYNPF_ACT_LIMIT);
		CHECK_EQ("limit", r.arg, 1000);
		CHECK_EQ("limit", r.burst, 1000);
	}
	if (!rule("limit burst", "limit 1/s burst 4294967295", &r)) {
		CHECK_EQ("limit burst", r.arg, 1);
		CHECK_EQ("limit burst", r.burst, 0xffffffff);
	}
}

/* A lifetime after the action: now + the duration, and the time left printed. */
void test_timeouts(void)
{
	const __u64 now = 1700000000ull * 1000000000ull, s = 1000000000ull;
	char buf[DYNPF_RULE_TEXT_MAX];
	struct dynpf_rule r;

	dynpf_lang_set_now(now);
	if (!rule("timeout 30s", "ip saddr 198.18.0.1 drop timeout 30s", &r))
		CHECK("timeout 30s", r.expires == now + 30 * s, "expires %llu",
		      (unsigned long long)r.expires);
	if (!rule("timeout 5", "drop timeout 5", &r))
		CHECK("timeout 5", r.expires == now + 5 * s, "seconds without a unit");
	if (!rule("timeout 2m", "count timeout 2m", &r))
		CHECK("timeout 2m", r.expires == now + 120 * s, "minutes");
	if (!rule("timeout 3h", "limit 5/s burst 2 timeout 3h", &r))
		CHECK("timeout 3h", r.expires == now + 3 * 3600 * s && r.burst == 2, "hours");
	if (!rule("timeout 1d", "sample 64 rate 2/s timeout 1d", &r))
		CHECK("timeout 1d", r.expires == now + 86400 * s && r.sample_rate == 2, "days");
	normalized("tcp dport 22 drop timeout 1h", "id 1 prio 1 tcp dport 22 drop timeout 3600s");
	/* Time passes: the time left, rounded up; at least a second. */
	r.expires = now + 30 * s;
	dynpf_lang_set_now(now + 29 * s + 1);
	dynpf_rule_format(&r, buf, sizeof(buf));
	CHECK("timeout left", strstr(buf, " timeout 1s"), "'%s'", buf);
	dynpf_lang_set_now(now + 31 * s);
	dynpf_rule_format(&r, buf, sizeof(buf));
	CHECK("timeout past", strstr(buf, " timeout 1s"), "'%s'", buf);
	CHECK_EQ("no timeout", dynpf_rule_timeout_left(&(struct dynpf_rule){ 0 }, now), 0);
	dynpf_lang_set_now(now);
	fails("drop timeout 0",
	      FILE_NAME ":1:14: expected a timeout (NUM[s|m|h|d], 1 second to 136 "
			"years) after 'timeout', got '0'");
	fails("drop timeout 49711d", FILE_NAME ":1:14: expected a timeout (NUM[s|m|h|d], 1 second "
					       "to 136 years) after 'timeout', got '49711d'");
	fails("drop timeout 30x", FILE_NAME ":1:14: expected a timeout (NUM[s|m|h|d], 1 second to "
					    "136 years) after 'timeout', got '30x'");
	fails("drop timeout", FILE_NAME ":1:13: expected a timeout (NUM[s|m|h|d], 1 second to 136 "
					"years) after 'timeout', got end of line");
	fails("timeout 30s drop", FILE_NAME ":1:1: expected a match or an action, got 'timeout' (a "
					    "timeout comes after the action)");
	fails("drop timeout 30s count",
	      FILE_NAME ":1:18: expected the end of the rule after '30s', "
			"got 'count' (a timeout comes last)");
	dynpf_lang_set_now(0);
}

void test_ids_and_settings(void)
{
	static const char text[] = "# ids: explicit, then the lowest free one\n"
				   "id 2 drop\n"
				   "\n"
				   "drop\n"
				   "   drop   # the third\n"
				   "prio 7 drop\n"
				   "id 131071 prio 0 pass\n"
				   "set default-action drop\n"
				   "set pass-arp-nd off\n"
				   "drop\n";
	static const __u32 ids[] = { 2, 1, 3, 4, 131071, 5 }, prios[] = { 2, 1, 3, 7, 0, 5 };
	static const unsigned long lines[] = { 2, 4, 5, 6, 7, 10 };
	static const char settings[] = "set default-action pass\nset pass-arp-nd on\n";
	struct dynpf_rule_ids taken = {};
	struct dynpf_rule_err err;
	struct dynpf_ruleset rs;
	struct dynpf_rule r;
	char *words[] = { "tcp", "dport 22", "drop" };
	char buf[64];

	dynpf_ruleset_init(&rs);
	if (dynpf_ruleset_parse(&rs, FILE_NAME, text, strlen(text), &err)) {
		CHECK("ids", 0, "%s", err.msg);
	} else {
		CHECK_EQ("ids", rs.n, 6);
		for (size_t i = 0; i < rs.n && i < 6; i++) {
			CHECK_EQ("ids", rs.rules[i].id, ids[i]);
			CHECK_EQ("prios", rs.rules[i].prio, prios[i]);
			CHECK_EQ("lines", rs.lines[i], lines[i]);
		}
		CHECK_EQ("settings", rs.set_seen,
			 1u << DYNPF_SET_DEFAULT_ACTION | 1u << DYNPF_SET_PASS_ARP_ND);
		CHECK_EQ("default-action", rs.set[DYNPF_SET_DEFAULT_ACTION], DYNPF_ACT_DROP);
		CHECK_EQ("pass-arp-nd", rs.set[DYNPF_SET_PASS_ARP_ND], 0);
		CHECK_EQ("setting line", rs.set_line[DYNPF_SET_PASS_ARP_ND], 9);
	}
	dynpf_ruleset_free(&rs);

	dynpf_ruleset_init(&rs);
	if (!dynpf_ruleset_parse(&rs, FILE_NAME, settings, strlen(settings), &err)) {
		CHECK_EQ("default-action pass", rs.set[DYNPF_SET_DEFAULT_ACTION], DYNPF_ACT_PASS);
		CHECK_EQ("pass-arp-nd on", rs.set[DYNPF_SET_PASS_ARP_ND], 1);
		dynpf_setting_format(DYNPF_SET_PASS_ARP_ND, 1, buf, sizeof(buf));
		CHECK("setting format", !strcmp(buf, "set pass-arp-nd on"), "%s", buf);
		dynpf_setting_format(DYNPF_SET_DEFAULT_ACTION, DYNPF_ACT_PASS, buf, sizeof(buf));
		CHECK("setting format", !strcmp(buf, "set default-action pass"), "%s", buf);
	} else {
		CHECK("settings", 0, "%s", err.msg);
	}
	dynpf_ruleset_free(&rs);

	/* Words: joined, re-split; the lowest id not taken; prio = id. */
	dynpf_rule_ids_set(&taken, 1);
	dynpf_rule_ids_set(&taken, 2);
	dynpf_rule_ids_set(&taken, 4);
	if (!dynpf_rule_parse_words(&r, 3, words, &taken, &err)) {
		CHECK_EQ("words id", r.id, 3);
		CHECK_EQ("words prio", r.prio, 3);
		CHECK_EQ("words dport", r.m.dport_lo, 22);
	} else {
		CHECK("words", 0, "%s", err.msg);
	}
	if (!dynpf_rule_parse_words(&r, 3, words, NULL, &err))
		CHECK_EQ("words, nothing taken", r.id, 1);
	else
		CHECK("words, nothing taken", 0, "%s", err.msg);
	words[2] = "dorp";
	CHECK("words error",
	      dynpf_rule_parse_words(&r, 3, words, NULL, &err) == -EINVAL &&
		      !strcmp(err.msg,
			      "<command line>:1:14: expected a match or an action after '22', got 'dorp'"),
	      "%s", err.msg);
	CHECK_EQ("words error column", err.col, 14);
	CHECK("no words",
	      dynpf_rule_parse_words(&r, 0, words, NULL, &err) == -EINVAL &&
		      !strcmp(err.msg, "<command line>:1:1: expected a rule, got end of line"),
	      "%s", err.msg);
}
