// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* dynpf rule add|del|list: one rule of the running daemon at a time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/client.h"
#include "cli/cmds.h"
#include "lib/log.h"

static void rule_usage(FILE *f)
{
	fprintf(f,
		"Usage: dynpf rule add WORDS...   add one rule (docs/rules.md), or declare a\n"
		"                                 protocol: rule add protocol NAME ...\n"
		"       dynpf rule del ID         delete rule ID\n"
		"       dynpf rule del protocol NAME\n"
		"                                 delete a declared protocol (no rule may test it)\n"
		"       dynpf rule list           the active rules, normalized\n");
}

static void rule_added(json_object *rep, const void *arg)
{
	(void)arg;
	if (jget(rep, "protocol")) {
		printf("protocol %s declared (id %lld), generation %lld\n",
		       json_object_get_string(jget(rep, "protocol")),
		       (long long)json_object_get_int64(jget(rep, "id")),
		       (long long)json_object_get_int64(jget(rep, "generation")));
		return;
	}
	printf("rule %lld added, generation %lld\n",
	       (long long)json_object_get_int64(jget(rep, "id")),
	       (long long)json_object_get_int64(jget(rep, "generation")));
}

static void rule_deleted(json_object *rep, const void *id)
{
	if (jget(rep, "protocol"))
		printf("protocol %s deleted, generation %lld\n",
		       json_object_get_string(jget(rep, "protocol")),
		       (long long)json_object_get_int64(jget(rep, "generation")));
	else
		printf("rule %ld deleted, generation %lld\n", *(const long *)id,
		       (long long)json_object_get_int64(jget(rep, "generation")));
}

static void rule_list(json_object *rep, const void *arg)
{
	(void)arg;
	fputs(json_object_get_string(jget(rep, "text")), stdout);
}

int cmd_rule(int argc, char **argv)
{
	json_object *req;

	if (argc < 2 || dynpf_is_help(argv[1])) {
		rule_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? DYNPF_EXIT_USAGE : DYNPF_EXIT_OK;
	}
	/* `rule add --help`: help, not a rule named --help sent to the daemon. */
	if (argc == 3 && dynpf_is_help(argv[2])) {
		rule_usage(stdout);
		return DYNPF_EXIT_OK;
	}
	if (!strcmp(argv[1], "add")) {
		json_object *words;

		if (argc < 3) {
			p_err("rule add: missing the rule");
			return DYNPF_EXIT_USAGE;
		}
		/* The words as the shell split them: the daemon parses them as they are. */
		req = dynpf_client_request("rule-add");
		words = json_object_new_array();
		for (int i = 2; i < argc; i++)
			json_object_array_add(words, json_object_new_string(argv[i]));
		json_object_object_add(req, "words", words);
		return dynpf_client_run(req, rule_added, NULL);
	}
	if (!strcmp(argv[1], "del") && argc > 2 && !strcmp(argv[2], "protocol")) {
		long none = 0;

		if (argc != 4) {
			p_err("rule del protocol: expected one protocol name");
			return DYNPF_EXIT_USAGE;
		}
		req = dynpf_client_request("rule-del");
		json_object_object_add(req, "protocol", json_object_new_string(argv[3]));
		return dynpf_client_run(req, rule_deleted, &none);
	}
	if (!strcmp(argv[1], "del")) {
		char *end;
		long id;

		if (argc != 3) {
			p_err("rule del: expected one rule id");
			return DYNPF_EXIT_USAGE;
		}
		id = strtol(argv[2], &end, 10);
		if (*end || end == argv[2] || id <= 0) {
			p_err("rule del: '%s' is not a rule id", argv[2]);
			return DYNPF_EXIT_USAGE;
		}
		req = dynpf_client_request("rule-del");
		json_object_object_add(req, "id", json_object_new_int64(id));
		return dynpf_client_run(req, rule_deleted, &id);
	}
	if (!strcmp(argv[1], "list"))
		return dynpf_client_run(dynpf_client_request("rules-save"), rule_list, NULL);
	p_err("unknown rule subcommand '%s' (add, del, list)", argv[1]);
	return DYNPF_EXIT_USAGE;
}
