// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * libFuzzer target: the daemon's request parser (loader/daemon/request.c)
 * over any line, and what the daemon does next with the text of a rules-load,
 * the words of a rule-add or the lines of a rules-apply request: the rule
 * language. A request is either refused with a message, or every field the
 * daemon reads is there, typed and in range.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/request.h"
#include "lang/rules_lang.h"

#define FUZZ_NAME "fuzz_request"
#include "fuzz.h"

static struct dynpf_ruleset rs;
static struct dynpf_rule_ids taken;

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct dynpf_rule_err rerr;
	struct dynpf_req r;
	struct dynpf_rule rule;
	char err[256];

	err[0] = 0;
	if (dynpf_req_parse((const char *)data, size, &r, err, sizeof(err))) {
		CHECK(err[0] && strlen(err) < sizeof(err), "refused without a message");
		CHECK(!r.obj, "refused but kept the request");
		return 0;
	}
	switch (r.cmd) {
	case DYNPF_REQ_RULES_LOAD:
		CHECK(r.text && r.name, "rules-load without text or name");
		dynpf_ruleset_init(&rs);
		if (dynpf_ruleset_parse(&rs, r.name, r.text, r.text_len, &rerr))
			CHECK(rerr.msg[0], "a refused rule file without a message");
		dynpf_ruleset_free(&rs);
		break;
	case DYNPF_REQ_RULE_ADD:
		CHECK(r.words && r.nwords > 0 && r.nwords <= DYNPF_REQ_MAX_WORDS, "rule-add words");
		for (int i = 0; i < r.nwords; i++)
			CHECK(r.words[i], "rule-add word %d missing", i);
		if (dynpf_rule_parse_words(&rule, r.nwords, r.words, &taken, &rerr))
			CHECK(rerr.msg[0], "a refused rule without a message");
		break;
	case DYNPF_REQ_RULE_DEL:
		if (r.proto)
			CHECK(r.proto[0] && strlen(r.proto) < DYNPF_PROTO_NAME_MAX && !r.id,
			      "rule-del protocol");
		else
			CHECK(r.id > 0 && r.id < DYNPF_MAX_RULES, "rule-del id %u", r.id);
		break;
	case DYNPF_REQ_RULES_APPLY:
		CHECK(r.lines && r.nlines > 0 && r.nlines <= DYNPF_REQ_MAX_LINES && r.name &&
			      r.first >= 1,
		      "rules-apply lines");
		for (int i = 0; i < r.nlines; i++) {
			struct dynpf_change c;

			CHECK(r.lines[i] && !strchr(r.lines[i], '\n'), "rules-apply line %d", i);
			if (dynpf_change_parse(&c, r.name, r.first + i, r.lines[i],
					       strlen(r.lines[i]), &taken, NULL, &rerr))
				CHECK(rerr.msg[0], "a refused change without a message");
			else
				CHECK(c.kind <= DYNPF_CHANGE_PROTO_ADD, "change kind %d", c.kind);
		}
		break;
	case DYNPF_REQ_ATTACH:
	case DYNPF_REQ_DETACH:
		CHECK(r.name && r.name[0] && strlen(r.name) < IF_NAMESIZE, "interface name");
		CHECK(r.hook <= DYNPF_ATTACH_TC_EGRESS, "hook %d", r.hook);
		break;
	default:
		break;
	}
	dynpf_req_free(&r);
	return 0;
}
