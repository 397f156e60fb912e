/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The daemon's request parser: one line of the control socket, checked
 * whole (JSON, "cmd", each field's type and range) before the daemon acts
 * on any of it. Kept apart from the daemon so it can be fuzzed alone
 * (fuzz/fuzz_request.c).
 */
#ifndef DYNPF_LOADER_REQUEST_H
#define DYNPF_LOADER_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "daemon/config.h"

/* Words of one rule-add request, at most. */
#define DYNPF_REQ_MAX_WORDS 4096
/* Lines of one rules-apply request, at most. */
#define DYNPF_REQ_MAX_LINES 65536

enum dynpf_req_cmd {
	DYNPF_REQ_STATUS,
	DYNPF_REQ_RULES_LOAD, /* text, name */
	DYNPF_REQ_RULES_SAVE,
	DYNPF_REQ_RULE_ADD, /* words */
	DYNPF_REQ_RULE_DEL, /* id, or proto */
	DYNPF_REQ_STATS,
	DYNPF_REQ_ATTACH,      /* name, hook, frags */
	DYNPF_REQ_DETACH,      /* name, hook (has_hook) */
	DYNPF_REQ_RULES_APPLY, /* lines, first, name, batch */
};

struct dynpf_req {
	enum dynpf_req_cmd cmd;
	json_object *obj; /* the request: owns the strings below */
	const char *text; /* rules-load */
	size_t text_len;
	char **words; /* rule-add: the rule's words, as the shell split them */
	int nwords;
	char **lines; /* rules-apply: "rule add ..." and "rule del ID" lines */
	int nlines;
	unsigned long first; /* rules-apply: the line number of lines[0] (default 1) */
	bool batch;          /* rules-apply: blank lines separate transactions */
	const char *name;    /* rules-load, rules-apply (default "<request>"), attach, detach */
	uint32_t id;         /* rule-del: a rule */
	const char *proto;   /* rule-del: a declared protocol's name, or NULL */
	enum dynpf_attach_hook hook;
	bool has_hook;
	bool frags;
};

/*
 * Parse one request line of len bytes (no newline). 0, with r to release
 * with dynpf_req_free(); or -1 with a message for the reply in err.
 */
int dynpf_req_parse(const char *line, size_t len, struct dynpf_req *r, char *err, size_t err_len);
void dynpf_req_free(struct dynpf_req *r);

#endif
